package lua

import (
	"fmt"
	"strconv"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// A state is one initialised interpreter of a file. It belongs to one
// goroutine at a time: the pool hands it out and takes it back.
type state struct {
	L    *lua.LState
	prog *program
	intr *interruptContext
	// home is the pool slot its caller's processor uses, while the state
	// serves a call (pool.go).
	home *poolHome

	// regs are the hook.on registrations the top level made.
	regs    []registration
	loading bool

	// cur is the call in progress, for builtins that need its context or
	// hook id.
	cur *scripting.Call
	// loaded caches the module tables require returned.
	loaded map[string]lua.LValue
	// decisionMeta is the metatable of the decisions the state's calls
	// build (see decision.go), made on first use.
	decisionMeta *lua.LTable
	// decisions are the decision wrappers calls reuse, the first
	// usedDecisions of them taken by the call in progress.
	decisions     []*lua.LUserData
	usedDecisions int
	// decisionValues are what the first decision wrappers hold when a
	// reason constructor built them (reasonBuiltin): the state's own
	// memory, copied into the call's when a hook returns one.
	decisionValues [maxPooledDecisions]scripting.Decision
	// argBox is argString boxed, for module arguments (module.go).
	argString string
	argBox    any

	// frozen are the tables calls must not change, and upvalues the
	// module-level locals reset after every call (see freeze.go).
	frozen   map[*lua.LTable]struct{}
	upvalues []upvalueSnapshot
	// grown is set when a call made the value stack much larger than it
	// starts: gopher-lua never shrinks it, so the state is not pooled.
	grown bool
	// keepError and unwind serve pcall and xpcall (baselib.go), made on
	// first use: an error function that returns the error as it is, and
	// an empty Lua function whose return closes the upvalues of the frames
	// an error unwound.
	keepError, unwind *lua.LFunction

	// binder keeps the arguments of the last calls for the next ones, and
	// ctx the read-only ctx value (see binder.go).
	binder binder
	ctx    *callContext
	// boxes are the table keys the state's conversions boxed (tables.go).
	boxes keyBoxes
}

type registration struct {
	scripting.HookOptions
	event string
	line  int
	fn    *lua.LFunction
}

// Interrupt stops the interpreter at its next instruction. The state's
// context stays interrupted for good, so an interrupted state is never
// reused.
func (st *state) Interrupt() { st.intr.interrupt() }

// Registry (value stack) sizes, in slots of 16 bytes. An interpreter
// starts small, since every pooled one keeps its stack: a guardrail's
// call uses a few dozen slots. The stack grows on demand, registryGrowStep
// slots beyond what is needed at a time (gopher-lua's default of 32 made
// deep recursion copy the stack every few calls), up to registryMaxSize,
// which leaves room for maxResults results and bounds unpack of a huge
// range. A builtin that needs more than grownSlots at once marks the
// interpreter as grown, so that it is not pooled (gopher-lua never
// shrinks the stack).
const (
	registrySize     = 256
	registryGrowStep = 256
	registryMaxSize  = 1 << 20
	grownSlots       = 1024
)

// newState creates an interpreter, opens the sandbox and runs the file's
// top level, recording its registrations.
func (p *program) newState() (*state, error) {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       p.limits.MaxCallDepth,
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMaxSize,
		RegistryGrowStep:    registryGrowStep,
		MinimizeStackMemory: true,
	})
	intr := &interruptContext{}
	L.SetContext(intr)
	st := &state{L: L, prog: p, intr: intr}
	st.openSandbox()
	st.setHookModule()
	if err := st.runTopLevel(); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

func (st *state) close() {
	st.intr.interrupt()
	st.L.Close()
}

