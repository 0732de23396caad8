package re

import (
	"regexp/syntax"
	"strings"
	"testing"
)

// TestProgSizeBoundsProgram checks that the estimate is not below the
// real compiled size by much, so MaxProgram really bounds memory.
func TestProgSizeBoundsProgram(t *testing.T) {
	patterns := []string{
		`a`, `abc`, `a*`, `a+`, `a?`, `(a)`, `a|b|c`, `[a-z]{1000}`, `a{2,5}`, `a{2,}`, `(?:ab){0,100}`,
		`(?i)hello`, `\b\w+@\w+\.\w+\b`, `^.{0,1000}$`, `((a|b){3,7}c){2,30}`, `(?s).*secret.*`,
		strings.Repeat(`[a-z]{1000}`, 16), `é{1000}`, `[^\n]{500}x`,
	}
	for _, p := range patterns {
		tree, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		est := progSize(tree)
		prog, err := syntax.Compile(tree.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		if real := len(prog.Inst); real > est+8 {
			t.Errorf("%.40s: estimate %d, compiled %d instructions", p, est, real)
		}
	}
}
