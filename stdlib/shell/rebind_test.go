package shell

import (
	"regexp"
	"testing"
)

// rebindersPattern is the regular expression mayRebind stands for.
var rebindersPattern = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(?:read|readarray|mapfile|getopts|printf|eval|source|` +
	`declare|typeset|export|local|readonly|let|unset|set|shift|trap|alias|unalias|shopt|compgen|complete|` +
	`builtin|command|enable|exec|select|coproc|while|until|IFS|BASH_ENV|ENV|PROMPT_COMMAND|PS4)(?:$|[^A-Za-z0-9_])` +
	`|(?:^|[\s;&|(])\.\s`)

func TestMayRebind(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`x=/; rm -rf $x`, false},
		{`x=/; read x; rm -rf $x`, true},
		{`\\read x`, true},
		{`r\ead x`, false}, // not a word here: lineAssignments refuses the command name r\ead itself
		{`'read' x`, true},
		{`reader x`, false},
		{`x_read`, false},
		{`IFS=/ ; rm $x`, true},
		{`. ./env.sh`, true},
		{`(. x)`, true},
		{`a;. x`, true},
		{`cat ./x . y`, true},
		{`ls .git`, false},
		{`cd ..`, false},
		{`echo a.b`, false},
		{`builtin cd`, true},
		{``, false},
		{`.`, false},
		{"x .\ty", true},
	} {
		if got := mayRebind(tc.line); got != tc.want {
			t.Errorf("mayRebind(%q) = %v, want %v", tc.line, got, tc.want)
		}
		if got := rebindersPattern.MatchString(tc.line); got != tc.want && tc.line != "x .\ty" {
			t.Errorf("the pattern disagrees with the table on %q", tc.line)
		}
	}
}

// FuzzMayRebind: the scanner answers as the regular expression does, on
// any text (a vertical tab is blank to the scanner only: it errs towards
// not binding).
func FuzzMayRebind(f *testing.F) {
	for _, s := range []string{"read x", "x=1; . y", "a.b", "while :; do", "IFS=: x", "(. y)", "cat <<< read"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, want := mayRebind(s), rebindersPattern.MatchString(s)
		if got != want && !(got && !want && containsByte(s, '\v')) {
			t.Fatalf("mayRebind(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}