// runTopLevel runs the file's main chunk under Limits.InitTimeout.
func (st *state) runTopLevel() error {
	p := st.prog
	init := &scripting.Call{Hook: "", Config: map[string]any{}, Timeout: p.limits.InitTimeout,
		Deadline: time.Now().Add(p.limits.InitTimeout)}
	timer := time.AfterFunc(p.limits.InitTimeout, init.Interrupt)
	defer timer.Stop()
	init.Arm(st)
	st.cur, st.loading = init, true
	st.L.Push(st.L.NewFunctionFromProto(p.proto))
	helpers := st.helpers()
	for _, h := range helpers {
		st.L.Push(h)
	}
	err := pcall(st.L, len(helpers), 0)
	st.cur, st.loading = nil, false
	if !init.Disarm() {
		return &scripting.Error{File: p.name, Msg: fmt.Sprintf("the top level did not finish within %v", p.limits.InitTimeout), Err: scripting.ErrInterrupted}
	}
	if err != nil {
		return p.scriptError(err, "")
	}
	st.freeze()
	return nil
}

// pcall is L.PCall that also recovers what escapes it, such as gopher-lua's
// "callstack overflow" panic.
func pcall(L *lua.LState, nargs, nret int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return L.PCall(nargs, nret, nil)
}

// setHookModule predeclares the global hook: the shared decision
// constructors plus on, which records registrations.
func (st *state) setHookModule() {
	m := st.prog.hookModule
	t := st.bindModule(m)
	for _, a := range scripting.ReasonActions {
		if generic, ok := t.RawGetString(a.Name).(*lua.LFunction); ok && generic.IsG {
			t.RawSetString(a.Name, st.L.NewFunction(st.reasonBuiltin(a, generic.GFunction)))
		}
	}
	t.RawSetString("on", st.L.NewFunction(st.on))
	st.L.SetGlobal("hook", t)
}

// on implements hook.on(event, fn, opts).
func (st *state) on(L *lua.LState) int {
	if !st.loading {
		L.RaiseError("hook.on: hooks can only be registered at the top level of a file")
	}
	event, ok := L.Get(1).(lua.LString)
	if !ok {
		L.RaiseError("hook.on: argument 1 (event): want an event name, got %s", L.Get(1).Type())
	}
	fn, ok := L.Get(2).(*lua.LFunction)
	if !ok || fn.IsG {
		L.RaiseError("hook.on: argument 2: want a Lua function, got %s", describeLua(L.Get(2)))
	}
	line := callerLine(L)
	var opts map[string]any
	if o := L.Get(3); o != lua.LNil {
		v, err := toNeutral(o, nil, budget{})
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			L.RaiseError("hook.on: argument 3: want a table of options (name, priority, timeout, enabled), got %s", o.Type())
		}
		opts = m
	}
	ho, err := scripting.ParseHookOptions(opts, strconv.Itoa(line))
	if err != nil {
		L.RaiseError("hook.on: %v", err)
	}
	st.regs = append(st.regs, registration{HookOptions: ho, event: string(event), line: line, fn: fn})
	return 0
}

// callerLine is the line of the Lua code that called the current builtin.
func callerLine(L *lua.LState) int {
	dbg, ok := L.GetStack(1)
	if !ok {
		return 0
	}
	if _, err := L.GetInfo("l", dbg, nil); err != nil {
		return 0
	}
	return dbg.CurrentLine
}

// sameRegistrations reports whether a new interpreter registered exactly
// what the first one did: pooled interpreters must be interchangeable.
func sameRegistrations(a, b []registration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.HookOptions != y.HookOptions || x.event != y.event || x.line != y.line || x.fn.Proto != y.fn.Proto {
			return false
		}
	}
	return true
}

var _ scripting.Interrupter = (*state)(nil)

// modulesByName indexes modules for require.
func modulesByName(mods []stdlib.Module) map[string]*stdlib.Module {
	out := make(map[string]*stdlib.Module, len(mods))
	for i := range mods {
		out[mods[i].Name] = &mods[i]
	}
	return out
}

func describeLua(v lua.LValue) string {
	if f, ok := v.(*lua.LFunction); ok && f.IsG {
		return "a builtin function"
	}
	return v.Type().String()
}
