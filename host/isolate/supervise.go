package isolate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// A worker is one unit's process, restarted as needed, and the programs
// compiled in it.
//
// Its process is started in the background: when the unit's first file
// compiles, and again at once when the process dies, so that the restart
// (a process start, compiling the unit's files) is not charged to the
// next call's deadline. A call that comes while a start runs waits for
// it (AwaitReady), bounded by the start-up limit. A start that fails, or
// a process that dies before it served a call, is tried again after a
// backoff that doubles each time (restartBackoff), so a worker that
// cannot start does not spin; calls meanwhile fail at once with why.
type worker struct {
	pool *Pool
	unit string

	mu    sync.Mutex // guards everything below
	proc  *process   // the running process; nil while there is none
	start *startRun  // the start under way; nil when none runs
	// startErr is why the last start failed (or its process died before
	// serving a call); nil after a good start. While it is set and a
	// retry is pending, calls fail with it at once.
	startErr error
	failures int     // starts in a row that failed
	retry    stopper // the scheduled restart, if any
	progs    map[int64]*program
	nextProg int64
	closed   bool
	starts   int // processes started, for tests
}

// A startRun is one start of a worker's process: done closes when it
// has ended, well or not; cancel aborts it.
type startRun struct {
	done   chan struct{}
	cancel context.CancelFunc
}

// errClosed is the failure of a call on a worker that was shut down.
var errClosed = errors.New("the worker was shut down")

// DefaultStartTimeout bounds a worker's start: the process, its hello,
// and compiling its unit's files.
const DefaultStartTimeout = 10 * time.Second

// Backoff of restarts that fail: the first retry after minBackoff, each
// next one after twice as long, at most maxBackoff.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 10 * time.Second
)

// restartBackoff is how long to wait before the next start after
// failures starts in a row went wrong: none after a process that served
// calls, then 100 ms, 200 ms, … up to 10 s.
func restartBackoff(failures int) time.Duration {
	if failures <= 0 {
		return 0
	}
	d := minBackoff
	for i := 1; i < failures && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// A stopper is a pending timer (time.AfterFunc's, or a test's).
type stopper interface{ Stop() bool }

// ready reports whether the worker's process is running.
func (w *worker) ready() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.proc != nil && w.proc.alive()
}

// await returns the running process. While a start runs it waits for
// it, bounded by ctx; with none running and none pending it starts one
// (kick). During the backoff after failed starts it fails at once with
// their error, unless force, which starts one now (a compile: the
// operator loaded the file again, so try again).
func (w *worker) await(ctx context.Context, force bool) (*process, error) {
	for {
		w.mu.Lock()
		if w.closed {
			w.mu.Unlock()
			return nil, errClosed
		}
		if w.proc != nil && w.proc.alive() {
			p := w.proc
			w.mu.Unlock()
			return p, nil
		}
		run := w.start
		if run == nil {
			if w.startErr != nil && w.retry != nil && !force {
				err := w.startErr
				w.mu.Unlock()
				return nil, err
			}
			run = w.beginLocked()
		}
		w.mu.Unlock()
		select {
		case <-run.done:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the worker to start: %w", ctx.Err())
		}
		w.mu.Lock()
		err, started := w.startErr, w.proc != nil && w.proc.alive()
		w.mu.Unlock()
		if !started && err != nil {
			return nil, err
		}
		force = false // a start ran for us: its outcome is the answer
	}
}

// beginLocked starts the worker's process in the background; w.mu is
// held.
func (w *worker) beginLocked() *startRun {
	if w.retry != nil {
		w.retry.Stop()
		w.retry = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.pool.startTimeoutNow())
	run := &startRun{done: make(chan struct{}), cancel: cancel}
	w.start = run
	go w.run(ctx, run)
	return run
}

