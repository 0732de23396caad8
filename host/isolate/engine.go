package isolate

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/engines"
)

// Options configure a Pool.
type Options struct {
	// Executable is the binary workers are started from; empty means the
	// running program's own, which must call RunWorkerIfRequested first
	// thing in main. On Linux that is the very file the program runs
	// (/proc/self/exe), even after an upgrade replaced or removed it on
	// disk; elsewhere the file at its path (os.Executable).
	Executable string
	// Build is the build identity (ExecutableBuild) workers must report
	// in their hello; a worker of another build is refused. Empty means
	// the build of Executable, read when the first worker starts: for the
	// running program, its own. Set it when Executable is a wrapper that
	// execs the real worker.
	Build string
	// Limits are the workers' OS limits; zero fields take the defaults.
	Limits OSLimits
	// Logger receives the workers' log and print output and their
	// restarts; nil discards them.
	Logger *slog.Logger
	// StartTimeout bounds a worker's start (the process, its hello,
	// compiling its files), and so how long a call waits for a worker
	// that is starting; zero means DefaultStartTimeout.
	StartTimeout time.Duration
	// State names the state store the workers' state module uses, as
	// the host encodes it (empty: each worker keeps a memory store of
	// its own). The worker opens it with WorkerOptions.OpenState.
	State string
}

// A Pool starts and supervises the workers of one host: one worker per
// unit (an isolated file, or a pack whose files share one), started when
// the unit's first file compiles and stopped when its last program
// closes. A worker that dies is started again at once, in the
// background, and the unit's files compiled in it again (see worker). A
// Pool is safe for concurrent use.
type Pool struct {
	opts Options
	// spawn is how workers start, resolved once, when the first starts.
	spawn func() (spawn, error)
	// afterFunc schedules a delayed restart: time.AfterFunc, or a test's.
	afterFunc func(time.Duration, func()) stopper

	mu      sync.Mutex
	workers map[string]*worker
	limits  OSLimits // what workers start under; Options.Limits until SetLimits

	// startTimeout is Options.StartTimeout until SetStartTimeout, in
	// nanoseconds; atomic, since a start reads it holding its worker's
	// lock, which must not nest with mu.
	startTimeout atomic.Int64
}

// NewPool makes a pool; it starts nothing until a file compiles.
func NewPool(opts Options) *Pool {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Pool{opts: opts, workers: map[string]*worker{}, limits: opts.Limits,
		afterFunc: func(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }}
	p.startTimeout.Store(int64(opts.StartTimeout))
	p.spawn = sync.OnceValues(func() (spawn, error) { return resolveSpawn(opts) })
	return p
}

// SetStartTimeout changes how long a worker may take to start, for the
// starts that begin from now on; zero means DefaultStartTimeout.
func (p *Pool) SetStartTimeout(d time.Duration) { p.startTimeout.Store(int64(d)) }

// startTimeoutNow is the limit a start beginning now gets.
func (p *Pool) startTimeoutNow() time.Duration {
	if d := time.Duration(p.startTimeout.Load()); d > 0 {
		return d
	}
	return DefaultStartTimeout
}

// Engine returns the engine that compiles files in unit's worker. The
// worker compiles each file with the engine of its extension (.lua,
// .star).
func (p *Pool) Engine(unit, ext string) scripting.Engine {
	return remoteEngine{pool: p, unit: unit, ext: ext}
}

// Close stops every worker. Programs compiled in them fail their calls
// from then on.
func (p *Pool) Close() {
	p.mu.Lock()
	ws := p.workers
	p.workers = map[string]*worker{}
	p.mu.Unlock()
	var wg sync.WaitGroup // in parallel: each may take stopGrace
	for _, w := range ws {
		wg.Go(w.shutdown)
	}
	wg.Wait()
}

