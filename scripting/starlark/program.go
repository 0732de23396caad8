package starlark

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/hookhost/hookhost/scripting"
)

// A function is one registered hook: a frozen Starlark function.
type function struct {
	prog *program
	fn   *starlark.Function
	sig  signature
}

var _ scripting.Function = (*function)(nil)

// callThread is the per-call thread; it is its own interrupter, so a call
// allocates one object for both. It is the thread's local value under
// callKey, set once when the thread is made, so builtins find the call
// they serve without a map write per call.
type callThread struct {
	thread starlark.Thread
	// call is the hook call running on the thread, or the file's top
	// level's (see topLevel); nil between calls.
	call *scripting.Call
	// topLevel is set while the file's top level runs: call then meters
	// it, but module functions see no hook call.
	topLevel bool
	limits   *scripting.Limits
	// held are the containers and keys a rewritten x[f()] op= y holds
	// from its address to its check (ops_held.go).
	held []starlark.Value
	// dicts are the dicts the thread's calls bind payload maps to.
	dicts dictCache
	// strings are the strings the thread's calls bind, boxed, and keys
	// the sorted keys of the maps they bind.
	strings stringCache
	keys    keyCache
	// decisions are the decision values the thread's calls reuse, the
	// first usedDecisions of them taken by the call in progress
	// (decision.go).
	decisions     []*decision
	usedDecisions int
	// args holds a call's positional arguments: the interpreter copies
	// them into the callee's frame and keeps no reference, so one array
	// serves every call, cleared after each.
	args starlark.Tuple
	// weights are the weights of the heavy tuples the call has weighed
	// (ops_tuples.go).
	weights map[tupleID]int64
	// without are the speed rewrites the file was compiled without
	// (speed.go).
	without speedRewrite
}

// Interrupt implements scripting.Interrupter: it cancels the thread,
// which stops at its next step.
func (ct *callThread) Interrupt() { ct.thread.Cancel("timeout") }

// callThreadOf returns the callThread of a thread hookhost made.
func callThreadOf(thread *starlark.Thread) *callThread {
	ct, _ := thread.Local(callKey).(*callThread)
	return ct
}

// Call runs the hook on a thread of its own with the step budget of
// Limits.MaxSteps. Threads are recycled only after calls that were never
// interrupted, so a late Cancel cannot reach a thread serving another
// call; a recycled thread starts with a full budget and no cancellation,
// and keeps its grown call stack, which saves the interpreter allocating
// frames.
func (f *function) Call(c *scripting.Call) (out any, err error) {
	p := f.prog
	ct, _ := p.threads.Get().(*callThread)
	if ct == nil {
		ct = &callThread{limits: &p.limits, without: p.without}
		ct.thread.SetLocal(callKey, ct)
		ct.thread.Print = p.print // once: a method value costs an allocation
	}
	th := &ct.thread
	th.Name, th.Steps = c.Hook, 0
	th.Uncancel() // a recycled thread may have run out of steps last time
	th.SetMaxExecutionSteps(p.limits.MaxSteps)
	ct.call = c
	if !c.Arm(ct) {
		return nil, p.interrupted(c)
	}
	out, err = f.run(ct, c)
	if !c.Disarm() {
		return nil, p.interrupted(c)
	}
	ct.call = nil // nothing of this call stays reachable from the pool
	ct.held = releaseHeld(ct.held)
	ct.releaseDecisions()
	ct.weights = nil
	clear(ct.args)
	ct.dicts.recycle(th.Steps)
	p.threads.Put(ct)
	return out, err
}