// run is one start: the process, then every program of the unit, and
// the programs added while it compiled. It publishes the process, or
// records why it failed and schedules the next try.
func (w *worker) run(ctx context.Context, run *startRun) {
	defer close(run.done)
	defer run.cancel()
	proc, err := w.launch(ctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.start = nil
	switch {
	case err == nil && w.closed:
		proc.kill()
	case err == nil:
		w.proc, w.startErr, w.starts = proc, nil, w.starts+1
		go w.watch(proc)
	case !w.closed && len(w.progs) > 0:
		if !errors.Is(err, ErrWorkerStart) {
			err = fmt.Errorf("%w: %w", ErrWorkerStart, err)
		}
		w.failures++
		w.startErr = err
		w.scheduleLocked(err.Error())
	default: // shut down, or no program to serve: nothing to retry
		w.startErr = err
	}
}

// launch starts a process and compiles the unit's programs in it, again
// while programs were added meanwhile; programs dropped meanwhile are
// dropped in it too.
func (w *worker) launch(ctx context.Context) (*process, error) {
	sp, err := w.pool.spawn()
	if err != nil {
		return nil, err
	}
	proc, err := startProcess(ctx, sp, w.pool.startLimits(), w.pool.opts.State, w.unit, w.pool.opts.Logger)
	if err != nil {
		return nil, err
	}
	compiled := map[int64]bool{}
	for {
		todo := w.uncompiled(compiled)
		if len(todo) == 0 {
			break
		}
		for id, prog := range todo {
			if _, err := compileIn(ctx, proc, id, prog.src, prog.limits); err != nil {
				proc.kill()
				return nil, fmt.Errorf("compiling %s again in a new worker: %w", prog.src.Name, err)
			}
			compiled[id] = true
		}
	}
	w.mu.Lock()
	for id := range compiled {
		if w.progs[id] == nil {
			_ = proc.send(&dropMsg{Prog: id})
		}
	}
	w.mu.Unlock()
	return proc, nil
}

// uncompiled is the unit's programs not in done.
func (w *worker) uncompiled(done map[int64]bool) map[int64]*program {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[int64]*program{}
	for id, prog := range w.progs {
		if !done[id] {
			out[id] = prog
		}
	}
	return out
}

// watch restarts the worker when proc dies: at once when it had served a
// call or a new file's compile (the death was theirs), after the backoff
// when it died before serving either.
func (w *worker) watch(proc *process) {
	<-proc.dead
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.proc != proc || w.closed {
		return
	}
	w.proc = nil
	if len(w.progs) == 0 || w.start != nil { // a call has already started one
		return
	}
	reason := proc.deadErr().Error()
	if proc.served.Load() {
		w.failures = 0
	} else {
		w.failures++
		w.startErr = fmt.Errorf("%w: it ended before serving a call (%v)", ErrWorkerStart, proc.deadErr())
	}
	w.scheduleLocked(reason)
}

// scheduleLocked starts the worker again after the backoff its failures
// call for; w.mu is held.
func (w *worker) scheduleLocked(reason string) {
	d := restartBackoff(w.failures)
	w.pool.opts.Logger.Warn("restarting a worker", "unit", w.unit, "reason", reason, "in", d.String())
	if d == 0 {
		w.beginLocked()
		return
	}
	w.retry = w.pool.afterFunc(d, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.closed || w.start != nil || w.proc != nil || len(w.progs) == 0 {
			return
		}
		w.retry = nil
		w.beginLocked()
	})
}

// replace starts a new process for the worker (under the pool's limits
// now) and stops the running one once it has finished its calls. A start
// already under way may have begun under the old limits: it is followed
// by another.
func (w *worker) replace() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	old, run := w.proc, w.start
	w.proc, w.failures, w.startErr = nil, 0, nil
	if run == nil {
		w.beginLocked()
	}
	w.mu.Unlock()
	if run != nil {
		go func() {
			<-run.done
			w.replace()
		}()
	}
	if old != nil {
		go old.stop(stopGrace)
	}
}

// compile compiles src in the worker as a new program.
func (w *worker) compile(ctx context.Context, src scripting.Source, limits scripting.Limits) (*program, error) {
	proc, err := w.await(ctx, true)
	if err != nil {
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: " + err.Error(), Err: err}
	}
	w.mu.Lock()
	w.nextProg++
	id := w.nextProg
	w.mu.Unlock()
	proc.served.Store(true) // a new file whose top level kills the worker is that file's failure
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
	_, answer, err := proc.request(&compileMsg{Prog: id, Name: src.Name, Code: string(src.Code),
		Limits: wireLimits(limits), LogLevel: int64(lowestLevel(proc.logger))})
	if err != nil {
		return nil, &scripting.Error{File: src.Name, Msg: "isolation: " + err.Error(), Err: err}
	}
	select {
	case msg := <-answer:
		switch m := msg.(type) {
		case *hooksMsg:
			hooks := make([]scripting.Hook, len(m.Hooks))
			for i, h := range m.Hooks {
				hooks[i] = h.hook()
			}
			return hooks, nil
		case *errorMsg:
			return nil, m.Error.scriptError()
		}
		return nil, &scripting.Error{File: src.Name, Msg: fmt.Sprintf("isolation: %v: a compile answered with %s",
			errProtocol, msg.op()), Err: errProtocol}
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
		_ = proc.send(&dropMsg{Prog: id})
	}
}

// stopGrace is how long a worker has to finish its calls when stopped.
const stopGrace = 500 * time.Millisecond

// shutdown stops the worker for good: a start under way is aborted and
// waited for, a pending restart cancelled, the process stopped.
func (w *worker) shutdown() {
	w.mu.Lock()
	proc, run := w.proc, w.start
	w.closed, w.proc = true, nil
	if w.retry != nil {
		w.retry.Stop()
		w.retry = nil
	}
	w.mu.Unlock()
	if run != nil {
		run.cancel()
		<-run.done
	}
	if proc != nil {
		proc.stop(stopGrace)
	}
}
