package shell

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

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
	for _, tc := range codeLines {
		f.Add(tc.line)
	}
	for _, tc := range interpLines {
		f.Add(tc.line)
	}
	for _, line := range []string{
		"((((((((((((1))))))))))))", "a <<EOF\n$(b)\nEOF", "x=$'\\x00'", "{1..3..0}",
		"sh -c", "find -exec", "xargs", "ssh", "env -S", "eval ''", "trap", "su -c",
		"deno eval 'Deno.removeSync(\x00\x00(  {recursive! true))'",
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

// FuzzCodeCalls checks that no code crashes CodeCalls in any language,
// and that what it returns is well formed.
func FuzzCodeCalls(f *testing.F) {
	for _, tc := range codeCases {
		f.Add(uint8(slicesIndex(Languages, tc.lang)), tc.code)
	}
	f.Fuzz(func(t *testing.T, lang uint8, code string) {
		l := Languages[int(lang)%len(Languages)]
		calls, err := CodeCalls(l, code)
		if err != nil {
			if !errors.Is(err, ErrTooLong) {
				t.Fatalf("CodeCalls(%s, %q): %v", l, code, err)
			}
			return
		}
		for _, c := range calls {
			withPaths := c.Kind == "delete" || c.Kind == "write" // the calls whose Args are paths
			if len(c.Args) == 0 || len(c.argDyn) != len(c.Args) || withPaths != (len(c.Paths) == len(c.Args)) {
				t.Errorf("CodeCalls(%s, %q): malformed %+v", l, code, c)
			}
		}
		if err := stdlib.Check(CallValues(calls)); err != nil {
			t.Errorf("CodeCalls(%s, %q): %v", l, code, err)
		}
	})
}

func slicesIndex(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return 0
}

// nestedLine wraps rm -rf / depth times in one of the forms that run
// code: bash -c, $( ), eval, python3 -c with os.system, perl -e with
// system, a here-string to bash.
func nestedLine(kind, depth int) string {
	line := "rm -rf /"
	for range depth {
		if len(line) > 2*MaxLineBytes { // quoting doubles it: past the limit already
			break
		}
		switch kind % 6 {
		case 0:
			line = "bash -c " + shQuote(line)
		case 1:
			line = "echo $(" + line + ")"
		case 2:
			line = "eval " + shQuote(line)
		case 3:
			line = "python3 -c " + shQuote("import os; os.system("+strconv.Quote(line)+")")
		case 4:
			line = "perl -e " + shQuote("system("+strconv.Quote(line)+")")
		case 5:
			line = "bash <<< " + shQuote(line)
		}
	}
	return line
}

func shQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "'x'"
	}
	return q
}

// FuzzNesting checks the depth bounds on code nested in code: however
// deep and in whatever form, Parse either finds the rm -rf / or fails
// with a limit error; it never crashes or overflows the stack.
func FuzzNesting(f *testing.F) {
	for kind := range 6 {
		for _, depth := range []uint16{1, MaxScriptDepth, MaxScriptDepth + 1, 60, 200, 3000} {
			f.Add(uint8(kind), depth)
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, depth uint16) {
		line := nestedLine(int(kind), int(depth%4000))
		if len(line) > 4*MaxLineBytes {
			return
		}
		cmds, err := Parse(context.Background(), line)
		if err != nil {
			if !errors.Is(err, ErrTooDeep) && !errors.Is(err, ErrTooLong) && !errors.Is(err, ErrTooMany) {
				t.Fatalf("Parse(%.200q): %v", line, err)
			}
			return
		}
		found := false
		for _, c := range cmds {
			found = found || (c.Name == "rm" && strings.Join(c.Argv, " ") == "rm -rf /")
		}
		if !found {
			t.Errorf("Parse(%.200q) missed rm -rf /: %v", line, cmds)
		}
	})
}

// FuzzEnvEscapes: env -S's escapes read out of a string keep every
// hole (an outer expansion) over the same text, unless \c cut it off.
func FuzzEnvEscapes(f *testing.F) {
	for _, s := range []string{`rm\_-rf\_/`, `echo "a\_b" 'c\_d'`, `ls\c; rm`, `a\\_b`, `x\_$Y\_z`, `"\c`} {
		f.Add(s, 3, 5)
	}
	f.Fuzz(func(t *testing.T, raw string, start, end int) {
		var holes []span
		if start >= 0 && start <= end && end <= len(raw) {
			holes = []span{{start, end}}
		}
		out, moved := envEscapes(raw, holes)
		if len(moved) != len(holes) {
			t.Fatalf("%q: %d holes became %d", raw, len(holes), len(moved))
		}
		for k, h := range moved {
			if h.start < 0 || h.start > h.end || h.end > len(out) {
				t.Fatalf("%q → %q: hole %v out of bounds", raw, out, h)
			}
			was := raw[holes[k].start:holes[k].end]
			if got := out[h.start:h.end]; got != was && !strings.HasPrefix(was, got) {
				t.Fatalf("%q → %q: hole %q became %q", raw, out, was, got)
			}
		}
	})
}
