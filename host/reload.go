package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Triggers of a reload, as ReloadReport.Trigger names them.
const (
	TriggerStart    = "start"    // New
	TriggerWatch    = "watch"    // the directory watcher (Watch)
	TriggerSignal   = "signal"   // SIGHUP in a daemon
	TriggerAPI      = "api"      // Reload, or a request to a daemon
	TriggerRegister = "register" // RegisterEvent
)

// Rescan is the one reload every trigger goes through; reloads are
// serialized. It re-reads the config file (Options.ConfigPath), scans the
// directory, compiles only the files whose content changed, builds the
// whole new snapshot and publishes it with one atomic swap. What the new
// snapshot replaced is retired once no fire can reach it any more: fires
// already running finish on the snapshot they began with.
//
// A file that fails (or registers no hook, or cannot be read, or is a
// symlink leading outside the directory) keeps its last good version
// serving; a config that fails keeps the last good config. A changed file
// is compiled once its content holds still. If the reload cannot run
// (ctx ends, the host is closed) nothing is published or recorded and the
// report's Err says why. If the directory cannot be read, Err is a
// *DirError and, after the first load, a snapshot of the last good hooks
// is published that shows the error among its problems. trigger names the
// cause in the report ("watch", "signal", "api", …).
func (h *Host) Rescan(ctx context.Context, trigger string) ReloadReport {
	return h.rescan(ctx, trigger, func() error { return nil })
}

// rescan runs a reload with prepare (which may change the host's base
// events) applied under the reload lock first.
func (h *Host) rescan(ctx context.Context, trigger string, prepare func() error) ReloadReport {
	h.mu.Lock()
	start := time.Now()
	var rep ReloadReport
	var released []string
	if err := prepare(); err != nil {
		rep = ReloadReport{Generation: h.gen, Err: err}
	} else {
		rep, released = h.reloadLocked(ctx, trigger == TriggerRegister)
	}
	h.mu.Unlock()
	rep.Trigger, rep.Start, rep.Duration = trigger, start, time.Since(start)
	h.afterReload(rep, released)
	return rep
}

// Reload rescans the scripts and the config (see Rescan) for the "api"
// trigger and returns the report's Err.
func (h *Host) Reload(ctx context.Context) error {
	return h.Rescan(ctx, TriggerAPI).Err
}

// reloadLocked builds, validates and publishes the next snapshot. It
// returns the report and the hooks whose quarantine a new file version
// lifted.
func (h *Host) reloadLocked(ctx context.Context, retryFailed bool) (ReloadReport, []string) {
	rep := ReloadReport{Generation: h.gen}
	if h.closed {
		rep.Err = ErrClosed
		return rep, nil
	}
	// A DirFS opens the directory once for the whole reload.
	defer HoldDirFS(h.fsys)()
	// The first load has no last good version to wait with: it reads
	// what is there (and an empty file fails to load).
	settle := h.current.Load() != nil
	next := h.nextConfigLocked(ctx, settle)
	rep.Config = ConfigOutcome{Path: h.cfgPath, Changed: next.changed, Err: next.err, Unchanged: !next.tried}
	if !next.tried {
		rep.Config.Err = h.cfgErr
	}
	events, err := resolveEvents(h.base, next.cfg)
	if err != nil { // the base events changed under a config that fit the old ones
		rep.Err = err
		return rep, nil
	}
	// Files compile in their workers as they load, so the config's
	// start-up limit must apply before they do.
	h.workers.SetStartTimeout(next.cfg.Limits.WorkerStart)
	set, err := h.loadFiles(ctx, h.files, h.packs, events, next.cfg, retryFailed || next.changed, settle)
	if err != nil {
		rep.Err = err
		var de *DirError
		if errors.As(err, &de) {
			rep.Generation, rep.Published = h.keepServingLocked(de)
		}
		return rep, nil
	}
	h.cfg, h.cfgHash = next.cfg, next.hash
	if next.tried {
		h.cfgErr = next.err
	}
	if !retryFailed && !next.tried && !set.changes(h.current.Load()) {
		set.discard()
		cur := h.current.Load()
		rep.Generation = cur.gen
		rep.Files, rep.Notes = outcomesAsPublished(set.outcomes, cur), set.notes
		return rep, nil
	}
	snap, released := h.publishLocked(events, set)
	rep.Generation, rep.Published = snap.gen, true
	rep.Files, rep.Notes = outcomesAsPublished(set.outcomes, snap), set.notes
	return rep, released
}

