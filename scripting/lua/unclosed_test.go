package lua

import "testing"

func TestUnclosedOpener(t *testing.T) {
	for _, tc := range []struct {
		name     string
		code     string
		errLine  int
		want     string
		wantLine int
	}{
		{"table", "local t = {\n a = 1,\n b = {{\n c = 2,\n}\n\nhook.on()\n", 7, "{", 3},
		{"function without end", "hook.on('x', function(t)\n  if t then\n    return 1\nend)\n", 4, "function", 1},
		{"repeat without until", "repeat\n  x = 1\n", 3, "repeat", 1},
		{"while do shares one end", "while true do\n x = 1\nend\nlocal t = {\n", 5, "{", 4},
		{"strings and comments do not count", "local s = '{ ( ['\n-- {\nlocal t = [[ { ]]\nlocal u = (\n", 5, "(", 4},
		{"balanced: the parser's line stands", "local t = { a = 1 b = 2 }\n", 1, "", 0},
		{"opened on the error line: the parser's line stands", "f(a b)\n", 1, "", 0},
		{"a stray end: the parser's line stands", "hook.on('x', function()\n  return 1\nend end\n", 3, "", 0},
		{"does not scan", "local s = 'unterminated\n", 2, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, ok := unclosedOpener([]byte(tc.code), tc.errLine)
			if ok != (tc.want != "") || o.word != tc.want || o.line != tc.wantLine {
				t.Errorf("unclosedOpener = %+v, %v; want %q at line %d", o, ok, tc.want, tc.wantLine)
			}
		})
	}
}

func TestTrimTraceback(t *testing.T) {
	const helper = "[G]: in function 'hookhost.index'"
	for _, tc := range []struct {
		name, tb, hook, want string
	}{
		{"a hook's own frame is named after the hook",
			"stack traceback:\n\tb.lua:3: in main chunk\n\t[G]: ?", "b.lua:5",
			"b.lua:3: in hook \"b.lua:5\"\n[G]: ?"},
		{"a function the hook called keeps its name",
			"stack traceback:\n\tb.lua:2: in function 'inner'\n\tb.lua:6: in main chunk\n\t[G]: ?", "check",
			"b.lua:2: in function 'inner'\nb.lua:6: in hook \"check\"\n[G]: ?"},
		{"the top level stays the main chunk",
			"stack traceback:\n\tb.lua:1: in main chunk\n\t[G]: ?", "",
			"b.lua:1: in main chunk\n[G]: ?"},
		{"the rewrite's helpers are dropped",
			"stack traceback:\n\t" + helper + "\n\tb.lua:3: in main chunk\n\t[G]: ?", "h",
			"b.lua:3: in hook \"h\"\n[G]: ?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := trimTraceback(tc.tb, tc.hook); got != tc.want {
				t.Errorf("trimTraceback = %q, want %q", got, tc.want)
			}
		})
	}
}
