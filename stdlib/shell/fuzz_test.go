package shell

import (
	"context"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// FuzzParse checks that no input crashes Parse or Split, and that what
// Parse returns is well formed. Run it with
//
//	go test -fuzz FuzzParse ./stdlib/shell/
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.line)
	}
	for _, line := range []string{
		"((((((((((((1))))))))))))", "a <<EOF\n$(b)\nEOF", "x=$'\\x00'", "{1..3..0}",
		"sh -c", "find -exec", "xargs", "ssh", "env -S", "eval ''", "trap", "su -c",
	} {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmds, err := Parse(context.Background(), line)
		if err == nil {
			checkInvariants(t, line, cmds)
			if err := stdlib.Check(Values(cmds)); err != nil {
				t.Errorf("Parse(%q): %v", line, err)
			}
		}
		if words, err := Split(line); err == nil && words == nil {
			t.Errorf("Split(%q) returned nil without an error", line)
		}
	})
}
