package starlark

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// Engine compiles Starlark hook files. The zero value is ready to use.
type Engine struct {
	// without are the speed rewrites turned off (speed.go), by tests only.
	without speedRewrite
}

var _ scripting.Engine = Engine{}

// Language is "starlark".
func (Engine) Language() string { return "starlark" }

// Extension is ".star", the files the engine compiles.
func (Engine) Extension() string { return ".star" }

// fileOptions enables what docs/scripting.md promises scripts: while loops, sets,
// top-level control flow, global reassignment and recursion (starlark-go
// caps the call stack, so recursion cannot overflow Go's).
var fileOptions = syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// A registry collects hook.on calls while a file's top level runs.
type registry struct {
	regs []registration
}

type registration struct {
	scripting.HookOptions
	event string
	line  int
	fn    *starlark.Function
}

// Compile executes src's top level once and freezes its globals; the
// frozen functions are then shared by every call.
func (e Engine) Compile(ctx context.Context, src scripting.Source, env *scripting.Env) (scripting.Program, error) {
	predeclared := predeclared(hookModuleWithout(env, e.without))
	programs := env.Programs
	if e.without != 0 {
		programs = nil // the cache's programs were compiled with every rewrite
	}
	prog, err := compileProgram(src, predeclared, programs, e.without)
	if err != nil {
		return nil, err
	}
	p := &program{name: src.Name, limits: env.Limits.Or(), logger: env.Log(), without: e.without}
	reg := &registry{}
	top := &callThread{limits: &p.limits, topLevel: true, call: &scripting.Call{Timeout: p.limits.InitTimeout}}
	thread := &top.thread
	thread.Print, thread.Load = p.print, newLoader(env.Modules, env.Testing).load
	thread.SetLocal(callKey, top)
	thread.SetLocal(registryKey, reg)
	thread.SetMaxExecutionSteps(p.limits.MaxSteps)
	globals, err := p.initialise(ctx, top, prog, predeclared)
	if err != nil {
		return nil, err
	}
	if err := freezeGlobals(globals); err != nil {
		return nil, &scripting.Error{File: src.Name, Msg: err.Error(), Err: err}
	}
	p.hooks = make([]scripting.Hook, len(reg.regs))
	for i, r := range reg.regs {
		sig := signatureOf(r.fn)
		p.hooks[i] = scripting.Hook{Event: r.event, Name: r.Name, Line: r.line, Priority: r.Priority,
			Timeout: r.Timeout, Enabled: r.Enabled, ErrorBehavior: r.ErrorBehavior, TimeoutBehavior: r.TimeoutBehavior,
			Params: sig.display(), Binds: sig.binding(),
			Func: &function{prog: p, fn: r.fn, sig: sig}}
	}
	if env.Testing {
		p.tests = p.findTests(globals)
	}
	return p, nil
}

