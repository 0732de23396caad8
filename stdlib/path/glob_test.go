package path

import (
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

func TestGlob(t *testing.T) {
	run(t, []test{
		{"glob", l("/etc/**", "/etc/passwd"), true, ""},
		{"glob", l("/etc/**", "/etc/ssh/sshd_config"), true, ""},
		{"glob", l("/etc/**", "/etc"), true, ""},
		{"glob", l("/etc/**", "/etcetera/x"), false, ""},
		{"glob", l("/etc/**", "/ws/../etc/passwd"), true, ""}, // p is cleaned
		{"glob", l("/etc/**", "//etc///passwd"), true, ""},
		{"glob", l("**/*.pem", "/home/u/certs/server.pem"), true, ""},
		{"glob", l("**/*.pem", "server.pem"), true, ""},
		{"glob", l("**/*.pem", "./server.pem"), true, ""},
		{"glob", l("*.pem", "certs/server.pem"), false, ""}, // * stays within one element
		{"glob", l("**/.env", "/ws/app/.env"), true, ""},
		{"glob", l("**/.env*", "/ws/.env.local"), true, ""},
		{"glob", l("/ws/{src,lib}/**/*.{go,mod}", "/ws/lib/x/go.mod"), true, ""},
		{"glob", l("/ws/{src,lib}/**/*.{go,mod}", "/ws/doc/x.go"), false, ""},
		{"glob", l("/home/*/.ssh/id_*", "/home/u/.ssh/id_rsa"), true, ""},
		{"glob", l("/home/*/.ssh/id_*", "/home/u/v/.ssh/id_rsa"), false, ""},
		{"glob", l("file[0-9].txt", "file7.txt"), true, ""},
		{"glob", l("file[!0-9].txt", "file7.txt"), false, ""},
		{"glob", l("a?c", "abc"), true, ""},
		{"glob", l("a?c", "a/c"), false, ""},
		{"glob", l(`a\*c`, "a*c"), true, ""},
		{"glob", l(`a\*c`, "abc"), false, ""},
		{"glob", l("", ""), false, ""}, // "" is cleaned to "."
		{"glob", l(".", ""), true, ""},
		{"glob", l("/etc/", "/etc/"), false, ""}, // a trailing slash is cleaned away

		{"glob", l("[a", "a"), nil, "bad pattern \"[a\": syntax error in pattern"},
		{"glob", l("{a,b", "zzz"), nil, "bad pattern \"{a,b\""},
		{"glob", l(`a\`, "b"), nil, "bad pattern"},
		{"glob", l("[]", "x"), nil, "bad pattern"},
		{"glob", l("*"), nil, "argument 2 (p): want string, got nil"},
		{"glob", l(int64(1), "x"), nil, "argument 1 (pattern): want string, got int"},
		{"glob", l(strings.Repeat("a", MaxGlobPattern+1), "x"), nil, "argument 1 (pattern): 4097 bytes, longer than 4096"},
		{"glob", l(strings.Repeat("{a,b}", 11), "x"), nil, "more than 1024 alternatives"},
		{"glob", l("*"+strings.Repeat("a", 1000)+"b", strings.Repeat("a", 10000)), nil, "too complex to match against a path of 10000 bytes"},
	})
}

func TestAlternatives(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		want    int
	}{
		{"", 1}, {"abc", 1}, {"{a,b}", 2}, {"{a,b,c}{d,e}", 6}, {"{a,{b,c}}", 4},
		{`\{a,b}`, 1}, {"{a}", 1}, {"a,b", 1}, {"}{", 1},
		{strings.Repeat("{a,b}", 40), MaxGlobAlternatives + 1},
	} {
		if got := alternatives(tt.pattern); got != tt.want {
			t.Errorf("alternatives(%q) = %d, want %d", tt.pattern, got, tt.want)
		}
	}
}

// TestGlobBounded runs patterns built to make doublestar backtrack, at
// the largest sizes glob accepts, and checks that each takes well under
// a hook's default deadline.
// TestGlobBounded: every glob either matches within the work bound or is
// refused before matching. The bound is checked, not timed: the work a
// match may do (alternatives × pattern length × path length) stays under
// maxGlobWork, which keeps the worst match to tens of milliseconds.
func TestGlobBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	m := New()
	refused := 0
	for _, alts := range []string{"", "{a,a}", "{a,a}{a,a}", strings.Repeat("{a,a}", 5), strings.Repeat("{a,a}", 10)} {
		for _, pl := range []int{30, 300, 4000} {
			for _, nl := range []int{1000, 4096, 100000} {
				for _, c := range [][2]string{
					{"*" + alts + strings.Repeat("a", pl) + "b", strings.Repeat("a", nl)},
					{alts + "**/*" + strings.Repeat("a", pl) + "b", strings.Repeat("a/", nl/4) + strings.Repeat("a", nl/2)},
					{strings.Repeat("**/{a,a}", len(alts)/5) + "/*" + strings.Repeat("a", pl) + "b", strings.Repeat("a/", nl/4) + strings.Repeat("a", nl/2)},
				} {
					work := alternatives(c[0]) * (len(c[0]) + 1) * (len(c[1]) + 1)
					_, err := stdlibtest.Call(t, m, "glob", c[0], c[1])
					switch {
					case err == nil && work > maxGlobWork:
						t.Errorf("glob(%.30q…, %d bytes) matched with work %d > %d", c[0], len(c[1]), work, maxGlobWork)
					case err != nil && work <= maxGlobWork && len(c[0]) <= MaxGlobPattern:
						t.Errorf("glob(%.30q…, %d bytes) refused within the bound: %v", c[0], len(c[1]), err)
					case err != nil:
						refused++
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Error("no case reached the bound: the table no longer tests it")
	}
}

// FuzzGlob checks that glob never panics, and that a pattern is judged
// bad or good whatever the path.
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"/etc/**", "/etc/passwd"}, {"**/*.{pem,key}", "a/b.pem"}, {"[a-", "a"}, {`\`, "x"},
		{"{a,{b,c}}/**/x?[!y]", "b/q/r/xzz"}, {"**", ""}, {"/**/", "/"},
	} {
		f.Add(s[0], s[1])
	}
	m := New()
	f.Fuzz(func(t *testing.T, pattern, p string) {
		_, err := stdlibtest.Call(t, m, "glob", pattern, p)
		_, errEmpty := stdlibtest.Call(t, m, "glob", pattern, "")
		bad := err != nil && strings.Contains(err.Error(), "bad pattern")
		badEmpty := errEmpty != nil && strings.Contains(errEmpty.Error(), "bad pattern")
		if bad != badEmpty {
			t.Fatalf("glob(%q): bad for %q: %v; bad for \"\": %v", pattern, p, err, errEmpty)
		}
	})
}
