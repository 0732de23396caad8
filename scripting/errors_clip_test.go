package scripting

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// An error's text stays short whatever its message quotes, cut at a
// character boundary, and says how much it left out.
func TestErrorTextIsClipped(t *testing.T) {
	long := strings.Repeat("é", 3<<20) // 6 MiB of two-byte characters
	e := &Error{File: "a.star", Line: 3, Hook: "a.star:h", Msg: "invalid literal: " + long}
	got := e.Error()
	if len(got) > MaxErrorText+100 || !utf8.ValidString(got) {
		t.Fatalf("error text of %d bytes (valid UTF-8: %v)", len(got), utf8.ValidString(got))
	}
	if !strings.HasPrefix(got, `a.star:3: hook "a.star:h": invalid literal: éé`) || !strings.HasSuffix(got, " more bytes)") {
		t.Fatalf("error text %.80q … %q", got, got[len(got)-40:])
	}
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefghij… (1 more bytes)"},
		{"aé", 2, "a… (2 more bytes)"},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
