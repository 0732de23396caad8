package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"nothing", Options{}, "set Dir or FS"},
		{"both", Options{Dir: dir, FS: fstest.MapFS{}}, "not both"},
		{"missing dir", Options{Dir: filepath.Join(dir, "nope")}, "reading the hooks directory"},
		{"not a dir", Options{Dir: file}, "is not a directory"},
		{"bad event", Options{Dir: dir, Events: []EventSpec{{Name: "x", Mode: "nope"}}}, "mode"},
		{"duplicate event", Options{Dir: dir, Events: []EventSpec{{Name: "tool.approve", Mode: First}}}, "registered twice"},
		{"config vs events", Options{Dir: dir, Config: &Config{Path: "c.yaml", Events: map[string]EventConfig{"nope": {Line: 3}}}}, "c.yaml:3:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := New(context.Background(), c.opts)
			if err == nil {
				h.Close()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestFireErrors(t *testing.T) {
	h := newTestHost(t, map[string]string{"a.lua": `hook.on("tool.approve", function() return hook.allow() end, { name = "a" })`}, Options{})
	ctx := context.Background()
	if _, err := h.Fire(ctx, "nope", nil); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown event: %v", err)
	}
	if _, err := h.Fire(ctx, "tool.approve", map[string]any{"x": 5}); !errors.Is(err, ErrBadPayload) {
		t.Errorf("int payload: %v", err)
	}
	deep := map[string]any{}
	v := deep
	for i := 0; i < 600; i++ {
		n := map[string]any{}
		v["n"] = n
		v = n
	}
	if _, err := h.Fire(ctx, "tool.approve", deep); !errors.Is(err, ErrBadPayload) {
		t.Errorf("deep payload: %v", err)
	}
	r, err := h.Fire(ctx, "tool.approve", nil)
	if err != nil || r.Decision.Action != Allow {
		t.Errorf("nil payload: %+v %v", r, err)
	}
	h.Close()
	if _, err := h.Fire(ctx, "tool.approve", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("closed: %v", err)
	}
}

// Fire is safe for concurrent use: many goroutines fire through the same
// hooks of both languages and each gets its own answer.
func TestConcurrentFire(t *testing.T) {
	h := newTestHost(t, map[string]string{
		"a.lua": `hook.on("tool.execute.pre", function(params)
  if params.n % 2 == 0 then return hook.modify({ params = { n = params.n, even = true } }) end
end, { name = "even", priority = 1 })`,
		"b.star": `def odd(params):
    if params["n"] % 2 == 1:
        return hook.deny("odd %d" % params["n"])
hook.on("tool.execute.pre", odd)`,
	}, Options{})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				n := int64(g*1000 + i)
				r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"tool_name": "t", "params": map[string]any{"n": n}})
				if err != nil {
					t.Error(err)
					return
				}
				if n%2 == 1 && r.Decision.Reason != fmt.Sprintf("odd %d", n) {
					t.Errorf("n=%d: %+v", n, r.Decision)
				}
				if n%2 == 0 && (r.Decision.Action != Modify || r.Payload["params"].(map[string]any)["even"] != true) {
					t.Errorf("n=%d: %+v", n, r)
				}
			}
		}()
	}
	wg.Wait()
}

