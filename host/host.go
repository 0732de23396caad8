package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/host/isolate"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/state"
)

// Options configure a Host. Exactly one of Dir and FS names the scripts.
type Options struct {
	// Dir is the directory of hook scripts (hooks.d).
	Dir string
	// FS serves the scripts instead of Dir; fstest.MapFS makes an
	// in-memory host for tests.
	FS fs.FS
	// HooksDir is where scripts are told their hooks live
	// (ctx.hooks_dir), made absolute; empty means Dir made absolute, or
	// "" for an FS. Set it with an FS whose files are a directory's on
	// disk (a command hook's cached plan of one).
	HooksDir string
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
	// WorkerExecutable is the program the worker processes of files
	// configured "isolation: process" are started from; empty means this
	// program (on Linux the very binary it runs, even once an upgrade
	// replaced it on disk), whose main must then call
	// isolate.RunWorkerIfRequested first.
	WorkerExecutable string
	// WorkerBuild is the build identity (isolate.ExecutableBuild) the
	// workers must report; empty means that of WorkerExecutable. Set it
	// when WorkerExecutable is a wrapper that execs the real worker.
	WorkerBuild string
	// ConfigPath is the operator's config file (hookhost.yaml). The host
	// reads it itself, re-reads it on every reload (Watch watches it), and
	// keeps the last good config live when an edit fails. Set Config or
	// ConfigPath, not both.
	ConfigPath string
	// Strict makes every fire of an event that allows deny answer deny
	// while some file has no good version (it never loaded), as the
	// config's strict: true does.
	Strict bool
	// Observer is told of every fire, reload and quarantine change (see
	// Observer); nil means none. Without an Observer the host logs each
	// reload's failures itself; with one, reporting them is the
	// observer's job (ReloadDone gets them).
	Observer Observer
	// Programs keeps the engines' compiled programs across processes (see
	// scripting.ProgramCache), for a program that starts often and loads
	// the same files each time; nil compiles every file from source. The
	// host keeps the packs' parsed HOOK.md front matter there too (keys
	// "pack-…"), so that such a program does not parse YAML to start.
	Programs scripting.ProgramCache
	// State is where the state module keeps its keys, whatever the
	// config's state section says; the host does not close it. Nil means
	// the section decides: a memory store of the host's own (the
	// default), or the store OpenState opens.
	State state.Backend
	// OpenState opens the store the config's state section names when it
	// is not memory (backend: redis), once, when the host is made; the
	// host closes it (if it is an io.Closer) on Close. The hookhost
	// command opens Redis with it (package redisstate), so that package
	// host links no Redis client. A config naming redis without it is an
	// error.
	OpenState func(StateConfig) (state.Backend, error)
}

