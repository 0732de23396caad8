package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// Broken files of both languages, and the problem line each gives.
var brokenFiles = []struct{ lang, file, code, problem, reason string }{
	{"lua", "broken.lua", "hook.on(\"tool.execute.pre\", function()\n\n  return (\nend)\n",
		"broken.lua:3:", "hookhost: broken.lua:3 failed to load: "},
	{"starlark", "broken.star", "def f():\n    return hook.deny(\n\nhook.on(\"tool.execute.pre\", f)\n",
		"broken.star:", "hookhost: broken.star:"},
}

const guardLua = `hook.on("tool.execute.pre", function() return hook.allow("ok") end, { name = "g" })`

// Every fire carries the snapshot's load problems; its JSON has them as
// problems, and leaves the key out when there are none.
func TestResultProblems(t *testing.T) {
	for _, b := range brokenFiles {
		t.Run(b.lang, func(t *testing.T) {
			h := newTestHostAllowProblems(t, map[string]string{"guard.lua": guardLua, b.file: b.code})
			r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
			if err != nil || r.Decision.Action != Allow {
				t.Fatalf("%+v %v", r, err)
			}
			if len(r.Problems) != 1 || !strings.HasPrefix(r.Problems[0], b.problem) {
				t.Fatalf("problems %q, want one starting %q", r.Problems, b.problem)
			}
			js, _ := json.Marshal(r)
			if !strings.Contains(string(js), `"problems":["`+b.problem) {
				t.Errorf("json: %s", js)
			}
		})
	}
	h := newTestHost(t, map[string]string{"guard.lua": guardLua}, Options{})
	r, _ := h.Fire(context.Background(), "tool.execute.pre", nil)
	if js, _ := json.Marshal(r); r.Problems != nil || strings.Contains(string(js), "problems") {
		t.Errorf("no problems, yet: %s", js)
	}
}

// Strict mode: while a file has no good version, an event that allows
// deny is denied, naming the file and line; other events fire as usual.
func TestStrictNeverGood(t *testing.T) {
	for _, b := range brokenFiles {
		for _, how := range []string{"option", "config"} {
			t.Run(b.lang+"/"+how, func(t *testing.T) {
				fsys := fstest.MapFS{"guard.lua": {Data: []byte(guardLua)}, b.file: {Data: []byte(b.code)},
					"obs.lua": {Data: []byte(`hook.on("turn.post", function() return hook.message("seen") end, { name = "o" })`)}}
				opts := Options{FS: fsys, Strict: true}
				if how == "config" {
					opts = Options{FS: fsys, Config: &Config{Strict: true}}
				}
				h, err := New(context.Background(), opts)
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
				if err != nil || r.Decision.Action != Deny || !strings.HasPrefix(r.Decision.Reason, b.reason) || len(r.Problems) != 1 {
					t.Fatalf("strict fire: %+v %v, want deny %q…", r, err, b.reason)
				}
				r, err = h.Fire(context.Background(), "turn.post", nil) // allows no deny
				if err != nil || len(r.Messages) != 1 {
					t.Fatalf("a collect event should fire as usual: %+v %v", r, err)
				}
				st := h.Status()
				if u := st.Unhealthy(); !st.Strict || len(u) != 1 || !strings.HasPrefix("hookhost: "+u[0], b.reason) {
					t.Errorf("unhealthy %q", u)
				}
			})
		}
	}
}

// A file whose last edit failed while its previous version serves does
// not trip strict mode: the last good version decides.
func TestStrictLastGoodServes(t *testing.T) {
	dir := t.TempDir()
	for _, b := range brokenFiles {
		t.Run(b.lang, func(t *testing.T) {
			good := guardLua
			if b.lang == "starlark" {
				good = "hook.on(\"tool.execute.pre\", lambda: hook.allow(\"ok\"), name = \"g\")"
			}
			path := filepath.Join(dir, b.file)
			os.WriteFile(path, []byte(good), 0o644)
			h, err := New(context.Background(), Options{Dir: dir, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			defer os.Remove(path)
			os.WriteFile(path, []byte(b.code), 0o644)
			if rep := h.Rescan(context.Background(), TriggerAPI); rep.Files[0].Outcome != FileFailed {
				t.Fatalf("%+v", rep)
			}
			r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
			if err != nil || r.Decision.Action != Allow || len(r.Problems) != 1 {
				t.Fatalf("%+v %v", r, err)
			}
			if u := h.Status().Unhealthy(); u != nil {
				t.Errorf("unhealthy %q", u)
			}
		})
	}
	h := newTestHostAllowProblems(t, map[string]string{"broken.lua": brokenFiles[0].code})
	if u := h.Status().Unhealthy(); u != nil {
		t.Errorf("not strict, yet unhealthy: %q", u)
	}
}