// A file that stops compiling keeps its last good version live; fixing it
// brings the new version in. In-flight fires are not disturbed.
func TestReloadKeepsLastGood(t *testing.T) {
	dir := t.TempDir()
	write := func(code string) {
		if err := os.WriteFile(filepath.Join(dir, "g.lua"), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`hook.on("tool.approve", function() return hook.deny("v1") end, { name = "g" })`)
	h, err := New(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	reason := func() string {
		r, _ := h.Fire(context.Background(), "tool.approve", nil)
		return r.Decision.Reason
	}
	v1 := h.Files()[0].Version
	write(`hook.on("tool.approve", function() return hook.deny("v2") end, { name = "g" }`) // syntax error
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := h.Files()[0]; reason() != "v1" || st.Err == nil || st.Version != v1 || !strings.HasPrefix(st.Err.Error(), "g.lua:1:") {
		t.Fatalf("after a bad edit: reason %q, status %+v", reason(), st)
	}
	write(`hook.on("tool.approve", function() return hook.deny("v3") end, { name = "g" })`)
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := h.Files()[0]; reason() != "v3" || st.Err != nil || st.Version == v1 {
		t.Fatalf("after the fix: reason %q, status %+v", reason(), st)
	}
	if gen, _ := h.Generation(); gen != 3 {
		t.Errorf("generation = %d", gen)
	}
	os.Remove(filepath.Join(dir, "g.lua"))
	h.Reload(context.Background())
	if len(h.Hooks()) != 0 || reason() != "" {
		t.Errorf("a removed file still serves")
	}
}

// Files and entries the loader must skip.
func TestScanSkips(t *testing.T) {
	dir := t.TempDir()
	for name, code := range map[string]string{
		"a.lua":        `hook.on("tool.approve", function() end, { name = "a" })`,
		".hidden.lua":  `error("hidden files are skipped")`,
		"a_test.lua":   `error("tests are not hooks")`,
		"notes.txt":    `not a script`,
		"sub/x.lua":    `error("subdirectories are not scanned")`,
		"b.star":       `hook.on("tool.approve", lambda: None, name = "b")`,
		"target.lua.x": `hook.on("tool.approve", function() end, { name = "via-link" })`,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644)
	}
	if err := os.Symlink(filepath.Join(dir, "target.lua.x"), filepath.Join(dir, "link.lua")); err != nil {
		t.Fatal(err)
	}
	h, err := New(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var ids []string
	for _, hi := range h.Hooks() {
		ids = append(ids, hi.ID)
	}
	if got := strings.Join(ids, " "); got != "a.lua:a b.star:b link.lua:via-link" || len(h.Problems()) != 0 {
		t.Fatalf("hooks %q, problems %v", got, h.Problems())
	}
}

func TestRegisterEvent(t *testing.T) {
	h := newTestHostAllowProblems(t, map[string]string{
		"d.star": "hook.on(\"deploy\", lambda env: hook.deny(env), name = \"d\")",
	})
	if len(h.Problems()) != 1 {
		t.Fatalf("want an unknown-event problem, got %v", h.Problems())
	}
	if err := h.RegisterEvent(EventSpec{Name: "deploy", Mode: First, Actions: []Action{Deny}}); err != nil {
		t.Fatal(err)
	}
	r, err := h.Fire(context.Background(), "deploy", map[string]any{"env": "prod"})
	if err != nil || r.Decision.Reason != "prod" || len(h.Problems()) != 0 {
		t.Fatalf("%+v %v %v", r, err, h.Problems())
	}
	if err := h.RegisterEvent(EventSpec{Name: "deploy", Mode: First}); err == nil {
		t.Fatal("registered twice")
	}
}

func newTestHostAllowProblems(t *testing.T, files map[string]string) *Host {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, code := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(code)}
	}
	h, err := New(context.Background(), Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// The operator's config disables and re-prioritises hooks by file and id.
func TestConfigEnabledPriority(t *testing.T) {
	f, p := false, int64(100)
	cfg := &Config{Hooks: map[string]HookConfig{
		"a.lua":        {Enabled: &f},
		"a.lua:keep":   {Enabled: new(bool)},
		"b.star:late":  {Priority: &p},
		"b.star:other": {},
	}}
	*cfg.Hooks["a.lua:keep"].Enabled = true
	h := newTestHost(t, map[string]string{
		"a.lua": `hook.on("tool.approve", function() return hook.deny("off") end, { name = "off" })
hook.on("tool.approve", function() end, { name = "keep" })`,
		"b.star": "hook.on(\"tool.approve\", lambda: hook.allow(\"late\"), name = \"late\", priority = -5)\nhook.on(\"tool.approve\", lambda: hook.deny(\"other\"), name = \"other\")",
	}, Options{Config: cfg})
	r, _ := h.Fire(context.Background(), "tool.approve", nil)
	if r.Decision.Reason != "late" || len(r.Trace) != 1 {
		t.Fatalf("%+v", r)
	}
	for _, hi := range h.Hooks() {
		if hi.ID == "a.lua:off" && hi.Enabled || hi.ID == "a.lua:keep" && !hi.Enabled {
			t.Errorf("%+v", hi)
		}
	}
}