// SetLimits changes the OS limits of the workers. A running process
// cannot have its limits raised, so every worker is replaced: a new
// process starts at once (calls wait for it, outside their deadlines, as
// after a death) and the old one finishes its calls and stops. Their
// state stores start empty. Limits equal to the current ones change
// nothing.
func (p *Pool) SetLimits(l OSLimits) {
	p.mu.Lock()
	if l == p.limits {
		p.mu.Unlock()
		return
	}
	p.limits = l
	ws := slices.Collect(maps.Values(p.workers))
	p.mu.Unlock()
	for _, w := range ws {
		w.replace()
	}
}

// startLimits are the limits a worker starting now gets.
func (p *Pool) startLimits() OSLimits {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.limits.Or()
}

// Units lists the units that have a worker (running or starting), sorted:
// one per isolated file or pack that has a loaded version.
func (p *Pool) Units() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Sorted(maps.Keys(p.workers))
}

// worker returns unit's worker, counting one more program on it.
func (p *Pool) worker(unit string) *worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.workers[unit]
	if w == nil {
		w = &worker{pool: p, unit: unit, progs: map[int64]*program{}}
		p.workers[unit] = w
	}
	return w
}

// release drops a worker with no programs left.
func (p *Pool) release(w *worker) {
	p.mu.Lock()
	if p.workers[w.unit] == w {
		delete(p.workers, w.unit)
	}
	p.mu.Unlock()
	w.shutdown()
}

// resolveSpawn finds the file workers start from and the build they
// must be.
func resolveSpawn(opts Options) (spawn, error) {
	sp := spawn{path: opts.Executable, argv0: opts.Executable}
	if sp.path == "" {
		exe, err := selfExecutable()
		if err != nil {
			return spawn{}, err
		}
		sp.path, sp.argv0 = exe, os.Args[0]
	}
	if opts.Build != "" {
		sp.build = build{ID: opts.Build}
		return sp, nil
	}
	b, err := fileBuild(opts.Executable)
	if err != nil {
		return spawn{}, fmt.Errorf("%w: %w", ErrWorkerStart, err)
	}
	sp.build = b
	return sp, nil
}

// fieldsOf is which payload fields a hook with these parameters reads:
// nil for all (a Lua vararg, a Starlark **kwargs), else the names but
// ctx, which the worker builds from the call.
func fieldsOf(params []string) []string {
	var out []string
	for _, p := range params {
		if p == "..." || strings.HasPrefix(p, "**") {
			return nil
		}
		if p != "ctx" {
			out = append(out, p)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// remoteEngine compiles in a unit's worker.
type remoteEngine struct {
	pool *Pool
	unit string
	ext  string
}

// Language is the in-process engine's language, isolated: "lua
// (isolated)".
func (e remoteEngine) Language() string {
	if in := engines.For(e.ext); in != nil {
		return in.Language() + " (isolated)"
	}
	return strings.TrimPrefix(e.ext, ".") + " (isolated)"
}

// Extension is the extension of the files the unit's worker compiles.
func (e remoteEngine) Extension() string { return e.ext }

// Compile compiles src in the unit's worker. The host's modules are not
// sent: a worker has the standard modules only, with a state store of
// its own.
func (e remoteEngine) Compile(ctx context.Context, src scripting.Source, env *scripting.Env) (scripting.Program, error) {
	if path.Ext(src.Name) != e.ext {
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: not a " + e.ext + " file"}
	}
	w := e.pool.worker(e.unit)
	prog, err := w.compile(ctx, src, env.Limits)
	if err != nil {
		w.mu.Lock()
		empty := len(w.progs) == 0
		w.mu.Unlock()
		if empty {
			e.pool.release(w)
		}
		return nil, err
	}
	return prog, nil
}

// A program is a file compiled in a worker.
type program struct {
	w      *worker
	id     int64
	src    scripting.Source
	limits scripting.Limits
	hooks  []scripting.Hook
	once   sync.Once
}

// Hooks are the hooks the worker found in the file, each calling into it.
func (p *program) Hooks() []scripting.Hook { return p.hooks }

// Close tells the worker to drop the program, once; the worker itself
// stays for the unit's other programs.
func (p *program) Close() { p.once.Do(func() { p.w.drop(p.id) }) }
