package path

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

type test struct {
	fn      string
	args    []any
	want    any
	wantErr string
}

func l(s ...any) []any { return s }

// show formats arguments for a failure message, shortening long strings.
func show(args []any) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if s, ok := a.(string); ok && len(s) > 40 {
			a = s[:40] + "…"
		}
		fmt.Fprintf(&b, "%#v", a)
	}
	return b.String()
}

func run(t *testing.T, tests []test) {
	t.Helper()
	m := New()
	for _, tt := range tests {
		got, err := stdlibtest.Call(t, m, tt.fn, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s(%s): error %v, want one containing %q", tt.fn, show(tt.args), err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%s): %v", tt.fn, show(tt.args), err)
			continue
		}
		if !stdlib.Equal(got, tt.want) {
			t.Errorf("%s(%s) = %#v, want %#v", tt.fn, show(tt.args), got, tt.want)
		}
	}
}

func TestElements(t *testing.T) {
	run(t, []test{
		{"clean", l("/a//b/./c/../d/"), "/a/b/d", ""},
		{"clean", l(""), ".", ""},
		{"clean", l("/../.."), "/", ""},
		{"clean", l("../a/.."), "..", ""},
		{"clean", l(`C:\dir\file`), `C:\dir\file`, ""}, // backslash is not a separator

		{"base", l("/a/b.txt"), "b.txt", ""},
		{"base", l("/a/b/"), "b", ""},
		{"base", l(""), ".", ""},
		{"base", l("/"), "/", ""},
		{"dir", l("/a/b.txt"), "/a", ""},
		{"dir", l("b.txt"), ".", ""},
		{"dir", l("/a/../b/c"), "/b", ""},
		{"dir", l("/"), "/", ""},
		{"ext", l("a.tar.gz"), ".gz", ""},
		{"ext", l("/a.d/file"), "", ""},
		{"ext", l(".bashrc"), ".bashrc", ""},

		{"join", l("a", "b"), "a/b", ""},
		{"join", l("/ws", "../etc"), "/etc", ""},
		{"join", l("/ws", "/etc"), "/ws/etc", ""},
		{"join", l("a", "", "c"), "a/c", ""},
		{"join", l("", ""), "", ""},
		{"join", l("a", "b", "c", "d", "e", "f", "g", "h"), "a/b/c/d/e/f/g/h", ""},
		{"join", l("a", "b", "c", nil, nil), "a/b/c", ""},
		{"join", l("a"), nil, "argument 2 (elem2): want string, got nil"},
		{"join", l(), nil, "argument 1 (elem1): want string, got nil"},
		{"join", l("/ws", nil), nil, "argument 2 (elem2): want string, got nil"},
		{"join", l("a", "b", nil, "d"), nil, "argument 3 (elem3): want string, got nil (argument 4 is given)"},
		{"join", l("a", "b", int64(3)), nil, "argument 3 (elem3): want string, got int"},
		{"join", l("a", l("b")), nil, "argument 2 (elem2): want string, got list"},

		{"clean", l(int64(1)), nil, "argument 1 (p): want string, got int"},
		{"clean", l(), nil, "argument 1 (p): want string, got nil"},
		{"base", l(true), nil, "argument 1 (p): want string, got bool"},
		{"dir", l(map[string]any{}), nil, "argument 1 (p): want string, got map"},
		{"ext", l(1.5), nil, "argument 1 (p): want string, got float"},
	})
}

