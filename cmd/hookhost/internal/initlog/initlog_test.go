package initlog

import (
	"bytes"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hookhost", "gemini", "--dir", "d"}, "gemini"},
		{[]string{"hookhost", "--help", "gemini"}, "gemini"},
		{[]string{"hookhost", "claude"}, "claude"},
		{[]string{"hookhost", "--version"}, ""},
		{[]string{"hookhost"}, ""},
		{nil, ""},
	} {
		if got := command(tc.args); got != tc.want {
			t.Errorf("command(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestHolder(t *testing.T) {
	h := &holder{}
	h.Write([]byte("starlark: no 4GB\n"))
	h.Write([]byte(strings.Repeat("x", maxHeld))) // past the bound: cut
	var to bytes.Buffer
	h.release(&to)
	if got := to.String(); !strings.HasPrefix(got, "starlark: no 4GB\n") || len(got) != maxHeld {
		t.Errorf("released %d bytes starting %.20q, want the first %d held", len(got), got, maxHeld)
	}
	h.Write([]byte("later\n"))
	if !strings.HasSuffix(to.String(), "later\n") {
		t.Errorf("after release, writes do not pass on: %q", to.String()[len(to.String())-10:])
	}
}
