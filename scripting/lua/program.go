package lua

import (
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// A program is a compiled file with its pool of interpreters.
type program struct {
	name       string
	proto      *lua.FunctionProto
	limits     scripting.Limits
	logger     *slog.Logger
	modules    map[string]*stdlib.Module
	hookModule *stdlib.Module
	testing    bool

	// regs are the first interpreter's registrations; every later one must
	// match them.
	regs  []registration
	hooks []scripting.Hook
	tests []scripting.Test // with Env.Testing: the file's test_* functions

	pool *statePool
	// without are the speed rewrites left out (speed.go), by tests only.
	without speedRewrite
}

// Hooks are the hooks the file registered, in registration order.
func (p *program) Hooks() []scripting.Hook { return p.hooks }

// Close closes the idle interpreters; busy ones are closed when returned.
func (p *program) Close() { p.pool.close() }

// acquire takes an idle interpreter or makes a new one.
func (p *program) acquire() (*state, error) {
	if st := p.pool.get(); st != nil {
		return st, nil
	}
	st, err := p.newState()
	if err != nil {
		return nil, err
	}
	if !sameRegistrations(p.regs, st.regs) {
		st.close()
		return nil, &scripting.Error{File: p.name, Msg: "a new interpreter registered different hooks than the first: " +
			"the top level must register the same hooks every time it runs (no registration that depends on time, randomness or state)"}
	}
	return st, nil
}

// release returns a healthy interpreter to the pool.
func (p *program) release(st *state) { p.pool.put(st) }

// A function is one registered hook of a program, or one of its test
// functions (test is then the function's global name).
type function struct {
	prog  *program
	index int
	line  int
	sig   signature
	test  string
	proto *lua.FunctionProto // of a test function
}

var _ scripting.Function = (*function)(nil)

// Call runs the hook in an interpreter from the program's pool.
func (f *function) Call(c *scripting.Call) (any, error) {
	p := f.prog
	st, err := p.acquire()
	if err != nil {
		return nil, err
	}
	if !c.Arm(st) {
		st.close()
		return nil, p.interrupted(c)
	}
	st.cur = c
	out, healthy, err := f.run(st, c)
	st.cur = nil
	if !c.Disarm() {
		st.close()
		return nil, p.interrupted(c)
	}
	if healthy && !st.grown {
		st.reset()
		p.release(st)
	} else {
		st.close()
	}
	return out, err
}

// run calls the hook in st and converts its return value. healthy is
// false when the interpreter should not be reused.
func (f *function) run(st *state, c *scripting.Call) (out any, healthy bool, err error) {
	L := st.L
	fn, err := f.target(st)
	if err != nil {
		return nil, true, err
	}
	top := L.GetTop()
	L.Push(fn)
	n, err := f.pushArgs(st, c)
	if err != nil {
		L.SetTop(top)
		return nil, true, &scripting.Error{File: f.prog.name, Line: f.line, Hook: c.Hook,
			Msg: "binding the payload: " + err.Error(), Err: err}
	}
	if err := pcall(L, n, 1); err != nil {
		return nil, isRecoverable(err), f.prog.callError(err, c)
	}
	ret := L.Get(-1)
	L.Pop(1)
	if ret == lua.LNil {
		return nil, true, nil
	}
	out, err = returnToNeutral(ret, map[string]any{"fields": c.Payload}, st.budget())
	if err != nil {
		return nil, true, &scripting.Error{File: f.prog.name, Line: f.line, Hook: c.Hook,
			Msg: "bad return value: " + err.Error(), Err: err}
	}
	return st.keepDecision(out, c), true, nil
}

// callError is scriptError for a hook call; an error raised once the
// call's memory budget was spent unwraps to scripting.ErrMemoryLimit.
func (p *program) callError(err error, c *scripting.Call) *scripting.Error {
	e := p.scriptError(err, c.Hook)
	if c.Charged() > p.limits.MaxCallMemory {
		e.Err = fmt.Errorf("%w: %w", scripting.ErrMemoryLimit, e.Err)
	}
	return e
}

// isRecoverable reports whether the interpreter is still sound after err:
// a script error unwinds cleanly, a Go panic may not have.
func isRecoverable(err error) bool {
	var ae *lua.ApiError
	return errors.As(err, &ae) && ae.Type != lua.ApiErrorPanic
}

// pushArgs pushes the arguments the signature names and returns how many.
// A hook's arguments are refilled from its last call on st when they can
// be (binder.go); a test's are converted afresh.
func (f *function) pushArgs(st *state, c *scripting.Call) (int, error) {
	L := st.L
	n := len(f.sig.params)
	if f.sig.vararg {
		n++
	}
	var args []boundArg
	if f.test == "" && !f.prog.without.has(speedRecycledArgs) {
		args = st.binder.args(f.index, n)
	}
	for i, name := range f.sig.params {
		v, err := st.arg(c, name, argAt(args, i))
		if err != nil {
			return 0, err
		}
		L.Push(v)
	}
	if f.sig.vararg {
		v, err := st.convertArg(argAt(args, n-1), c.Payload, 0)
		if err != nil {
			return 0, err
		}
		L.Push(v)
	}
	return n, nil
}

// argAt is &args[i], or nil without args.
func argAt(args []boundArg, i int) *boundArg {
	if args == nil {
		return nil
	}
	return &args[i]
}

func (st *state) arg(c *scripting.Call, name string, a *boundArg) (lua.LValue, error) {
	if name == "ctx" {
		return st.ctxTable(c)
	}
	v, err := st.convertArg(a, c.Payload[name], 1)
	if err != nil {
		return nil, fmt.Errorf("field %s: %w", name, err)
	}
	return v, nil
}

// convertArg converts an argument's value, found depth levels down the
// payload, refilling a when there is one. A hook's arguments are checked
// to be neutral values as they are converted (scripting.Hook.Binds).
func (st *state) convertArg(a *boundArg, v any, depth int) (lua.LValue, error) {
	if a == nil {
		return st.toLua(v, st.budget())
	}
	return st.bind(a, v, depth, true)
}

// A callContext is a state's read-only ctx value: an empty proxy whose
// metatable serves data's fields and refuses writes. It is made once per
// state, and each call refills data; only the proxy is reachable from a
// script (the metatable is protected), and a call that writes to it
// (rawset) gets the next call a new one.
type callContext struct {
	proxy    boundArg
	mt, data *lua.LTable
	config   boundArg
}

func (st *state) newCallContext() *callContext {
	L := st.L
	x := &callContext{data: L.CreateTable(0, 5), mt: L.CreateTable(0, 3)}
	x.mt.RawSetString("__index", x.data)
	x.mt.RawSetString("__newindex", L.NewFunction(readOnly))
	x.mt.RawSetString("__metatable", lua.LFalse)
	return x
}

// ctxTable binds the read-only ctx value for c.
func (st *state) ctxTable(c *scripting.Call) (lua.LValue, error) {
	if st.ctx == nil {
		st.ctx = st.newCallContext()
	}
	x := st.ctx
	config, err := st.bind(&x.config, c.Config, 0, false)
	if err != nil {
		return nil, fmt.Errorf("ctx.config: %w", err)
	}
	refillField(x.data, "event", c.Event)
	refillField(x.data, "hook", c.Hook)
	refillField(x.data, "timeout_ms", c.Timeout.Milliseconds())
	refillField(x.data, "hooks_dir", c.HooksDir)
	if x.data.RawGetString("config") != config {
		x.data.RawSetString("config", config)
	}
	if !x.proxy.bound || x.proxy.dirty {
		st.binder.forget(&x.proxy)
		proxy := st.L.CreateTable(0, 0)
		proxy.Metatable = x.mt
		st.binder.keep(&x.proxy, proxy, &recording{tables: []*lua.LTable{proxy}, shapes: []tableShape{{}}})
	}
	return x.proxy.v, nil
}

// refillField sets t[key] to the scalar v, unless it already holds it.
func refillField(t *lua.LTable, key string, v any) {
	if !sameScalar(t.RawGetString(key), v) {
		lb := luaBuilder{}
		lv, _ := lb.scalar(v) // not strict: cannot fail
		t.RawSetString(key, lv)
	}
}

func readOnly(L *lua.LState) int {
	L.RaiseError("ctx is read-only")
	return 0
}

func (p *program) interrupted(c *scripting.Call) error {
	return &scripting.Error{File: p.name, Hook: c.Hook, Msg: fmt.Sprintf("timed out after %v", c.Timeout), Err: scripting.ErrInterrupted}
}

// scriptError turns an error from running Lua into a *scripting.Error with
// the line where it was raised. It never calls back into Lua (no
// __tostring): an error object cannot hang the host.
func (p *program) scriptError(err error, hook string) *scripting.Error {
	e := &scripting.Error{File: p.name, Hook: hook, Err: err}
	var ae *lua.ApiError
	if !errors.As(err, &ae) {
		e.Msg = err.Error()
		return e
	}
	e.Backtrace = trimTraceback(ae.StackTrace, hook)
	if s, ok := ae.Object.(lua.LString); ok {
		e.Line, e.Msg = p.splitPosition(string(s))
	} else {
		e.Msg = fmt.Sprintf("error raised with a %s value, not a string (use error(\"message\"))", ae.Object.Type())
	}
	if e.Line == 0 {
		e.Line = p.firstLine(ae.StackTrace)
	}
	return e
}

// splitPosition splits "name:12: message" into 12 and "message".
func (p *program) splitPosition(msg string) (int, string) {
	rest, ok := strings.CutPrefix(msg, p.name+":")
	if !ok {
		return 0, msg
	}
	num, text, ok := strings.Cut(rest, ":")
	line, err := strconv.Atoi(num)
	if !ok || err != nil {
		return 0, msg
	}
	return line, strings.TrimSpace(text)
}

// tracebackLine is compiled on first use: every hookhost command links
// this package, and a regexp compiled at init is paid at every start.
var tracebackLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`:(\d+):`) })

// firstLine finds the innermost line of this file in a traceback.
func (p *program) firstLine(tb string) int {
	for _, l := range strings.Split(tb, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, p.name+":") {
			continue
		}
		if m := tracebackLine().FindStringSubmatch(l[len(p.name):]); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// trimTraceback is the one reader of gopher-lua's traceback text (its
// frames are not kept once the error has unwound the stack). It drops the
// header, the indentation and the frames of the rewrite's helpers
// (rewrite.go), which the script did not write. When the error comes from
// a hook, the outermost frame is the hook's function, which the host
// called from Go: gopher-lua names a frame without a Lua caller "main
// chunk", so that frame is named after the hook instead.
func trimTraceback(tb, hook string) string {
	tb = strings.TrimPrefix(strings.TrimSpace(tb), "stack traceback:")
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(tb), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[G]: in function 'hookhost.") {
			continue
		}
		if hook != "" && strings.HasSuffix(l, " in main chunk") {
			l = strings.TrimSuffix(l, "main chunk") + fmt.Sprintf("hook %q", hook)
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}