// keepServingLocked answers a hooks directory that cannot be read: the
// last good hooks keep serving, in a snapshot that shows the directory's
// error among its problems (published once per distinct error). The
// first load has nothing to keep: New fails instead.
func (h *Host) keepServingLocked(de *DirError) (gen uint64, published bool) {
	cur := h.current.Load()
	if cur == nil {
		return h.gen, false
	}
	if cur.dirErr != nil && cur.dirErr.Error() == de.Error() {
		return cur.gen, false
	}
	snap, _ := h.publishLocked(cur.eventSpecs(), &fileSet{files: h.files, packs: h.packs, notes: cur.notes, dirErr: de})
	return snap.gen, true
}

// changes reports whether publishing the set would change what serves
// or what status shows, compared with the snapshot serving: a file or
// pack manifest that is not unchanged, or other notes.
func (s *fileSet) changes(cur *snapshot) bool {
	if cur == nil || cur.dirErr != nil || !slices.Equal(s.notes, cur.notes) {
		return true
	}
	for _, o := range s.outcomes {
		if o.Outcome != FileUnchanged {
			return true
		}
	}
	return false
}

// publishLocked builds the snapshot of a file set, swaps it in and
// retires the one it replaces.
func (h *Host) publishLocked(events map[string]*EventSpec, set *fileSet) (*snapshot, []string) {
	h.gen++
	h.wd.setHeapLimit(h.cfg.MemoryLimit())
	h.slots.configure(h.cfg)
	h.workers.SetLimits(workerLimits(h.cfg))
	snap, released := buildSnapshot(snapshotInput{gen: h.gen, now: h.now(), events: events, cfg: h.cfg,
		files: set.files, q: h.strikes, strict: h.strict || h.cfg.Strict,
		config: ConfigStatus{Path: h.configPath(), Err: h.cfgErr}, packs: set.packs, notes: set.notes, dirErr: set.dirErr})
	h.files, h.packs = set.files, set.packs
	if old := h.current.Swap(snap); old != nil {
		old.retire()
	}
	return snap, released
}

// outcomesAsPublished marks as failed the files that do not serve in the
// snapshot although their content loaded: a hook on an event the snapshot
// does not have (a custom event the new config no longer declares).
func outcomesAsPublished(outcomes []FileOutcome, snap *snapshot) []FileOutcome {
	byPath := make(map[string]FileStatus, len(snap.files))
	for _, f := range snap.files {
		byPath[f.Path] = f
	}
	for i, o := range outcomes {
		st, ok := byPath[o.Path]
		if !ok {
			continue
		}
		if st.Err != nil && o.Err == nil && o.Outcome != FileFailed {
			outcomes[i].Outcome, outcomes[i].Err = FileFailed, st.Err
		}
		outcomes[i].Version = st.Version
	}
	return outcomes
}

// afterReload tells the observer (or, without one, the log) what a
// reload did. It runs outside the reload lock.
func (h *Host) afterReload(rep ReloadReport, released []string) {
	for _, id := range released {
		h.quarantineChanged(id, false)
	}
	if h.obs == nil {
		h.logReload(rep)
		return
	}
	defer h.recoverObserver("ReloadDone")
	h.obs.ReloadDone(rep)
}

