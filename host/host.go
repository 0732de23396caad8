package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/lua"
	"github.com/hookhost/hookhost/scripting/starlark"
	"github.com/hookhost/hookhost/stdlib"
)

// Options configure a Host. Exactly one of Dir and FS names the scripts.
type Options struct {
	// Dir is the directory of hook scripts (hooks.d).
	Dir string
	// FS serves the scripts instead of Dir; fstest.MapFS makes an
	// in-memory host for tests.
	FS fs.FS
	// Config is the operator's configuration (see LoadConfig); nil means
	// none.
	Config *Config
	// Events are the embedder's own events, registered besides the agent
	// catalog.
	Events []EventSpec
	// NoAgentEvents leaves out the agent catalog (AgentEvents).
	NoAgentEvents bool
	// Logger receives the host's logs and the scripts' print and log
	// output; nil discards them.
	Logger *slog.Logger
	// Modules are extra modules scripts may load, besides the standard
	// ones. A module with a standard module's name replaces it.
	Modules []stdlib.Module
	// Now is the clock scripts see through the time and state modules;
	// nil means time.Now.
	Now func() time.Time
	// Limits bounds each script call; the zero value means defaults.
	Limits scripting.Limits
	// Engines compile the scripts, one per file extension; nil means Lua
	// (.lua) and Starlark (.star).
	Engines []scripting.Engine
}

// A Host loads hook scripts and fires events through them. Its methods
// are safe for concurrent use. A fire runs on the snapshot of hooks that
// was current when it began; reloads publish new snapshots atomically.
type Host struct {
	fsys    fs.FS
	logger  *slog.Logger
	env     *scripting.Env
	engines map[string]scripting.Engine
	wd      *watchdog
	strikes *quarantine
	now     func() time.Time

	mu      sync.Mutex // serialises loading, event registration and Close
	base    []EventSpec
	cfg     *Config
	files   map[string]*loadedFile
	gen     uint64
	closed  bool
	current atomic.Pointer[snapshot]
}

// Errors a Host returns.
var (
	// ErrUnknownEvent is returned by Fire for an event nobody registered.
	ErrUnknownEvent = errors.New("unknown event")
	// ErrBadPayload is returned by Fire for a payload that is not made of
	// neutral values (or nests too deeply).
	ErrBadPayload = errors.New("bad payload")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("host is closed")
)

// New creates a host and loads its scripts. Problems in individual
// scripts do not fail New: those files are left out and reported by
// Problems and Files. New fails for unusable options: no or unreadable
// directory, bad event specs, or a config that does not fit the events.
func New(ctx context.Context, opts Options) (*Host, error) {
	fsys, err := sourceFS(opts)
	if err != nil {
		return nil, err
	}
	h := &Host{fsys: fsys, logger: opts.Logger, files: map[string]*loadedFile{}, now: opts.Now}
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.base, err = baseEvents(opts); err != nil {
		return nil, err
	}
	h.cfg = opts.Config
	if h.cfg == nil {
		h.cfg = &Config{}
	}
	if _, err := resolveEvents(h.base, h.cfg); err != nil {
		return nil, err
	}
	h.env = &scripting.Env{Modules: modules(opts, h.logger, h.now), Logger: h.logger, Limits: opts.Limits}
	h.engines = map[string]scripting.Engine{}
	engines := opts.Engines
	if engines == nil {
		engines = []scripting.Engine{lua.Engine{}, starlark.Engine{}}
	}
	for _, e := range engines {
		h.engines[e.Extension()] = e
	}
	h.strikes = newQuarantine()
	h.wd = newWatchdog()
	if err := h.Reload(ctx); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

func sourceFS(opts Options) (fs.FS, error) {
	switch {
	case opts.Dir != "" && opts.FS != nil:
		return nil, errors.New("host: set Dir or FS, not both")
	case opts.FS != nil:
		return opts.FS, nil
	case opts.Dir == "":
		return nil, errors.New("host: no scripts: set Dir or FS")
	}
	st, err := os.Stat(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("host: reading the hooks directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("host: %s is not a directory", opts.Dir)
	}
	return os.DirFS(opts.Dir), nil
}

// baseEvents is the agent catalog plus the embedder's events, validated.
func baseEvents(opts Options) ([]EventSpec, error) {
	var specs []EventSpec
	if !opts.NoAgentEvents {
		specs = AgentEvents()
	}
	specs = append(specs, opts.Events...)
	seen := map[string]bool{}
	out := make([]EventSpec, 0, len(specs))
	for _, s := range specs {
		n, err := s.normalized()
		if err != nil {
			return nil, fmt.Errorf("host: %w", err)
		}
		if seen[n.Name] {
			return nil, fmt.Errorf("host: event %s is registered twice", n.Name)
		}
		seen[n.Name] = true
		out = append(out, n)
	}
	return out, nil
}

// RegisterEvent adds an event after the host was created. Files whose
// hooks named it are validated again.
func (h *Host) RegisterEvent(spec EventSpec) error {
	n, err := spec.normalized()
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	for _, s := range h.base {
		if s.Name == n.Name {
			return fmt.Errorf("event %s is already registered", n.Name)
		}
	}
	base := append(append([]EventSpec(nil), h.base...), n)
	if _, err := resolveEvents(base, h.cfg); err != nil {
		return err
	}
	h.base = base
	return h.publishLocked()
}

// Reload rescans the scripts, compiles the files whose content changed
// and publishes a new snapshot. A file that no longer compiles keeps its
// last good version live; its error is reported by Problems and Files.
func (h *Host) Reload(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if err := h.loadLocked(ctx); err != nil {
		return err
	}
	return h.publishLocked()
}

// publishLocked builds a snapshot from the loaded files and swaps it in.
func (h *Host) publishLocked() error {
	events, err := resolveEvents(h.base, h.cfg)
	if err != nil {
		return err
	}
	h.gen++
	snap := buildSnapshot(h.gen, h.now(), events, h.cfg, h.files, h.strikes)
	old := h.current.Swap(snap)
	h.logNewProblems(old, snap)
	return nil
}

// logNewProblems logs the problems a snapshot has that the one before did
// not, so a reload does not repeat every standing problem.
func (h *Host) logNewProblems(old, snap *snapshot) {
	seen := map[string]bool{}
	if old != nil {
		for _, p := range old.problems {
			seen[p.Error()] = true
		}
	}
	for _, p := range snap.problems {
		if !seen[p.Error()] {
			h.logger.Warn("hook file problem", "error", p)
		}
	}
}

// Close stops the host and releases its interpreters. Fires that are
// running finish; later ones fail with ErrClosed.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	h.current.Store(nil)
	if h.wd != nil {
		h.wd.stop()
	}
	for _, f := range h.files {
		f.close()
	}
	return nil
}

// Release lifts the quarantine of a hook. It reports whether the hook was
// quarantined.
func (h *Host) Release(hookID string) bool { return h.strikes.release(hookID) }

// Quarantined lists the ids of quarantined hooks.
func (h *Host) Quarantined() []string { return h.strikes.list() }