// initialise runs the top level under Limits.InitTimeout and ctx. The
// top level is metered like a call: its builtins answer the same
// interrupt and charge the same budget.
func (p *program) initialise(ctx context.Context, top *callThread, prog *starlark.Program, predeclared starlark.StringDict) (globals starlark.StringDict, err error) {
	thread := &top.thread
	top.call.Arm(top)
	stop := context.AfterFunc(ctx, func() { thread.Cancel("cancelled"); top.call.Interrupt() })
	defer stop()
	timer := time.AfterFunc(p.limits.InitTimeout, top.call.Interrupt)
	defer timer.Stop()
	defer func() {
		if r := recover(); r != nil {
			err = &scripting.Error{File: p.name, Msg: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	globals, err = prog.Init(thread, predeclared)
	if err != nil {
		return nil, p.scriptError(err, "")
	}
	return globals, nil
}

// syntaxError reports the first syntax or resolve error as file:line.
// A bracket opened lines before the error and never closed is reported
// where it was opened, with where the parser stopped.
func syntaxError(name string, code []byte, err error) *scripting.Error {
	var se syntax.Error
	if errors.As(err, &se) {
		line, msg := int(se.Pos.Line), "syntax error: "+se.Msg
		if b, ok := unclosedBracket(code, line); ok {
			where := fmt.Sprintf("the parser stopped at line %d: %s", line, se.Msg)
			if strings.HasPrefix(se.Msg, "got end of file") {
				where = "the parser reached the end of the file"
			}
			msg = fmt.Sprintf("syntax error: %q opened here is never closed (%s)", string(b.char), where)
			line = b.line
		}
		return &scripting.Error{File: name, Line: line, Msg: msg, Err: err}
	}
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		return &scripting.Error{File: name, Line: int(rl[0].Pos.Line), Msg: rl[0].Msg, Err: err}
	}
	return &scripting.Error{File: name, Msg: err.Error(), Err: err}
}

// hookModule is the predeclared hook module: the shared decision
// constructors plus on.
func hookModule(env *scripting.Env) *starlarkstruct.Module { return hookModuleWithout(env, 0) }

// hookModuleWithout is hookModule with the speed rewrites of without
// left out (speed.go).
func hookModuleWithout(env *scripting.Env, without speedRewrite) *starlarkstruct.Module {
	hm := scripting.HookModuleFor(env)
	mod := bindModule(&hm)
	for _, a := range scripting.ReasonActions {
		if without.has(speedReasonDecisions) {
			break
		}
		if generic, ok := mod.Members[a.Name].(*starlark.Builtin); ok {
			mod.Members[a.Name] = starlark.NewBuiltin(generic.Name(), reasonBuiltin(a, generic))
		}
	}
	mod.Members["on"] = starlark.NewBuiltin("hook.on", on)
	return mod
}

// reasonBuiltin binds a constructor that takes only a reason straight to
// the decision it builds when it is called with one string (or, for
// hook.allow, nothing): the commonest return value of all, without the
// module call's conversions. Any other call goes to the module function,
// whose errors are the ones to give. The decision is charged to the call
// like the module call's argument and result.
func reasonBuiltin(a scripting.ReasonAction, generic *starlark.Builtin) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var d scripting.Decision
		switch reason, isString := oneString(args); {
		case len(kwargs) > 0:
			return generic.CallInternal(thread, args, kwargs)
		case isString:
			d = scripting.ReasonDecision(a.Name, reason)
		case len(args) == 0 && a.Optional:
			d = scripting.ActionDecision(a.Name)
		default:
			return generic.CallInternal(thread, args, kwargs)
		}
		ct := callThreadOf(thread)
		if ct == nil || ct.topLevel {
			d.Share()
			return &decision{d: d}, nil
		}
		m := meterFor(ct.call, ct.limits)
		if err := m.spend(decisionSize); err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		if err := m.flush(); err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		return ct.decisionValue(d), nil
	}
}

// oneString is the only argument, if there is one and it is a string.
func oneString(args starlark.Tuple) (string, bool) {
	if len(args) != 1 {
		return "", false
	}
	s, ok := args[0].(starlark.String)
	return string(s), ok
}

// on implements hook.on(event, fn, name=, priority=, timeout=, enabled=).
func on(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	reg, _ := thread.Local(registryKey).(*registry)
	if reg == nil {
		return nil, errors.New("hook.on: hooks can only be registered at the top level of a file")
	}
	var event string
	var fnv starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, nil, 2, &event, &fnv); err != nil {
		return nil, err
	}
	fn, ok := fnv.(*starlark.Function)
	if !ok {
		return nil, fmt.Errorf("hook.on: argument 2: want a function defined with def or lambda, got %s", fnv.Type())
	}
	opts := make(map[string]any, len(kwargs))
	m := meterOf(thread)
	for _, kv := range kwargs {
		v, err := toNeutral(kv[1], &m)
		if err != nil {
			return nil, fmt.Errorf("hook.on: option %s: %w", kv[0], err)
		}
		opts[string(kv[0].(starlark.String))] = v
	}
	ho, err := scripting.ParseHookOptions(opts, fn.Name())
	if err != nil {
		return nil, fmt.Errorf("hook.on: %w", err)
	}
	line := int(thread.CallFrame(1).Pos.Line)
	reg.regs = append(reg.regs, registration{HookOptions: ho, event: event, line: line, fn: fn})
	return starlark.None, nil
}

// A program is a file's frozen globals and its hooks.
type program struct {
	name    string
	limits  scripting.Limits
	logger  *slog.Logger
	hooks   []scripting.Hook
	tests   []scripting.Test // with Env.Testing: the file's test_* functions
	threads sync.Pool        // of *callThread
	without speedRewrite     // the speed rewrites left out (speed.go)
}

// Hooks are the hooks the file registered, in registration order.
func (p *program) Hooks() []scripting.Hook { return p.hooks }

// Close does nothing: a program holds only frozen values and pooled
// threads, which the collector frees.
func (p *program) Close() {}

// print sends print() output to the host's log, tagged with the hook id
// (the thread's name).
func (p *program) print(thread *starlark.Thread, msg string) {
	if len(msg) > messageMax {
		msg = msg[:messageMax] + "…"
	}
	p.logger.Info(msg, "source", "print", "file", p.name, "hook", thread.Name)
}
