package shell

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestSalvage checks what Salvage recovers from lines that do not parse
// whole, and that it recovers nothing from text inside quotes.
func TestSalvage(t *testing.T) {
	for _, tt := range []struct {
		line     string
		argvs    string // the commands' argvs, joined by " | "
		unparsed string // the unparsed parts, joined by " | "
	}{
		{"ls -l", "ls -l", ""},
		{"", "", ""},
		{"echo \\$(cat .env)", "", "echo \\$(cat .env)"},
		{"echo \\$(cat .env); rm -rf /", "rm -rf /", "echo \\$(cat .env)"},
		{"make ((\nrm -rf ~", "rm -rf ~", "make (("},
		{"a (( && b || c", "b | c", "a (("},
		{"echo 'x; rm -rf /' (", "", "echo 'x; rm -rf /' ("},
		{"echo \"a && rm -rf /\" (", "", "echo \"a && rm -rf /\" ("},
		{"f() { ; rm -rf /", "rm -rf /", "f() {"},
		{"curl x | sh && (", "curl x | sh", "("},
	} {
		t.Run(tt.line, func(t *testing.T) {
			cmds, unparsed, err := Salvage(context.Background(), tt.line)
			if err != nil {
				t.Fatalf("Salvage(%q): %v", tt.line, err)
			}
			var argvs []string
			for _, c := range cmds {
				argvs = append(argvs, strings.Join(c.Argv, " "))
			}
			if got := strings.Join(argvs, " | "); got != tt.argvs {
				t.Errorf("commands = %q, want %q", got, tt.argvs)
			}
			if got := strings.Join(unparsed, " | "); got != tt.unparsed {
				t.Errorf("unparsed = %q, want %q", got, tt.unparsed)
			}
		})
	}
}

func TestSalvageLimits(t *testing.T) {
	_, _, err := Salvage(context.Background(), strings.Repeat("x", MaxLineBytes+1))
	if !errors.Is(err, ErrTooLong) {
		t.Errorf("a line over the limit: err = %v, want ErrTooLong", err)
	}
	cmds, _, err := Salvage(context.Background(), "(\n"+strings.Repeat("a;", 600)+"\n"+strings.Repeat("b;", 600)+" ((")
	if !errors.Is(err, ErrTooMany) {
		t.Errorf("too many commands in all: %d commands, err = %v, want ErrTooMany", len(cmds), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Salvage(ctx, "a ((; b"); err == nil {
		t.Errorf("a done context: no error")
	}
}