// logReload logs what went wrong in a reload, for a host without an
// observer: an observer gets the report instead.
func (h *Host) logReload(rep ReloadReport) {
	if rep.Err != nil {
		h.logger.Error("reload failed; the previous hooks keep serving", "trigger", rep.Trigger, "error", rep.Err)
	}
	if rep.Config.Err != nil && !rep.Config.Unchanged {
		h.logger.Warn("config failed to load; the last good config stays live", "error", rep.Config.Err)
	}
	for _, f := range rep.Files {
		if f.Outcome == FileFailed {
			h.logger.Warn("hook file failed to load", "file", f.Path, "error", f.Err, "serving", f.Version)
		}
	}
}

// A configCandidate is the config a reload would apply.
type configCandidate struct {
	cfg  *Config
	hash string // of the content read; empty when unread
	// changed: cfg is new content that parsed and fits the events.
	changed bool
	// tried: new content was read (or could not be); err is its error.
	tried bool
	err   error
}

// nextConfigLocked reads the config file again (with settle, once new
// content holds still: see settled). New content that fails (unreadable,
// bad YAML, unknown keys, events that do not fit) leaves the live config
// in place and is reported.
func (h *Host) nextConfigLocked(ctx context.Context, settle bool) configCandidate {
	keep := configCandidate{cfg: h.cfg, hash: h.cfgHash}
	if h.cfgPath == "" {
		return keep
	}
	data, err := settled(ctx, h.cfgHash, settle, func() (fs.FileInfo, error) { return os.Stat(h.cfgPath) },
		func() ([]byte, error) { return os.ReadFile(h.cfgPath) })
	if err != nil && ctx.Err() != nil {
		return keep // the reload fails on ctx as it loads the files
	}
	if err != nil {
		// The same read error as last time is no news: recorded like a
		// content hash, it keeps a rescan that changes nothing from
		// publishing (and from counting as a new failure).
		unreadable := unreadableMark(err)
		if unreadable == h.cfgHash {
			return keep
		}
		return configCandidate{cfg: h.cfg, hash: unreadable, tried: true, err: fmt.Errorf("reading config: %w", err)}
	}
	hash := contentHash(data)
	if hash == h.cfgHash {
		return keep
	}
	cfg, err := h.parseConfig(data)
	if err != nil {
		return configCandidate{cfg: h.cfg, hash: hash, tried: true, err: err}
	}
	return configCandidate{cfg: cfg, hash: hash, changed: true, tried: true}
}

// parseConfig parses config content and checks it against the events.
func (h *Host) parseConfig(data []byte) (*Config, error) {
	cfg, err := ParseConfig(filepath.ToSlash(h.cfgPath), data)
	if err != nil {
		return nil, err
	}
	if _, err := resolveEvents(h.base, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// loadConfigFile is the first read of Options.ConfigPath, in New: there
// is no last good config to fall back on, so an error fails New.
func (h *Host) loadConfigFile() error {
	data, err := os.ReadFile(h.cfgPath)
	if err != nil {
		return fmt.Errorf("reading config: %w", err)
	}
	cfg, err := h.parseConfig(data)
	if err != nil {
		return err
	}
	if h.cfg != nil && h.cfgHash != "" && !cfg.State.sameStore(h.cfg.State) {
		h.logger.Warn("the config's state section changed; the state store stays the one the host started with until it restarts",
			"config", h.configPath())
	}
	h.cfg, h.cfgHash = cfg, contentHash(data)
	return nil
}

func (h *Host) configPath() string {
	if h.cfgPath != "" {
		return filepath.ToSlash(h.cfgPath)
	}
	return h.cfg.Path
}

// unreadableMark stands for the content hash of a file that could not
// be read, so that reading it fails the same way again counts as
// unchanged. It cannot equal a content hash, which is hex.
func unreadableMark(err error) string { return "unreadable: " + err.Error() }

func contentHash(data []byte) string { return sumHash(sha256.Sum256(data)) }

// sumHash is the version of content whose SHA-256 is sum.
func sumHash(sum [sha256.Size]byte) string {
	return hex.EncodeToString(sum[:])[:versionLen]
}
