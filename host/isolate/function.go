package isolate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// A function is a hook of a program compiled in a worker.
type function struct {
	prog   *program
	index  int
	fields []string // the payload fields it reads; nil for all
}

// cancelGrace is how long an interrupted call may take to answer before
// its worker is killed: a worker interrupts its own call at the deadline,
// so only a stuck one needs this.
const cancelGrace = 100 * time.Millisecond

// noInterrupt is the Interrupter of a remote call: the host's interrupt
// closes the call's Done channel, which Call waits on.
type noInterrupt struct{}

// Interrupt does nothing: the call waits on its Done channel instead.
func (noInterrupt) Interrupt() {}

// A WorkerFunction is the scripting.Function of an isolated hook. Its
// worker's process may be starting (after a death, in the background);
// a host calls AwaitReady before it starts the call's clock, so that the
// start is not charged to the hook's deadline.
type WorkerFunction interface {
	scripting.Function
	// Ready reports whether the worker's process is running: a call
	// would not wait for a start.
	Ready() bool
	// AwaitReady waits until the worker's process runs, bounded by ctx
	// and the pool's start-up limit. Its error is the hook's failure (a
	// *scripting.Error naming the file, line and hook): the worker could
	// not start (ErrWorkerStart), was shut down, or ctx ended.
	AwaitReady(ctx context.Context, hookID string) error
}

// Ready implements WorkerFunction.
func (f *function) Ready() bool { return f.prog.w.ready() }

// AwaitReady implements WorkerFunction: a worker that cannot start is
// the hook's failure, at its file and line.
func (f *function) AwaitReady(ctx context.Context, hookID string) error {
	if _, err := f.prog.w.await(ctx, false); err != nil {
		return f.failureOf(hookID, err)
	}
	return nil
}

// Call sends the call to the worker and waits for its answer, the
// worker's death or the call's interrupt, whichever comes first. A
// worker that does not answer soon after the interrupt, or that left a
// builtin running, is killed (and restarted in the background). A
// worker that is starting is waited for within the call's deadline; the
// host waits for it before (AwaitReady), so that is rare.
func (f *function) Call(c *scripting.Call) (any, error) {
	proc, err := f.prog.w.await(c.Context(), false)
	if err != nil {
		if c.Interrupted() {
			return nil, f.interrupted(c)
		}
		return nil, f.failure(c, err)
	}
	if !c.Arm(noInterrupt{}) {
		return nil, f.interrupted(c)
	}
	proc.served.Store(true)
	id, answer, err := proc.request(f.message(c))
	if err != nil {
		c.Disarm()
		return nil, f.failure(c, err)
	}
	select {
	case msg := <-answer:
		return f.answer(c, proc, msg)
	case <-proc.dead:
		c.Disarm()
		return nil, f.failure(c, proc.deadErr())
	case <-c.Done():
	}
	_ = proc.send(&cancelMsg{ID: id})
	select {
	case msg := <-answer:
		return f.answer(c, proc, msg)
	case <-proc.dead:
	case <-time.After(cancelGrace):
		proc.forget(id)
		proc.kill()
	}
	return nil, f.interrupted(c)
}

// message is the call request: the fields the hook reads, and the time
// the call has left.
func (f *function) message(c *scripting.Call) *callMsg {
	payload := c.Payload
	if f.fields != nil {
		payload = make(map[string]any, len(f.fields))
		for _, k := range f.fields {
			if v, ok := c.Payload[k]; ok {
				payload[k] = v
			}
		}
	}
	return &callMsg{Prog: f.prog.id, Hook: int64(f.index), Payload: payload, Event: c.Event, HookID: c.Hook,
		Config: c.Config, HooksDir: c.HooksDir, Timeout: c.Timeout, Remaining: time.Until(c.Deadline)}
}

// answer reads the worker's answer. An answer the worker marks
// interrupted is the deadline: the call is interrupted here too, so the
// host reports a timeout.
func (f *function) answer(c *scripting.Call, proc *process, msg message) (any, error) {
	var em *errorMsg
	switch m := msg.(type) {
	case *valueMsg:
		if !c.Disarm() {
			return nil, f.interrupted(c)
		}
		return m.Value, nil
	case *errorMsg:
		em = m
	default:
		c.Disarm()
		return nil, f.failure(c, fmt.Errorf("%w: a call answered with %s", errProtocol, msg.op()))
	}
	if em.Abandoned {
		proc.kill() // a builtin still runs in it: start clean
	}
	err := em.Error.scriptError()
	if errors.Is(err, scripting.ErrInterrupted) || errors.Is(err, scripting.ErrAbandoned) {
		c.Interrupt()
		return nil, f.interrupted(c)
	}
	c.Disarm()
	return nil, err
}

func (f *function) hook() scripting.Hook { return f.prog.hooks[f.index] }

// failure is a call that could not run because of its worker.
func (f *function) failure(c *scripting.Call, err error) error {
	return f.failureOf(c.Hook, err)
}

func (f *function) failureOf(hookID string, err error) error {
	return &scripting.Error{File: f.prog.src.Name, Line: f.hook().Line, Hook: hookID,
		Msg: "isolation: " + err.Error(), Err: err}
}

func (f *function) interrupted(c *scripting.Call) error {
	return &scripting.Error{File: f.prog.src.Name, Line: f.hook().Line, Hook: c.Hook,
		Msg: scripting.ErrInterrupted.Error(), Err: scripting.ErrInterrupted}
}
