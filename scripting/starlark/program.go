package starlark

import (
	"errors"
	"fmt"
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
// allocates one object for both.
type callThread struct {
	thread starlark.Thread
}

func (ct *callThread) Interrupt() { ct.thread.Cancel("timeout") }

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
		ct = &callThread{}
	}
	th := &ct.thread
	th.Name, th.Print, th.Steps = c.Hook, p.print, 0
	th.Uncancel() // a recycled thread may have run out of steps last time
	th.SetMaxExecutionSteps(p.limits.MaxSteps)
	if p.usesModules {
		th.SetLocal(callKey, c)
	}
	if !c.Arm(ct) {
		return nil, p.interrupted(c)
	}
	out, err = f.run(th, c)
	if !c.Disarm() {
		return nil, p.interrupted(c)
	}
	if p.usesModules {
		th.SetLocal(callKey, nil)
	}
	p.threads.Put(ct)
	return out, err
}

func (f *function) run(th *starlark.Thread, c *scripting.Call) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &scripting.Error{File: f.prog.name, Hook: c.Hook, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	args, kwargs := f.bind(c)
	v, err := starlark.Call(th, f.fn, args, kwargs)
	if err != nil {
		return nil, f.prog.scriptError(err, c.Hook)
	}
	if v == starlark.None {
		return nil, nil
	}
	out, err = returnToNeutral(v)
	if err != nil {
		return nil, &scripting.Error{File: f.prog.name, Line: int(f.fn.Position().Line), Hook: c.Hook,
			Msg: "bad return value: " + err.Error()}
	}
	return out, nil
}

// bind builds the arguments the signature names from the payload.
func (f *function) bind(c *scripting.Call) (starlark.Tuple, []starlark.Tuple) {
	args := make(starlark.Tuple, len(f.sig.positional))
	for i, p := range f.sig.positional {
		args[i] = f.arg(c, p)
	}
	var kwargs []starlark.Tuple
	for _, p := range f.sig.kwonly {
		if v := f.arg(c, p); v != nil {
			kwargs = append(kwargs, starlark.Tuple{starlark.String(p.name), v})
		}
	}
	if f.sig.kwargs != "" {
		for _, k := range sortedFields(c.Payload) {
			if !f.sig.bound[k] {
				kwargs = append(kwargs, starlark.Tuple{starlark.String(k), toStarlark(c.Payload[k])})
			}
		}
	}
	return args, kwargs
}

// arg is the value of one parameter: ctx, the payload field, the
// parameter's default when the field is absent, else None. For a
// keyword-only parameter with a default, nil means "omit".
func (f *function) arg(c *scripting.Call, p param) starlark.Value {
	if p.name == "ctx" {
		return ctxValue(c)
	}
	v, ok := c.Payload[p.name]
	switch {
	case ok:
		return toStarlark(v)
	case p.def != nil:
		return p.def
	default:
		return starlark.None
	}
}

// ctxValue is the read-only call context: a frozen struct.
func ctxValue(c *scripting.Call) starlark.Value {
	cfg := toStarlark(c.Config)
	cfg.Freeze()
	s := starlarkstruct.FromStringDict(starlark.String("ctx"), starlark.StringDict{
		"event":      starlark.String(c.Event),
		"hook":       starlark.String(c.Hook),
		"config":     cfg,
		"timeout_ms": starlark.MakeInt64(c.Timeout.Milliseconds()),
	})
	s.Freeze()
	return s
}

func sortedFields(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Deterministic order keeps **kwargs dicts stable across calls.
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
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
