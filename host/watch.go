package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchDebounce is how long the watcher waits after the first change it
// sees before it reloads, so that an editor's burst of writes, renames
// and deletes becomes one reload. It is counted from the first event, not
// the last, so a steady stream of changes cannot hold a reload off.
const WatchDebounce = 50 * time.Millisecond

// Watch reloads the host whenever its directory or config changes, until
// ctx ends; then it returns nil. It needs Options.Dir.
//
// It watches the directory itself, never single files, and never filters
// events by extension: editors save by writing a temporary file and
// renaming it over the original, and a Kubernetes ConfigMap volume swaps
// every file at once by renaming its "..data" symlink. Any event starts a
// debounced full rescan through Rescan (trigger "watch"), which compiles
// only the files whose content hash changed. It also watches the hook
// packs one level down, the directory's parent (to see the directory
// removed and created again; until then the last snapshot keeps serving)
// and the config file's directory. An overflowed event queue, where
// events were lost, is answered with a full rescan as well.
func (h *Host) Watch(ctx context.Context) error {
	if h.dir == "" {
		return errors.New("host: Watch needs Options.Dir (a host on an fs.FS cannot be watched)")
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("host: watching %s: %w", h.dir, err)
	}
	defer w.Close()
	ws, err := h.newWatchSet(w)
	if err != nil {
		return err
	}
	return h.watchLoop(ctx, ws, w.Events, w.Errors)
}

// watchLoop turns events into debounced rescans.
func (h *Host) watchLoop(ctx context.Context, ws *watchSet, events <-chan fsnotify.Event, errs <-chan error) error {
	var due <-chan time.Time
	arm := func() {
		if due == nil {
			due = time.After(WatchDebounce)
		}
	}
	arm() // one rescan at the start catches what changed before the watch began
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-events:
			if !ok {
				return errors.New("host: the file watcher stopped")
			}
			if ws.relevant(ev.Name) {
				arm()
			}
		case err, ok := <-errs:
			if !ok {
				return errors.New("host: the file watcher stopped")
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				h.logger.Warn("file watcher error; rescanning", "error", err)
			}
			arm() // events may have been lost
		case <-due:
			due = nil
			if rep := h.Rescan(ctx, TriggerWatch); errors.Is(rep.Err, ErrClosed) {
				return nil
			}
			if ws.sync() {
				arm() // a directory appeared: what was written into it before its watch began
			}
		}
	}
}

// A watchSet is the directories one Watch watches.
type watchSet struct {
	h      *Host
	w      *fsnotify.Watcher
	dir    string // the hooks directory, absolute and clean
	parent string
	cfgDir string // the config file's directory; empty without one
	cfg    string // the config file, absolute and clean
	subs   map[string]bool
}

func (h *Host) newWatchSet(w *fsnotify.Watcher) (*watchSet, error) {
	dir, err := filepath.Abs(h.dir)
	if err != nil {
		return nil, fmt.Errorf("host: watching %s: %w", h.dir, err)
	}
	ws := &watchSet{h: h, w: w, dir: dir, parent: filepath.Dir(dir), subs: map[string]bool{}}
	if err := w.Add(ws.parent); err != nil {
		return nil, fmt.Errorf("host: watching %s: %w", ws.parent, err)
	}
	if h.cfgPath != "" {
		if ws.cfg, err = filepath.Abs(h.cfgPath); err != nil {
			return nil, fmt.Errorf("host: watching %s: %w", h.cfgPath, err)
		}
		ws.cfgDir = filepath.Dir(ws.cfg)
		if err := w.Add(ws.cfgDir); err != nil {
			return nil, fmt.Errorf("host: watching the config's directory %s: %w", ws.cfgDir, err)
		}
	}
	ws.sync()
	return ws, nil
}

// relevant reports whether an event's path can change what the host
// loads: anything in the directory or its packs, the directory itself
// (seen from its parent), and in the config's directory the config file
// or a ConfigMap's "..data" swap.
func (ws *watchSet) relevant(name string) bool {
	name = filepath.Clean(name)
	up := filepath.Dir(name)
	switch {
	case name == ws.dir || up == ws.dir || filepath.Dir(up) == ws.dir:
		return true
	case ws.cfgDir != "" && up == ws.cfgDir:
		return name == ws.cfg || strings.HasPrefix(filepath.Base(name), "..")
	}
	return false
}

// sync watches the directory (again, after it was recreated) and each
// pack directory, and drops the watches of packs that are gone. It
// reports whether it began watching a directory.
func (ws *watchSet) sync() (added bool) {
	watched := ws.w.WatchList()
	add := func(path string) {
		if slices.Contains(watched, path) {
			return
		}
		if err := ws.w.Add(path); err == nil {
			added = true
		} else if !errors.Is(err, os.ErrNotExist) {
			ws.h.logger.Warn("cannot watch a directory; its changes are seen at the next rescan", "dir", path, "error", err)
		}
	}
	add(ws.dir)
	current := map[string]bool{}
	for _, sub := range ws.subdirs() {
		current[sub] = true
		add(sub)
	}
	for sub := range ws.subs {
		if !current[sub] {
			_ = ws.w.Remove(sub) // already gone with the directory, usually
		}
	}
	ws.subs = current
	return added
}

// subdirs lists the directories one level down that the host scans (not
// hidden ones: a ConfigMap's timestamped directories change by the
// "..data" rename, which the directory's own watch sees).
func (ws *watchSet) subdirs() []string {
	entries, err := os.ReadDir(ws.dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(ws.dir, e.Name())
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			out = append(out, path)
		}
	}
	return out
}