func (f *function) run(ct *callThread, c *scripting.Call) (out any, err error) {
	th := &ct.thread
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &scripting.Error{File: f.prog.name, Hook: c.Hook, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	m := meterFor(c, &f.prog.limits)
	if !ct.without.has(speedBindCaches) {
		m.dicts, m.strings, m.keys = &ct.dicts, &ct.strings, &ct.keys
	}
	ct.strings.start()
	ct.keys.start()
	args, kwargs, err := f.bind(c, &m, ct)
	if err != nil {
		return nil, &scripting.Error{File: f.prog.name, Line: int(f.fn.Position().Line), Hook: c.Hook,
			Msg: "binding the payload: " + err.Error(), Err: err}
	}
	v, err := starlark.Call(th, f.fn, args, kwargs)
	if err != nil {
		return nil, f.prog.scriptError(err, c.Hook)
	}
	if v == starlark.None {
		return nil, nil
	}
	out, err = returnToNeutral(v, &m)
	if err != nil {
		return nil, &scripting.Error{File: f.prog.name, Line: int(f.fn.Position().Line), Hook: c.Hook,
			Msg: "bad return value: " + err.Error(), Err: err}
	}
	if d, ok := out.(*scripting.Decision); ok {
		out = c.KeepDecision(d) // d may be one of the thread's reused values
	}
	return out, nil
}

// bind builds the arguments the signature names from the payload,
// charging the conversion to the call.
func (f *function) bind(c *scripting.Call, m *meter, ct *callThread) (starlark.Tuple, []starlark.Tuple, error) {
	if n := len(f.sig.positional); cap(ct.args) < n {
		ct.args = make(starlark.Tuple, n)
	}
	args := ct.args[:len(f.sig.positional)]
	for i, p := range f.sig.positional {
		v, err := f.arg(c, p, m)
		if err != nil {
			return nil, nil, err
		}
		args[i] = v
	}
	var kwargs []starlark.Tuple
	for _, p := range f.sig.kwonly {
		v, err := f.arg(c, p, m)
		if err != nil {
			return nil, nil, err
		}
		if v != nil {
			kwargs = append(kwargs, starlark.Tuple{starlark.String(p.name), v})
		}
	}
	if f.sig.kwargs == "" {
		return args, kwargs, m.flush()
	}
	kwargs, err := f.bindKwargs(c, m, kwargs)
	return args, kwargs, err
}

// bindKwargs appends every field no parameter names, in sorted order so
// the **kwargs dict iterates the same way on every call.
func (f *function) bindKwargs(c *scripting.Call, m *meter, kwargs []starlark.Tuple) ([]starlark.Tuple, error) {
	keys := make([]string, 0, len(c.Payload))
	for k := range c.Payload {
		if !f.sig.bound[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if err := m.spendN(len(keys), 2*entrySize); err != nil {
		return nil, err
	}
	for _, k := range keys {
		v, err := m.bindField(c.Payload[k])
		if err != nil {
			return nil, err
		}
		kwargs = append(kwargs, starlark.Tuple{starlark.String(k), v})
	}
	return kwargs, m.flush()
}

// arg is the value of one parameter: ctx, the payload field, the
// parameter's default when the field is absent, else None. For a
// keyword-only parameter with a default, nil means "omit".
func (f *function) arg(c *scripting.Call, p param, m *meter) (starlark.Value, error) {
	if p.name == "ctx" {
		return ctxValue(c, m)
	}
	v, ok := c.Payload[p.name]
	switch {
	case ok:
		return m.bindField(v)
	case p.def != nil:
		return p.def, nil
	default:
		return starlark.None, nil
	}
}

// ctxValue is the read-only call context: a frozen struct.
func ctxValue(c *scripting.Call, m *meter) (starlark.Value, error) {
	cfg, err := m.toStarlark(c.Config)
	if err != nil {
		return nil, err
	}
	cfg.Freeze()
	s := starlarkstruct.FromStringDict(starlark.String("ctx"), starlark.StringDict{
		"event":      starlark.String(c.Event),
		"hook":       starlark.String(c.Hook),
		"config":     cfg,
		"timeout_ms": starlark.MakeInt64(c.Timeout.Milliseconds()),
		"hooks_dir":  starlark.String(c.HooksDir),
	})
	s.Freeze()
	return s, nil
}

func (p *program) interrupted(c *scripting.Call) error {
	return &scripting.Error{File: p.name, Hook: c.Hook, Msg: fmt.Sprintf("timed out after %v", c.Timeout), Err: scripting.ErrInterrupted}
}

// scriptError turns an evaluation error into a *scripting.Error at the
// innermost line of this file in the call stack.
func (p *program) scriptError(err error, hook string) *scripting.Error {
	e := &scripting.Error{File: p.name, Hook: hook, Msg: err.Error(), Err: err}
	var ee *starlark.EvalError
	if !errors.As(err, &ee) {
		return e
	}
	dropHiddenFrames(ee)
	e.Msg = ee.Msg
	e.Backtrace = strings.TrimSpace(strings.TrimPrefix(ee.Backtrace(), "Traceback (most recent call last):"))
	for i := 0; i < len(ee.CallStack); i++ {
		fr := ee.CallStack.At(i)
		if fr.Pos.Filename() == p.name && fr.Pos.Line > 0 {
			e.Line = int(fr.Pos.Line)
			break
		}
	}
	return e
}
