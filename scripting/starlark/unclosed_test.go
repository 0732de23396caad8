package starlark

import "testing"

func TestUnclosedBracket(t *testing.T) {
	for _, tc := range []struct {
		name     string
		code     string
		errLine  int
		want     byte
		wantLine int
	}{
		{"list in a dict", "t = {\n  'a': 1,\n  'b': [[\n    2,\n]\n\ndef f():\n", 7, '[', 3},
		{"call", "hook.on('x', lambda t: (\n    None\n", 3, '(', 1},
		{"strings and comments do not count", "s = \"\"\" ( [\n\"\"\"\n# {\nt = (1,\nu = 2\n", 5, '(', 4},
		{"escaped quote", "s = 'a\\' ('\nt = [\n", 3, '[', 2},
		{"balanced: the parser's line stands", "t = {'a': 1 'b': 2}\n", 1, 0, 0},
		{"a stray bracket: the parser's line stands", "t = (1))\nu = [\n", 3, 0, 0},
		{"opened on the error line", "f(a b\n", 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, ok := unclosedBracket([]byte(tc.code), tc.errLine)
			if ok != (tc.want != 0) || b.char != tc.want || b.line != tc.wantLine {
				t.Errorf("unclosedBracket = %+v, %v; want %q at line %d", b, ok, tc.want, tc.wantLine)
			}
		})
	}
}
