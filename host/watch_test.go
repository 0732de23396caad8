package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// waitDeadline bounds how long a test waits for the watcher to catch up:
// generous, because the machine may be loaded; the tests never assert
// how quickly it happens.
const waitDeadline = 20 * time.Second

// A watched is a host on a temporary directory with Watch running.
type watched struct {
	t   *testing.T
	h   *Host
	dir string
}

func startWatched(t *testing.T, files map[string]string, opts Options) *watched {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = filepath.Join(t.TempDir(), "hooks.d")
		if err := os.Mkdir(opts.Dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := &watched{t: t, dir: opts.Dir}
	for name, code := range files {
		w.write(name, code)
	}
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	w.h = h
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Watch(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch: %v", err)
		}
		h.Close()
	})
	return w
}

func (w *watched) path(name string) string { return filepath.Join(w.dir, filepath.FromSlash(name)) }

func (w *watched) write(name, code string) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(w.path(name)), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(w.path(name), []byte(code), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// replace writes code to a temporary file and renames it over name, as
// vim, VS Code and sed -i do.
func (w *watched) replace(name, code string) {
	w.t.Helper()
	tmp := filepath.Join(filepath.Dir(w.path(name)), "."+filepath.Base(name)+".tmp")
	if err := os.WriteFile(tmp, []byte(code), 0o644); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Rename(tmp, w.path(name)); err != nil {
		w.t.Fatal(err)
	}
}

// waitFor polls until cond holds on a fire of tool.approve, or fails
// the test after waitDeadline.
func (w *watched) waitFor(what string, cond func(r Result, st Status) bool) {
	w.t.Helper()
	deadline := time.Now().Add(waitDeadline)
	for {
		r, err := w.h.Fire(context.Background(), "tool.approve", nil)
		if err != nil {
			w.t.Fatal(err)
		}
		st := w.h.Status()
		if cond(r, st) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("waiting for %s: last decision %+v, status %+v", what, r.Decision, st)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (w *watched) waitReason(reason string) {
	w.t.Helper()
	w.waitFor("reason "+reason, func(r Result, _ Status) bool { return r.Decision.Reason == reason })
}

func denyLua(reason string) string {
	return fmt.Sprintf(`hook.on("tool.approve", function() return hook.deny(%q) end, { name = "g" })`, reason)
}

func denyStar(reason string) string {
	return fmt.Sprintf("def g():\n    return hook.deny(%q)\n\nhook.on(\"tool.approve\", g)\n", reason)
}

// Each way editors and tools change files, in both languages.
func TestWatchFileOperations(t *testing.T) {
	for _, lang := range []struct {
		ext  string
		deny func(string) string
		bad  string
	}{{".lua", denyLua, "hook.on(\n"}, {".star", denyStar, "def g(:\n"}} {
		t.Run(lang.ext, func(t *testing.T) {
			name := "g" + lang.ext
			w := startWatched(t, map[string]string{name: lang.deny("v1")}, Options{})
			w.waitReason("v1")

			w.write(name, lang.deny("plain-write"))
			w.waitReason("plain-write")

			f, err := os.OpenFile(w.path(name), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Sync() // the truncation lands first, as its own event
			f.WriteString(lang.deny("truncate-then-write"))
			f.Close()
			w.waitReason("truncate-then-write")

			w.replace(name, lang.deny("renamed-into-place"))
			w.waitReason("renamed-into-place")

			// vim: move the original to a backup, write anew, drop the backup,
			// with its swap file beside; none of those files load.
			os.Rename(w.path(name), w.path(name+"~"))
			w.write("."+name+".swp", "swap file garbage")
			w.write("#"+name+"#", "emacs autosave garbage")
			w.write(name, lang.deny("vim-save"))
			os.Remove(w.path(name + "~"))
			w.waitReason("vim-save")

			w.replace(name, lang.bad)
			w.waitFor("the bad edit", func(r Result, st Status) bool {
				return r.Decision.Reason == "vim-save" && len(st.Problems) == 1 && st.Files[0].Err != nil
			})
			w.replace(name, lang.deny("fixed"))
			w.waitFor("the fix", func(r Result, st Status) bool { return r.Decision.Reason == "fixed" && len(st.Problems) == 0 })

			other := "other" + lang.ext
			os.Rename(w.path(name), w.path(other))
			w.waitFor("the rename", func(r Result, _ Status) bool { return r.Decision.Hook == other+":g" })

			os.Remove(w.path(other))
			w.waitFor("the delete", func(r Result, st Status) bool {
				return r.Decision.Hook == "" && len(st.Files) == 0
			})
			if p := w.h.Problems(); len(p) != 0 {
				t.Errorf("editor files were loaded: %v", p)
			}
		})
	}
}

// The directory removed and created again: the last snapshot serves
// meanwhile, and the new directory's files load.
func TestWatchDirectoryRecreated(t *testing.T) {
	w := startWatched(t, map[string]string{"g.lua": denyLua("v1")}, Options{})
	w.waitReason("v1")
	if err := os.RemoveAll(w.dir); err != nil {
		t.Fatal(err)
	}
	if r, _ := w.h.Fire(context.Background(), "tool.approve", nil); r.Decision.Reason != "v1" {
		t.Fatalf("with the directory gone the last snapshot should serve: %+v", r.Decision)
	}
	if err := os.Mkdir(w.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w.write("h.star", denyStar("recreated"))
	w.waitReason("recreated")
	w.write("h.star", denyStar("and-watched"))
	w.waitReason("and-watched")
}

// A Kubernetes ConfigMap volume: the files are symlinks through "..data",
// which is swapped to a new timestamped directory by one rename.
func TestWatchConfigMap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hooks.d")
	cfgDir := filepath.Join(t.TempDir(), "config")
	publish := func(root, stamp string, files map[string]string) {
		t.Helper()
		ts := filepath.Join(root, "..2026_12_01_"+stamp)
		if err := os.MkdirAll(ts, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, code := range files {
			if err := os.WriteFile(filepath.Join(ts, name), []byte(code), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, name)
			if _, err := os.Lstat(link); err != nil {
				if err := os.Symlink(filepath.Join("..data", name), link); err != nil {
					t.Fatal(err)
				}
			}
		}
		old, _ := os.Readlink(filepath.Join(root, "..data"))
		tmp := filepath.Join(root, "..data_tmp")
		if err := os.Symlink(filepath.Base(ts), tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(root, "..data")); err != nil {
			t.Fatal(err)
		}
		if old != "" {
			os.RemoveAll(filepath.Join(root, old))
		}
	}
	publish(dir, "1", map[string]string{"g.lua": denyLua("cm1"), "s.star": denyStar("star1")})
	publish(cfgDir, "1", map[string]string{"hookhost.yaml": "hooks:\n  \"g.lua\": { priority: 10 }\n"})
	w := startWatched(t, nil, Options{Dir: dir, ConfigPath: filepath.Join(cfgDir, "hookhost.yaml")})
	w.waitReason("cm1")

	publish(dir, "2", map[string]string{"g.lua": denyLua("cm2"), "s.star": denyStar("star2")})
	w.waitReason("cm2")

	// The config swapped the same way raises the Starlark hook above.
	publish(cfgDir, "2", map[string]string{"hookhost.yaml": "hooks:\n  \"s.star\": { priority: 10 }\n"})
	w.waitReason("star2")

	// A bad config swap keeps the last good config and says where.
	publish(cfgDir, "3", map[string]string{"hookhost.yaml": "hooks:\n  \"s.star\": { priorty: 10 }\n"})
	w.waitFor("the config error", func(r Result, st Status) bool {
		return st.Config.Err != nil && strings.Contains(st.Config.Err.Error(), "hookhost.yaml:2:") && r.Decision.Reason == "star2"
	})
}

// The config file edited in place: applied without recompiling the
// scripts; a bad edit keeps the last good config and shows its line.
func TestWatchConfigEdits(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "hookhost.yaml")
	os.WriteFile(cfg, []byte("hooks:\n  \"a.lua\": { priority: 10 }\n"), 0o644)
	w := startWatched(t, map[string]string{"a.lua": denyLua("a"), "b.star": denyStar("b")}, Options{ConfigPath: cfg})
	w.waitReason("a")
	versions := map[string]string{}
	for _, f := range w.h.Files() {
		versions[f.Path] = f.Version
	}
	os.WriteFile(cfg, []byte("hooks:\n  \"b.star\": { priority: 10 }\n"), 0o644)
	w.waitReason("b")
	os.WriteFile(cfg, []byte("hooks:\n  \"b.star\": { priority: 10 }\nstrict: maybe\n"), 0o644)
	w.waitFor("the config error", func(r Result, st Status) bool {
		return st.Config.Err != nil && strings.HasPrefix(st.Config.Err.Error(), filepath.ToSlash(cfg)+":3:") && r.Decision.Reason == "b"
	})
	os.WriteFile(cfg, []byte("{}\n"), 0o644)
	w.waitFor("the fixed config", func(r Result, st Status) bool { return st.Config.Err == nil && r.Decision.Reason == "a" })
	for _, f := range w.h.Files() {
		if versions[f.Path] != f.Version {
			t.Errorf("%s: version changed from %s to %s", f.Path, versions[f.Path], f.Version)
		}
	}
}

// Strict mode with a file that never loaded: deny until it is fixed.
func TestWatchNeverGoodStrict(t *testing.T) {
	w := startWatched(t, map[string]string{"ok.star": denyStar("ok"), "broken.lua": "hook.on(\n"}, Options{Strict: true})
	w.waitFor("the strict deny", func(r Result, st Status) bool {
		return strings.HasPrefix(r.Decision.Reason, "hookhost: broken.lua:") && len(st.Unhealthy()) == 1
	})
	w.replace("broken.lua", `hook.on("tool.approve", function() end, { name = "fixed", priority = 5 })`)
	w.waitFor("the fix", func(r Result, st Status) bool { return r.Decision.Reason == "ok" && st.Unhealthy() == nil })
}

// Lost events (an overflowed queue) are answered with a full rescan.
func TestWatchOverflowRescans(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "g.lua"), []byte(denyLua("v1")), 0o644)
	obs := &recordingObserver{}
	h, err := New(context.Background(), Options{Dir: dir, Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	events, errs := make(chan fsnotify.Event), make(chan error)
	fw, _ := fsnotify.NewWatcher()
	defer fw.Close()
	ws := &watchSet{h: h, w: fw, dir: dir, subs: map[string]bool{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- h.watchLoop(ctx, ws, events, errs) }()
	// watchRescans waits for n rescans by the loop and returns the last.
	watchRescans := func(n int) ReloadReport {
		t.Helper()
		deadline := time.Now().Add(waitDeadline)
		for {
			var watch []ReloadReport
			for _, r := range obs.reloads() {
				if r.Trigger == TriggerWatch {
					watch = append(watch, r)
				}
			}
			if len(watch) >= n {
				return watch[n-1]
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d rescans by the watcher, want %d", len(watch), n)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	// The rescan at the start, then one more because it began watching
	// the directory; then the loop waits for events. Neither finds a
	// change, so neither publishes.
	if r := watchRescans(2); r.Published || r.Generation != 1 {
		t.Fatalf("a rescan that found nothing changed: %+v", r)
	}
	os.WriteFile(filepath.Join(dir, "g.lua"), []byte(denyLua("v2")), 0o644)
	errs <- fmt.Errorf("inotify: %w", fsnotify.ErrEventOverflow)
	if r := watchRescans(3); !r.Published || r.Generation != 2 {
		t.Fatalf("the rescan after the overflow: %+v", r)
	}
	if r, _ := h.Fire(context.Background(), "tool.approve", nil); r.Decision.Reason != "v2" {
		t.Fatalf("after the overflow: %+v", r.Decision)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Which event paths make a rescan.
func TestWatchRelevant(t *testing.T) {
	ws := &watchSet{dir: "/srv/hooks.d", cfgDir: "/etc/hookhost", cfg: "/etc/hookhost/hookhost.yaml"}
	for path, want := range map[string]bool{
		"/srv/hooks.d":                   true,
		"/srv/hooks.d/a.lua":             true,
		"/srv/hooks.d/..data":            true,
		"/srv/hooks.d/notes.txt":         true, // never filtered by extension
		"/srv/hooks.d/pack/x.star":       true,
		"/srv/hooks.d/pack/deep/x.star":  false,
		"/srv/other":                     false,
		"/etc/hookhost/hookhost.yaml":    true,
		"/etc/hookhost/..data":           true,
		"/etc/hookhost/unrelated.conf":   false,
		"/etc/hookhost/sub/hookhost.yml": false,
	} {
		if got := ws.relevant(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

// Watch needs a directory.
func TestWatchNeedsDir(t *testing.T) {
	h := newTestHost(t, map[string]string{"a.lua": denyLua("a")}, Options{})
	if err := h.Watch(context.Background()); err == nil || !strings.Contains(err.Error(), "Options.Dir") {
		t.Fatalf("err = %v", err)
	}
}

// The storm: goroutines fire continuously while a file is rewritten
// hundreds of times by rename. Every answer is a whole decision from
// one of the versions, never an error.
func TestWatchStorm(t *testing.T) {
	const rewrites = 300
	w := startWatched(t, map[string]string{"g.lua": stormVersion(0), "s.star": denyStar("steady")}, Options{})
	w.waitFor("version 0", func(r Result, _ Status) bool { return r.Decision.Reason == "v0 of g" })
	var stop atomic.Bool
	var wg sync.WaitGroup
	var fires atomic.Int64
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				r, err := w.h.Fire(context.Background(), "tool.approve", nil)
				fires.Add(1)
				if err != nil {
					t.Errorf("fire: %v", err)
					return
				}
				var n int
				if _, err := fmt.Sscanf(r.Decision.Reason, "v%d of g", &n); err != nil || n < 0 || n > rewrites ||
					r.Decision.Hook != "g.lua:g" || len(r.Trace) != 1 {
					t.Errorf("not a whole decision of one version: %+v", r)
					return
				}
			}
		}()
	}
	for n := 1; n <= rewrites; n++ {
		w.replace("g.lua", stormVersion(n))
	}
	w.waitReason(fmt.Sprintf("v%d of g", rewrites))
	stop.Store(true)
	wg.Wait()
	if fires.Load() == 0 {
		t.Fatal("no fires ran")
	}
}

func stormVersion(n int) string {
	// A long timeout: a loaded machine may stall a call, and a timeout is
	// not what the storm is about.
	return fmt.Sprintf(`hook.on("tool.approve", function() return hook.deny("v%d of g") end, { name = "g", priority = 9, timeout = "5m" })`, n)
}