func TestAbsWithin(t *testing.T) {
	run(t, []test{
		{"abs", l("src/main.go", "/ws"), "/ws/src/main.go", ""},
		{"abs", l("../etc/passwd", "/ws"), "/etc/passwd", ""},
		{"abs", l("/etc//passwd", "/ws"), "/etc/passwd", ""},
		{"abs", l("", "/ws/"), "/ws", ""},
		{"abs", l("a", "ws"), nil, `argument 2 (cwd): want an absolute path, got "ws"`},
		{"abs", l("a", ""), nil, `argument 2 (cwd): want an absolute path, got ""`},
		{"abs", l("a"), nil, "argument 2 (cwd): want string, got nil"},
		{"abs", l(nil, "/ws"), nil, "argument 1 (p): want string, got nil"},

		{"is_within", l("/ws", "/ws"), true, ""},
		{"is_within", l("/ws/", "/ws"), true, ""},
		{"is_within", l("/ws", "/ws/a/b"), true, ""},
		{"is_within", l("/ws", "a/b"), true, ""},
		{"is_within", l("/ws", "."), true, ""},
		{"is_within", l("/ws", "./a/../b"), true, ""},
		{"is_within", l("/ws", "/wsx"), false, ""},
		{"is_within", l("/ws", "/ws2/a"), false, ""},
		{"is_within", l("/ws", "/"), false, ""},
		{"is_within", l("/ws", "/etc/passwd"), false, ""},
		{"is_within", l("/ws", "../etc"), false, ""},
		{"is_within", l("/ws", "a/../../etc"), false, ""},
		{"is_within", l("/ws", "/ws/a/../../etc"), false, ""},
		{"is_within", l("/ws", "/ws/../ws/a"), true, ""},
		{"is_within", l("/ws", "..."), true, ""}, // a file named "..."
		{"is_within", l("/ws", "~/x"), true, ""}, // "~" is a name here
		{"is_within", l("/", "/etc"), true, ""},
		{"is_within", l("/", "../.."), true, ""},
		{"is_within", l("//", "/etc"), true, ""},
		{"is_within", l("/a/b/..", "/a/c"), true, ""},
		{"is_within", l("ws", "ws/a"), nil, `argument 1 (root): want an absolute path, got "ws"`},
		{"is_within", l("", "/a"), nil, "argument 1 (root): want an absolute path"},
		{"is_within", l("/ws", ""), nil, "argument 2 (p): empty path"},
		{"is_within", l("/ws"), nil, "argument 2 (p): want string, got nil"},
		{"is_within", l("/ws", int64(1)), nil, "argument 2 (p): want string, got int"},

		{"expand_home", l("~", "/home/u"), "/home/u", ""},
		{"expand_home", l("~", "/home/u/"), "/home/u", ""}, // the same whether home ends in / or not
		{"expand_home", l("~/.ssh/id_rsa", "/home/u"), "/home/u/.ssh/id_rsa", ""},
		{"expand_home", l("~/.ssh/id_rsa", "/home/u/"), "/home/u/.ssh/id_rsa", ""},
		{"expand_home", l("~/x", "/"), "/x", ""},
		{"expand_home", l("~/a/../b", "/h"), "/h/a/../b", ""},
		{"expand_home", l("~root/x", "/home/u"), "~root/x", ""},
		{"expand_home", l("/a/~/b", "/home/u"), "/a/~/b", ""},
		{"expand_home", l("x~", "/home/u"), "x~", ""},
		{"expand_home", l("", "/home/u"), "", ""},
		{"expand_home", l("~/x", "home"), nil, `argument 2 (home): want an absolute path, got "home"`},
		{"expand_home", l("~/x", ""), nil, "argument 2 (home): want an absolute path"},
		{"expand_home", l("~/x"), nil, "argument 2 (home): want string, got nil"},
	})
}

func TestRel(t *testing.T) {
	run(t, []test{
		{"rel", l("/a/b", "/a/c/d"), "../c/d", ""},
		{"rel", l("/a/b", "/a/b"), ".", ""},
		{"rel", l("/a/b", "/a/b/c"), "c", ""},
		{"rel", l("/a/b/c", "/a"), "../..", ""},
		{"rel", l("/", "/a/b"), "a/b", ""},
		{"rel", l("/a", "/"), "..", ""},
		{"rel", l("a/b", "a/c"), "../c", ""},
		{"rel", l(".", "a/b"), "a/b", ""},
		{"rel", l("", "a"), "a", ""},
		{"rel", l("a", "."), "..", ""},
		{"rel", l("../a", "../b"), "../b", ""},
		{"rel", l("/a/./b/", "/a//c"), "../c", ""},
		{"rel", l("/ab", "/a"), "../a", ""},
		{"rel", l("/a", "b"), nil, `cannot make "b" relative to "/a": one is absolute and the other is not`},
		{"rel", l("a", "/b"), nil, "one is absolute"},
		{"rel", l("../a", "b"), nil, `cannot make "b" relative to "../a": the way up from "../a" is unknown`},
		{"rel", l(".."), nil, "argument 2 (target): want string, got nil"},
		{"rel", l(int64(1), "a"), nil, "argument 1 (base): want string, got int"},
	})
}