// A Host loads hook scripts and fires events through them. Its methods
// are safe for concurrent use. A fire runs on the snapshot of hooks that
// was current when it began; reloads publish new snapshots atomically.
type Host struct {
	fsys        fs.FS
	logger      *slog.Logger
	env         *scripting.Env
	engines     map[string]scripting.Engine
	wd          *watchdog
	slots       *runSlots     // run slots of hook calls (runslots.go)
	workers     *isolate.Pool // the worker processes of isolated files
	strikes     *quarantine
	recent      *failureLog // each hook's recent timeouts and errors (failures.go)
	now         func() time.Time
	obs         Observer
	strict      bool   // Options.Strict
	dir         string // Options.Dir; empty for an fs.FS
	hooksDir    string // ctx.hooks_dir: Options.HooksDir or Dir, absolute
	cfgPath     string // Options.ConfigPath
	state       state.Backend
	stateCloser io.Closer // the state backend the host opened, closed with it

	mu      sync.Mutex // serialises reloads, event registration and Close
	base    []EventSpec
	cfg     *Config // the live (last good) config
	cfgHash string  // of the config content last read
	cfgErr  error   // of the config content last read; nil when it is live
	files   map[string]*loadedFile
	packs   map[string]*packState
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
// scripts do not fail New: those files (one that does not compile, that
// registers no hook, that cannot be read or is a symlink leading outside
// the directory) are left out and reported by Problems and Files, and in
// strict mode they make every deny-capable fire deny. New fails for
// unusable options: no or unreadable directory (a *DirError when it
// exists but cannot be listed), bad event specs, or a config that does
// not fit the events. A host on Options.Dir reads it through DirFS.
func New(ctx context.Context, opts Options) (*Host, error) {
	fsys, err := sourceFS(opts)
	if err != nil {
		return nil, err
	}
	h := &Host{fsys: fsys, logger: opts.Logger, files: map[string]*loadedFile{}, now: opts.Now,
		obs: opts.Observer, strict: opts.Strict, dir: opts.Dir, cfgPath: opts.ConfigPath}
	if h.hooksDir, err = hooksDir(opts); err != nil {
		return nil, err
	}
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.base, err = baseEvents(opts); err != nil {
		return nil, err
	}
	if err := h.initConfig(opts); err != nil {
		return nil, err
	}
	if err := h.openState(opts); err != nil {
		return nil, err
	}
	h.env = &scripting.Env{Modules: modules(opts, h.logger, h.now, h.state), Logger: h.logger, Limits: callLimits(opts.Limits, h.cfg),
		Programs: opts.Programs}
	h.engines = map[string]scripting.Engine{}
	engines := opts.Engines
	if engines == nil {
		engines = defaultEngines()
	}
	for _, e := range engines {
		h.engines[e.Extension()] = e
	}
	h.strikes = newQuarantine()
	h.recent = newFailureLog()
	h.workers = isolate.NewPool(isolate.Options{Executable: opts.WorkerExecutable, Build: opts.WorkerBuild, Logger: h.logger,
		Limits: workerLimits(h.cfg), StartTimeout: h.cfg.Limits.WorkerStart, State: h.workerState(opts)})
	h.wd = newWatchdog(h.cfg.MemoryLimit())
	h.slots = newRunSlots(h.cfg)
	if rep := h.Rescan(ctx, TriggerStart); rep.Err != nil {
		h.Close()
		return nil, rep.Err
	}
	return h, nil
}

// initConfig takes the config from the options, or reads ConfigPath.
func (h *Host) initConfig(opts Options) error {
	if opts.Config != nil && opts.ConfigPath != "" {
		return errors.New("host: set Config or ConfigPath, not both")
	}
	h.cfg = opts.Config
	if h.cfg == nil {
		h.cfg = &Config{}
	}
	if h.cfgPath != "" {
		return h.loadConfigFile()
	}
	_, err := resolveEvents(h.base, h.cfg)
	return err
}

// workerLimits are the OS limits of isolated files' workers: a data
// segment of limits.memory.
func workerLimits(cfg *Config) isolate.OSLimits {
	return isolate.OSLimits{Data: cfg.MemoryLimit()}
}

// callLimits are the per-call limits: the embedder's, with the per-call
// memory budget, when they leave it unset, an eighth of the config's
// limits.memory (which, at its default, is the scripting default).
func callLimits(l scripting.Limits, cfg *Config) scripting.Limits {
	if l.MaxCallMemory == 0 && cfg.Limits.Memory > 0 {
		l.MaxCallMemory = cfg.Limits.Memory / 8
	}
	return l
}

// hooksDir is the path the host's scripts see as ctx.hooks_dir.
func hooksDir(opts Options) (string, error) {
	dir := opts.HooksDir
	if dir == "" {
		dir = opts.Dir
	}
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("host: the hooks directory %s: %w", dir, err)
	}
	return abs, nil
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
	return DirFS(opts.Dir), nil
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

// RegisterEvent adds an event after the host was created. It reloads
// (trigger "register"), compiling again the files that failed, since
// their hooks may have named it.
func (h *Host) RegisterEvent(spec EventSpec) error {
	n, err := spec.normalized()
	if err != nil {
		return err
	}
	rep := h.rescan(context.Background(), TriggerRegister, func() error {
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
		return nil
	})
	return rep.Err
}

// Close stops the host. Hooks still running are interrupted, fires that
// start later fail with ErrClosed, and the interpreters are released as
// soon as the last fire in flight returns.
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	old := h.current.Swap(nil)
	if h.wd != nil {
		h.wd.stop()
	}
	if old != nil {
		old.retire()
	}
	h.files, h.packs = nil, nil
	if h.workers != nil {
		h.workers.Close()
	}
	if h.stateCloser != nil {
		h.stateCloser.Close()
	}
	return nil
}

// Release lifts the quarantine of a hook before its cool-down ends. It
// reports whether the hook was quarantined.
func (h *Host) Release(hookID string) bool {
	if !h.strikes.release(hookID, h.now()) {
		return false
	}
	h.quarantineChanged(hookID, false)
	return true
}

// Quarantined lists the ids of quarantined hooks (see Quarantines).
func (h *Host) Quarantined() []string {
	h.expireQuarantines()
	return h.strikes.ids(h.now())
}
