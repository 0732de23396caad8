package isolate

import (
	"errors"
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

func (noInterrupt) Interrupt() {}

// Call sends the call to the worker and waits for its answer, the
// worker's death or the call's interrupt, whichever comes first. A
// worker that does not answer soon after the interrupt, or that left a
// builtin running, is killed: the next call starts a fresh one.
func (f *function) Call(c *scripting.Call) (any, error) {
	proc, err := f.prog.w.ensure(c.Context())
	if err != nil {
		return nil, f.failure(c, err)
	}
	if !c.Arm(noInterrupt{}) {
		return nil, f.interrupted(c)
	}
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
	_ = proc.send(map[string]any{"op": "cancel", "id": id})
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
func (f *function) message(c *scripting.Call) map[string]any {
	payload := c.Payload
	if f.fields != nil {
		payload = make(map[string]any, len(f.fields))
		for _, k := range f.fields {
			if v, ok := c.Payload[k]; ok {
				payload[k] = v
			}
		}
	}
	return map[string]any{"op": "call", "prog": f.prog.id, "hook": int64(f.index), "payload": payload,
		"event": c.Event, "hook_id": c.Hook, "config": c.Config, "timeout": int64(c.Timeout),
		"remaining": int64(time.Until(c.Deadline))}
}

// answer reads the worker's answer. An answer the worker marks
// interrupted is the deadline: the call is interrupted here too, so the
// host reports a timeout.
func (f *function) answer(c *scripting.Call, proc *process, msg map[string]any) (any, error) {
	em := mapOf(msg, "error")
	if em == nil {
		if !c.Disarm() {
			return nil, f.interrupted(c)
		}
		return msg["value"], nil
	}
	if msg["abandoned"] == true {
		proc.kill() // a builtin still runs in it: start clean
	}
	err := decodeError(em)
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
	return &scripting.Error{File: f.prog.src.Name, Line: f.hook().Line, Hook: c.Hook,
		Msg: "isolation: " + err.Error(), Err: err}
}

func (f *function) interrupted(c *scripting.Call) error {
	return &scripting.Error{File: f.prog.src.Name, Line: f.hook().Line, Hook: c.Hook,
		Msg: scripting.ErrInterrupted.Error(), Err: scripting.ErrInterrupted}
}
