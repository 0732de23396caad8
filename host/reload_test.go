package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

func newFakeHost(t *testing.T, fsys fstest.MapFS, eng *fakeEngine, opts Options) *Host {
	t.Helper()
	opts.FS, opts.Engines = fsys, []scripting.Engine{eng}
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func approveReason(t *testing.T, h *Host) string {
	t.Helper()
	r, err := h.Fire(context.Background(), "tool.approve", nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Decision.Reason
}

// A fire in flight on the old snapshot completes after the reload, on
// the program it began with, which is closed only once that fire is done.
func TestReloadRetiresAfterPublish(t *testing.T) {
	eng := newFakeEngine()
	fsys := fstest.MapFS{"a.fake": {Data: []byte("block deny v1")}}
	h := newFakeHost(t, fsys, eng, Options{})
	type answer struct {
		reason string
		err    error
	}
	inFlight := make(chan answer)
	go func() {
		r, err := h.Fire(context.Background(), "tool.approve", nil)
		inFlight <- answer{r.Decision.Reason, err}
	}()
	<-eng.entered // the fire is inside the v1 program

	fsys["a.fake"] = &fstest.MapFile{Data: []byte("deny v2")}
	rep := h.Rescan(context.Background(), TriggerAPI)
	if rep.Err != nil || rep.Generation != 2 || len(rep.Files) != 1 || rep.Files[0].Outcome != FileReloaded {
		t.Fatalf("report: %+v", rep)
	}
	old := eng.programs()[0]
	if old.closed.Load() {
		t.Fatal("the replaced program was closed while a fire was still in it")
	}
	if got := approveReason(t, h); got != "v2" {
		t.Fatalf("a fire after the reload got %q, want v2", got)
	}
	close(eng.release)
	if a := <-inFlight; a.err != nil || a.reason != "v1" {
		t.Fatalf("the fire in flight: %+v, want v1 without error", a)
	}
	if !old.closed.Load() {
		t.Fatal("the replaced program is still open after its last fire")
	}
	if eng.programs()[1].closed.Load() {
		t.Fatal("the serving program was closed")
	}
}

// A compile cut short by the reload's context records nothing: the
// reload reports the error, publishes nothing, closes what it compiled,
// and the next reload compiles the file again.
func TestReloadCancelledCompileIsRetried(t *testing.T) {
	eng := newFakeEngine()
	fsys := fstest.MapFS{"a.fake": {Data: []byte("deny a1")}, "b.fake": {Data: []byte("deny b1")}}
	h := newFakeHost(t, fsys, eng, Options{})
	fsys["a.fake"] = &fstest.MapFile{Data: []byte("deny a2")}
	fsys["b.fake"] = &fstest.MapFile{Data: []byte("slow deny b2")}
	eng.slow.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-eng.compiling; cancel() }()
	rep := h.Rescan(ctx, TriggerWatch)
	if !errors.Is(rep.Err, context.Canceled) || rep.Generation != 1 || rep.OK() {
		t.Fatalf("cancelled reload: %+v", rep)
	}
	if gen, _ := h.Generation(); gen != 1 {
		t.Fatalf("generation %d after a cancelled reload", gen)
	}
	// Files compile in parallel: a2 may have compiled before the cancel
	// (then the cancelled reload closed it) or not have started (then it
	// was never compiled). Either is right; a serving program is never
	// closed.
	for _, p := range eng.programs() {
		switch p.reason {
		case "a1", "b1":
			if p.closed.Load() {
				t.Fatalf("a cancelled reload closed the serving program %s", p.reason)
			}
		case "a2":
			if !p.closed.Load() {
				t.Fatal("the cancelled reload's a2 program should be closed")
			}
		default:
			t.Fatalf("unexpected program %s", p.reason)
		}
	}

	eng.slow.Store(false)
	rep = h.Rescan(context.Background(), TriggerWatch)
	if rep.Err != nil || rep.Generation != 2 {
		t.Fatalf("retry: %+v", rep)
	}
	for _, f := range rep.Files {
		if f.Outcome != FileReloaded {
			t.Errorf("retry: %s %s, want reloaded", f.Path, f.Outcome)
		}
	}
	if got := len(h.Hooks()); got != 2 {
		t.Fatalf("%d hooks", got)
	}
}

// The report says what happened to every file and to the config.
func TestReloadReport(t *testing.T) {
	dir, cfgDir := t.TempDir(), t.TempDir()
	cfgPath := filepath.Join(cfgDir, "hookhost.yaml")
	write := func(path, code string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lua := func(reason string) string {
		return fmt.Sprintf(`hook.on("tool.approve", function() return hook.deny(%q) end, { name = "g" })`, reason)
	}
	star := func(reason string) string {
		return fmt.Sprintf("def g():\n    return hook.deny(%q)\nhook.on(\"tool.approve\", g)\n", reason)
	}
	write(filepath.Join(dir, "keep.lua"), lua("keep"))
	write(filepath.Join(dir, "edit.star"), star("s1"))
	write(filepath.Join(dir, "gone.lua"), lua("gone"))
	write(filepath.Join(dir, "break.lua"), lua("b1"))
	write(cfgPath, "defaults: { timeout: 2s }\n")
	obs := &recordingObserver{}
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfgPath, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	write(filepath.Join(dir, "edit.star"), star("s2"))
	os.Remove(filepath.Join(dir, "gone.lua"))
	write(filepath.Join(dir, "break.lua"), "hook.on(\n\n(")
	write(filepath.Join(dir, "new.star"), star("n"))
	write(cfgPath, "defaults: { timeout: 3s }\nbogus: 1\n")
	rep := h.Rescan(context.Background(), TriggerAPI)
	want := map[string]FileAction{"break.lua": FileFailed, "edit.star": FileReloaded, "gone.lua": FileRemoved,
		"keep.lua": FileUnchanged, "new.star": FileAdded}
	var paths []string
	for _, f := range rep.Files {
		paths = append(paths, f.Path)
		if f.Outcome != want[f.Path] {
			t.Errorf("%s: %s, want %s", f.Path, f.Outcome, want[f.Path])
		}
	}
	if strings.Join(paths, " ") != "break.lua edit.star gone.lua keep.lua new.star" {
		t.Errorf("files %v", paths)
	}
	if f := rep.Files[0]; f.Err == nil || !strings.HasPrefix(f.Err.Error(), "break.lua:1:") || f.Version == "" {
		t.Errorf("break.lua: %+v (want its error with a line, and the old version serving)", f)
	}
	if rep.Config.Err == nil || !strings.Contains(rep.Config.Err.Error(), "hookhost.yaml:2:") || rep.Config.Changed {
		t.Errorf("config: %+v", rep.Config)
	}
	if rep.OK() || rep.Generation != 2 || rep.Trigger != TriggerAPI || rep.Duration <= 0 {
		t.Errorf("report %+v", rep)
	}
	st := h.Status()
	if st.Config.Err == nil || h.Hooks()[0].Timeout.String() != "2s" {
		t.Errorf("a bad config edit must keep the last good config: %+v %v", st.Config, h.Hooks()[0].Timeout)
	}

	write(cfgPath, "defaults: { timeout: 3s }\n")
	rep = h.Rescan(context.Background(), TriggerSignal)
	if !rep.Config.Changed || rep.Config.Err != nil || h.Status().Config.Err != nil {
		t.Errorf("fixed config: %+v", rep.Config)
	}
	for _, f := range rep.Files {
		if f.Path != "break.lua" && f.Outcome != FileUnchanged {
			t.Errorf("a config change recompiled %s (%s)", f.Path, f.Outcome)
		}
	}
	if h.Hooks()[0].Timeout.String() != "3s" {
		t.Errorf("the fixed config is not live: %v", h.Hooks()[0].Timeout)
	}
	got := obs.reloads()
	if len(got) != 3 || got[0].Trigger != TriggerStart || got[1].Generation != 2 || got[2].Trigger != TriggerSignal {
		t.Errorf("observer saw %d reloads: %+v", len(got), got)
	}
}

// A rescan that finds nothing changed publishes nothing and keeps the
// generation. OK means that what is on disk is what serves, so it stays
// false while a broken file or config is left as it is; FailedNow is
// true only for the reload that first read the broken content.
func TestReloadUnchangedAndOK(t *testing.T) {
	dir, cfgDir := t.TempDir(), t.TempDir()
	cfgPath := filepath.Join(cfgDir, "hookhost.yaml")
	write := func(path, code string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := `hook.on("tool.approve", function() return hook.deny("ok") end, { name = "g" })`
	write(filepath.Join(dir, "a.lua"), good)
	write(cfgPath, "defaults: { timeout: 2s }\n")
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	type want struct {
		published, ok, failedNow, cfgErr, cfgUnchanged bool
		gen                                            uint64
	}
	check := func(step string, w want) {
		t.Helper()
		rep := h.Rescan(context.Background(), TriggerAPI)
		got := want{rep.Published, rep.OK(), rep.FailedNow(), rep.Config.Err != nil, rep.Config.Unchanged, rep.Generation}
		if got != w || rep.Err != nil {
			t.Errorf("%s: got %+v, want %+v (report %+v)", step, got, w, rep)
		}
		if g, _ := h.Generation(); g != w.gen {
			t.Errorf("%s: the host serves generation %d, want %d", step, g, w.gen)
		}
	}
	check("nothing changed", want{ok: true, cfgUnchanged: true, gen: 1})
	write(filepath.Join(dir, "a.lua"), "hook.on(\n")
	check("a.lua broken", want{published: true, failedNow: true, cfgUnchanged: true, gen: 2})
	check("a.lua still broken", want{cfgUnchanged: true, gen: 2})
	write(cfgPath, "bogus: 1\n")
	check("config broken", want{published: true, failedNow: true, cfgErr: true, gen: 3})
	check("both still broken", want{cfgErr: true, cfgUnchanged: true, gen: 3})
	write(filepath.Join(dir, "a.lua"), good)
	write(cfgPath, "defaults: { timeout: 3s }\n")
	check("both fixed", want{published: true, ok: true, gen: 4})
	check("nothing changed again", want{ok: true, cfgUnchanged: true, gen: 4})
	if r := approveReason(t, h); r != "ok" {
		t.Errorf("fixed a.lua decides %q", r)
	}
}

// unreadableFS is a MapFS whose listed files named in fail cannot be
// read.
type unreadableFS struct {
	fstest.MapFS
	fail map[string]bool
}

func (u unreadableFS) Open(name string) (fs.File, error) {
	if u.fail[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.MapFS.Open(name)
}

func (u unreadableFS) ReadFile(name string) ([]byte, error) {
	if u.fail[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.MapFS.ReadFile(name)
}

// A file or config that cannot be read is a failure once; reading it
// failing the same way again changes nothing, so the rescan publishes
// nothing, while OK stays false until it can be read.
func TestReloadUnreadableIsNoNews(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "hookhost.yaml")
	if err := os.WriteFile(cfgPath, []byte("defaults: { timeout: 2s }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := `hook.on("tool.approve", function() return hook.deny("ok") end, { name = "g" })`
	fsys := unreadableFS{MapFS: fstest.MapFS{"a.lua": {Data: []byte(good)}}, fail: map[string]bool{}}
	h, err := New(context.Background(), Options{FS: fsys, ConfigPath: cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	type want struct{ published, ok, failedNow bool }
	check := func(step string, w want) {
		t.Helper()
		rep := h.Rescan(context.Background(), TriggerAPI)
		if got := (want{rep.Published, rep.OK(), rep.FailedNow()}); got != w || rep.Err != nil {
			t.Errorf("%s: got %+v, want %+v (report %+v)", step, got, w, rep)
		}
	}
	fsys.fail["a.lua"] = true
	check("a.lua unreadable", want{published: true, failedNow: true})
	check("a.lua still unreadable", want{})
	if r := approveReason(t, h); r != "ok" {
		t.Errorf("the last good a.lua must keep serving; decided %q", r)
	}
	if err := os.Remove(cfgPath); err != nil {
		t.Fatal(err)
	}
	check("the config gone too", want{published: true, failedNow: true})
	check("both still unreadable", want{})
	delete(fsys.fail, "a.lua")
	if err := os.WriteFile(cfgPath, []byte("defaults: { timeout: 2s }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("both back", want{published: true, ok: true})
	if st := h.Status(); len(st.Problems) != 0 || st.Config.Err != nil {
		t.Errorf("problems after both came back: %v, config %v", st.Problems, st.Config.Err)
	}
}

// Goroutines fire continuously while the files are rewritten and
// reloaded: every answer is a whole decision from one version, never an
// error, and no fire ever calls a closed program.
func TestReloadWhileFiring(t *testing.T) {
	dir := t.TempDir()
	write := func(name, code string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	version := func(n int) {
		write("a.lua", fmt.Sprintf(`hook.on("tool.execute.pre", function() return hook.modify({ v = %d }) end, { name = "a", priority = 2 })`, n))
		write("b.star", fmt.Sprintf("def b(v):\n    return hook.deny(\"v%%d b%d\" %% v)\nhook.on(\"tool.execute.pre\", b, priority = 1)\n", n))
	}
	version(0)
	// A long timeout: a loaded machine may stall a call, and a timeout is
	// not what this test is about.
	h, err := New(context.Background(), Options{Dir: dir, Config: &Config{Defaults: Defaults{Timeout: 5 * time.Minute}}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var stop atomic.Bool
	var fires atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"tool_name": "t"})
				fires.Add(1)
				if err != nil || r.Decision.Action != Deny || len(r.Trace) != 2 {
					t.Errorf("fire: %+v %v", r, err)
					return
				}
				var a, b int
				if _, err := fmt.Sscanf(r.Decision.Reason, "v%d b%d", &a, &b); err != nil || a < 0 || b < 0 {
					t.Errorf("reason %q", r.Decision.Reason)
					return
				}
			}
		}()
	}
	for n := 1; n <= 60; n++ {
		if n%10 == 0 {
			write("a.lua", "broken(") // a bad edit: the last good version keeps serving
		} else {
			version(n)
		}
		if rep := h.Rescan(context.Background(), TriggerAPI); rep.Err != nil {
			t.Fatal(rep.Err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if fires.Load() == 0 {
		t.Fatal("no fire ran")
	}
}

// A config edit that drops a custom event fails the files whose hooks
// use it, without recompiling them; restoring the event restores them.
func TestReloadConfigDropsEvent(t *testing.T) {
	dir, cfg := t.TempDir(), filepath.Join(t.TempDir(), "hookhost.yaml")
	withEvent := "events:\n  deploy: { mode: first, actions: [deny] }\n"
	os.WriteFile(cfg, []byte(withEvent), 0o644)
	os.WriteFile(filepath.Join(dir, "d.star"), []byte("hook.on(\"deploy\", lambda: hook.deny(\"no\"), name = \"d\")\n"), 0o644)
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	os.WriteFile(cfg, []byte("{}\n"), 0o644)
	rep := h.Rescan(context.Background(), TriggerAPI)
	if !rep.Config.Changed || len(rep.Files) != 1 || rep.Files[0].Outcome != FileFailed ||
		!strings.Contains(rep.Files[0].Err.Error(), `unknown event "deploy"`) {
		t.Fatalf("report %+v", rep)
	}
	os.WriteFile(cfg, []byte(withEvent), 0o644)
	rep = h.Rescan(context.Background(), TriggerAPI)
	if r, err := h.Fire(context.Background(), "deploy", nil); err != nil || r.Decision.Reason != "no" || rep.Files[0].Err != nil {
		t.Fatalf("restored: %+v %v %+v", r, err, rep.Files)
	}
}
