package isolate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// Options configure a Pool.
type Options struct {
	// Executable is the binary workers are started from; empty means the
	// running program's own (os.Executable), which must call
	// RunWorkerIfRequested first thing in main.
	Executable string
	// Limits are the workers' OS limits; zero fields take the defaults.
	Limits OSLimits
	// Logger receives the workers' log and print output and their
	// restarts; nil discards them.
	Logger *slog.Logger
}

// A Pool starts and supervises the workers of one host: one worker per
// unit (an isolated file, or a pack whose files share one), started when
// the unit's first file compiles and stopped when its last program
// closes. A worker that dies is started again at the next call, and the
// unit's files compiled in it again. A Pool is safe for concurrent use.
type Pool struct {
	opts Options

	mu      sync.Mutex
	workers map[string]*worker
}

// NewPool makes a pool; it starts nothing until a file compiles.
func NewPool(opts Options) *Pool {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Pool{opts: opts, workers: map[string]*worker{}}
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
	for _, w := range ws {
		w.shutdown()
	}
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

func (p *Pool) executable() (string, error) {
	if p.opts.Executable != "" {
		return p.opts.Executable, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the program to start workers from: %w", err)
	}
	return exe, nil
}

// A worker is one unit's process, restarted as needed, and the programs
// compiled in it.
type worker struct {
	pool *Pool
	unit string

	mu       sync.Mutex // guards everything below; held while a process starts
	proc     *process
	progs    map[int64]*program
	nextProg int64
	closed   bool
	starts   int
}

// errClosed is the failure of a call on a worker that was shut down.
var errClosed = errors.New("the worker was shut down")

// ensure returns a running process, starting one (and compiling the
// unit's programs in it) if there is none.
func (w *worker) ensure(ctx context.Context) (*process, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, errClosed
	}
	if w.proc != nil && w.proc.alive() {
		return w.proc, nil
	}
	exe, err := w.pool.executable()
	if err != nil {
		return nil, err
	}
	if w.proc != nil {
		w.pool.opts.Logger.Warn("restarting a worker", "unit", w.unit, "reason", w.proc.deadErr().Error())
	}
	proc, err := startProcess(ctx, exe, w.pool.opts.Limits.Or(), w.unit, w.pool.opts.Logger)
	if err != nil {
		return nil, err
	}
	w.starts++
	for id, prog := range w.progs {
		if _, err := compileIn(ctx, proc, id, prog.src, prog.limits); err != nil {
			proc.kill()
			return nil, fmt.Errorf("compiling %s again in a new worker: %w", prog.src.Name, err)
		}
	}
	w.proc = proc
	return proc, nil
}

// compile compiles src in the worker as a new program.
func (w *worker) compile(ctx context.Context, src scripting.Source, limits scripting.Limits) (*program, error) {
	proc, err := w.ensure(ctx)
	if err != nil {
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: " + err.Error(), Err: err}
	}
	w.mu.Lock()
	w.nextProg++
	id := w.nextProg
	w.mu.Unlock()
	hooks, err := compileIn(ctx, proc, id, src, limits)
	if err != nil {
		return nil, err
	}
	prog := &program{w: w, id: id, src: src, limits: limits}
	prog.hooks = make([]scripting.Hook, len(hooks))
	for i, h := range hooks {
		h.Func = &function{prog: prog, index: i, fields: fieldsOf(h.Params)}
		prog.hooks[i] = h
	}
	w.mu.Lock()
	w.progs[id] = prog
	w.mu.Unlock()
	return prog, nil
}

// compileIn compiles src as program id in proc and returns its hooks.
func compileIn(ctx context.Context, proc *process, id int64, src scripting.Source, limits scripting.Limits) ([]scripting.Hook, error) {
	_, answer, err := proc.request(map[string]any{"op": "compile", "prog": id, "name": src.Name,
		"code": string(src.Code), "limits": limitsMessage(limits)})
	if err != nil {
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: " + err.Error(), Err: err}
	}
	select {
	case msg := <-answer:
		if em := mapOf(msg, "error"); em != nil {
			return nil, decodeError(em)
		}
		list, _ := msg["hooks"].([]any)
		hooks := make([]scripting.Hook, 0, len(list))
		for _, h := range list {
			if m, ok := h.(map[string]any); ok {
				hooks = append(hooks, decodeHook(m))
			}
		}
		return hooks, nil
	case <-proc.dead:
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: " + proc.deadErr().Error()}
	case <-ctx.Done():
		proc.kill()
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: " + ctx.Err().Error(), Err: ctx.Err()}
	}
}

// drop forgets a program, and the worker with its last one.
func (w *worker) drop(id int64) {
	w.mu.Lock()
	delete(w.progs, id)
	proc, empty := w.proc, len(w.progs) == 0
	w.mu.Unlock()
	if empty {
		w.pool.release(w)
		return
	}
	if proc != nil {
		_ = proc.send(map[string]any{"op": "drop", "prog": id})
	}
}

// stopGrace is how long a worker has to finish its calls when stopped.
const stopGrace = 500 * time.Millisecond

func (w *worker) shutdown() {
	w.mu.Lock()
	proc := w.proc
	w.closed, w.proc = true, nil
	w.mu.Unlock()
	if proc != nil {
		proc.stop(stopGrace)
	}
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

func (e remoteEngine) Language() string  { return strings.TrimPrefix(e.ext, ".") + " (isolated)" }
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

func (p *program) Hooks() []scripting.Hook { return p.hooks }
func (p *program) Close()                  { p.once.Do(func() { p.w.drop(p.id) }) }
