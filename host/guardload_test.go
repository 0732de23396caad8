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

// Files that are not scripts, or whose fault an engine quotes at
// length: a load error keeps the offending line, clipped, and never the
// rest of the file.
func TestLoadErrorsAreClipped(t *testing.T) {
	secret := strings.Repeat("SECRETLINE-0123456789abcdefghijklmnopqrstuvwxyz\n", 40)
	long := strings.Repeat("S", 1000)
	for _, c := range []struct {
		name, file, code string
		clipped          bool // the engine's message quotes more than fits
	}{
		{"lua/unterminated", "x.lua", "x = \"" + long + "\n" + secret, true},
		{"lua/long-string-token", "x.lua", "x = 1\n[[" + secret + "]] = 2\n", true},
		{"lua/unterminated-long-string", "x.lua", "x = [[" + secret, false},
		{"lua/pem", "x.lua", "-----BEGIN PRIVATE KEY-----\n" + secret, false},
		{"lua/binary", "x.lua", "\x7fELF\x02\x01\x01" + secret, false},
		{"lua/env", "x.lua", "API_KEY=sk-" + long + "\n" + secret, false},
		{"star/identifier", "x.star", strings.Repeat("a", 1000) + "\n", true},
		{"star/env", "x.star", "API_KEY=sk" + long + "\n", true},
		{"star/pem", "x.star", "-----BEGIN PRIVATE KEY-----\n" + secret, false},
		{"star/binary", "x.star", "\x7fELF\x02\x01\x01" + secret, false},
		{"star/unterminated", "x.star", "x = \"\"\"" + secret, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			check := func(when string, h *Host) {
				t.Helper()
				st := h.Status()
				if len(st.Problems) != 1 || len(st.Files) != 1 || st.Files[0].Err == nil {
					t.Fatalf("%s: problems %q", when, st.Problems)
				}
				p := st.Problems[0]
				if strings.Count(p, "SECRETLINE") > 1 || strings.Contains(p, "\n") {
					t.Fatalf("%s: the problem quotes more than a line: %q", when, p)
				}
				msg := p[strings.Index(p, ": ")+2:]
				if len(msg) > maxLoadErrorText+len("… (99999 more bytes)") || c.clipped != strings.Contains(msg, " more bytes)") {
					t.Fatalf("%s: the message is not clipped at %d bytes with a marker: %q", when, maxLoadErrorText, msg)
				}
				if got := st.Files[0].Err.Error(); got != p {
					t.Fatalf("%s: the file's error %q is not the problem %q", when, got, p)
				}
			}
			writeFile(t, path, c.code)
			h, err := New(context.Background(), Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			check("first load", h)

			writeFile(t, path, guardFor(c.file, "good"))
			h.Rescan(context.Background(), TriggerAPI)
			writeFile(t, path, c.code)
			h.Rescan(context.Background(), TriggerAPI)
			check("reload", h)
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "good" {
				t.Fatalf("the last good version should serve: %+v", r.Decision)
			}
		})
	}
}
