package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files that load without error but register no hook, in both
// languages, and the message each gives.
var hooklessFiles = []struct{ name, file, code, msg string }{
	{"lua/empty", "g.lua", "", "g.lua: the file is empty: it registers no hook"},
	{"star/empty", "g.star", "", "g.star: the file is empty: it registers no hook"},
	{"lua/blank", "g.lua", "\n  \n\t\n", "g.lua: the file is empty: it registers no hook"},
	{"star/blank", "g.star", "\n\n", "g.star: the file is empty: it registers no hook"},
	{"lua/comment", "g.lua", "-- the guard was here\n", "g.lua: registers no hook (a hook file must call hook.on at least once)"},
	{"star/comment", "g.star", "# the guard was here\n", "g.star: registers no hook (a hook file must call hook.on at least once)"},
	{"lua/definitions", "g.lua", "local function g() return hook.deny(\"no\") end\n",
		"g.lua: registers no hook (a hook file must call hook.on at least once)"},
	{"star/definitions", "g.star", "def g():\n    return hook.deny(\"no\")\n",
		"g.star: registers no hook (a hook file must call hook.on at least once)"},
	{"star/expression", "g.star", "{\"token\": \"abc\"}\n", "g.star: registers no hook (a hook file must call hook.on at least once)"},
}

// guardFor is a guard of tool.approve in the language of file, denying
// with reason.
func guardFor(file, reason string) string {
	if strings.HasSuffix(file, ".star") {
		return denyStar(reason)
	}
	return denyLua(reason)
}

// A file that registers no hook is a load error: a problem on every
// answer and in the status, and in strict mode a file with no good
// version, so a one-shot load of an emptied guard fails closed.
func TestHooklessFileIsAProblem(t *testing.T) {
	for _, c := range hooklessFiles {
		t.Run(c.name, func(t *testing.T) {
			h := newTestHostAllowProblems(t, map[string]string{c.file: c.code, "other.lua": denyLua("other")})
			st := h.Status()
			if len(st.Problems) != 1 || st.Problems[0] != c.msg {
				t.Fatalf("problems %q, want [%q]", st.Problems, c.msg)
			}
			if f := st.Files[0]; f.Path != c.file || f.Err == nil || f.Version != "" || f.Hooks != 0 {
				t.Fatalf("file status %+v", f)
			}
			r := fireOK(t, h, "tool.approve", nil)
			if r.Decision.Reason != "other" || len(r.Problems) != 1 || r.Problems[0] != c.msg {
				t.Fatalf("fire: %+v problems %q", r.Decision, r.Problems)
			}

			strict := newTestHostStrict(t, map[string]string{c.file: c.code, "other.lua": denyLua("other")})
			want := "hookhost: " + strings.Replace(c.msg, ": ", " failed to load: ", 1)
			r = fireOK(t, strict, "tool.approve", nil)
			if r.Decision.Action != Deny || r.Decision.Reason != want {
				t.Fatalf("strict: %+v, want deny %q", r.Decision, want)
			}
			if u := strict.Status().Unhealthy(); len(u) != 1 {
				t.Fatalf("unhealthy %q", u)
			}
		})
	}
}

// A guard emptied or stripped of its hooks after it loaded: its last
// good version keeps serving, as for a syntax error, and the problem is
// reported until the file is fixed.
func TestHooklessEditKeepsLastGood(t *testing.T) {
	for _, c := range hooklessFiles {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			writeFile(t, path, guardFor(c.file, "v1"))
			h, err := New(context.Background(), Options{Dir: dir, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			writeFile(t, path, c.code)
			rep := h.Rescan(context.Background(), TriggerAPI)
			if len(rep.Files) != 1 || rep.Files[0].Outcome != FileFailed || rep.Files[0].Err.Error() != c.msg {
				t.Fatalf("report %+v", rep.Files)
			}
			r := fireOK(t, h, "tool.approve", nil)
			if r.Decision.Action != Deny || r.Decision.Reason != "v1" || len(r.Problems) != 1 || r.Problems[0] != c.msg {
				t.Fatalf("after emptying: %+v problems %q, want the last good deny v1", r.Decision, r.Problems)
			}
			if u := h.Status().Unhealthy(); u != nil {
				t.Fatalf("a last good version serves, yet unhealthy: %q", u)
			}
			writeFile(t, path, guardFor(c.file, "v2"))
			h.Rescan(context.Background(), TriggerAPI)
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "v2" || r.Problems != nil {
				t.Fatalf("after the fix: %+v problems %q", r.Decision, r.Problems)
			}
		})
	}
}

func newTestHostStrict(t *testing.T, files map[string]string) *Host {
	t.Helper()
	dir := t.TempDir()
	for name, code := range files {
		writeFile(t, filepath.Join(dir, name), code)
	}
	h, err := New(context.Background(), Options{Dir: dir, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func writeFile(t *testing.T, path, code string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
}
