package starlark

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// A decimal int literal of more than 4300 digits, or a hex one of more
// than 262144 bits, fails to load at its line, before go.starlark.net's
// scanner parses it: a literal of 1,000,000 digits took 1.9 s to compile.
// Digits in strings, comments, names and floats are not literals.
func TestIntLiterals(t *testing.T) {
	nines := func(n int) string { return strings.Repeat("9", n) }
	for _, tc := range []struct {
		name, src string
		line      int    // of the error
		want      string // "": the file loads
	}{
		{name: "a million digits", src: "X = " + nines(1000000), line: 1, want: "the int literal has 1000000 digits: it exceeds the limit (4300 digits) for integer string conversion (write a huge int in hex)"},
		{name: "one digit past the limit", src: "# x\n'''\n1\n'''\nX = -" + nines(4301) + " + 1", line: 5, want: "the int literal has 4301 digits"},
		{name: "in a function", src: "def f():\n    return [1, 2, " + nines(5000) + "]", line: 2, want: "5000 digits"},
		{name: "after a string with an escaped newline", src: "s = 'a\\\nb'\nX = " + nines(5000), line: 3, want: "5000 digits"},
		{name: "a hex literal past the bits limit", src: "X = 0x" + strings.Repeat("f", 65537), line: 1, want: "the int literal has 65537 hex digits: the int would have 262148 bits, more than the limit of 262144"},
		{name: "at the limit", src: "X = " + nines(4300) + "\nY = 0X" + strings.Repeat("F", 65536)},
		{name: "digits in strings and comments", src: "# " + nines(5000) + "\ns = '" + nines(5000) + "'\nt = \"" + nines(5000) + "\"\nu = r'\\'" + nines(5000) + "'\nv = b\"\"\"\n" + nines(5000) + "\"\"\"\nw = '''" + nines(5000) + "'''"},
		{name: "digits in names and floats", src: "x" + nines(5000) + " = 1\nf = " + strings.Repeat("0", 5000) + ".5\ng = 1e" + nines(2) + "\nh = ." + nines(5000) + "\ni = " + strings.Repeat("0", 5000) + "1e-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "l.star", Code: []byte(tc.src + "\n")}, &scripting.Env{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want the file to load, got %v", err)
				}
				return
			}
			var se *scripting.Error
			if !errors.As(err, &se) || se.File != "l.star" || se.Line != tc.line || !strings.Contains(se.Msg, tc.want) {
				t.Fatalf("got %v, want l.star:%d: …%s…", err, tc.line, tc.want)
			}
		})
	}
}

// FuzzIntLiterals checks that scanIntLiterals finds exactly the int
// literals go.starlark.net's scanner finds, at the same lines, in any
// file it parses.
func FuzzIntLiterals(f *testing.F) {
	for _, seed := range []string{
		"x = 1 + 0x1F - 0o17 * 0b101 // 1.5e3", "s = 'a\\'1' + \"2\" + r'3\\'4' # 5\ny = .5 + 6", "t = '''7\n'8''' + b\"9\"\nz = [10, 1e-2, 0, 00]",
		"def f(a1, b_2 = 3):\n    return a1[4:5] if b_2 else -6", "x = 123456789012345678901234567890\ny = 0xffffffffffffffffffffffff", "d = {1: 2}.get(3)", "rb'x' + Br\"1\"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := fileOptions.Parse("f.star", src, 0)
		if err != nil {
			return
		}
		var want []string
		syntax.Walk(file, func(n syntax.Node) bool {
			if lit, ok := n.(*syntax.Literal); ok && lit.Token == syntax.INT {
				want = append(want, fmt.Sprintf("%d:%s", lit.TokenPos.Line, lit.Raw))
			}
			return true
		})
		var got []string
		_ = scanIntLiterals([]byte(src), func(line int, raw []byte) error {
			got = append(got, fmt.Sprintf("%d:%s", line, raw))
			return nil
		})
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%q: found %v, the scanner %v", src, got, want)
		}
	})
}
