package lua

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/hookhost/hookhost/scripting"
)

// Engine compiles Lua hook files. The zero value is ready to use.
type Engine struct{}

var _ scripting.Engine = Engine{}

// Language is "lua".
func (Engine) Language() string { return "lua" }

// Extension is ".lua", the files the engine compiles.
func (Engine) Extension() string { return ".lua" }

// Compile parses and compiles src once, then runs its top level in a first
// interpreter to learn its registrations. That interpreter becomes the
// first member of the program's pool.
func (Engine) Compile(ctx context.Context, src scripting.Source, env *scripting.Env) (scripting.Program, error) {
	proto, err := compileProgram(src, env.Programs)
	if err != nil {
		return nil, err
	}
	limits := env.Limits.Or()
	if limits.MaxIdle == 0 {
		limits.MaxIdle = max(4, 2*runtime.GOMAXPROCS(0))
	}
	hm := scripting.HookModuleFor(env)
	p := &program{name: src.Name, proto: proto, limits: limits, logger: env.Log(),
		modules: modulesByName(env.Modules), hookModule: &hm, testing: env.Testing,
		pool: newStatePool(limits.MaxIdle)}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := p.newState()
	if err != nil {
		return nil, err
	}
	p.regs = st.regs
	p.hooks = make([]scripting.Hook, len(st.regs))
	for i, r := range st.regs {
		sig := signatureOf(r.fn.Proto)
		p.hooks[i] = scripting.Hook{Event: r.event, Name: r.Name, Line: r.line, Priority: r.Priority,
			Timeout: r.Timeout, Enabled: r.Enabled, ErrorBehavior: r.ErrorBehavior, TimeoutBehavior: r.TimeoutBehavior,
			Params: sig.display(), Binds: sig.binding(),
			Func: &function{prog: p, index: i, line: r.line, sig: sig}}
	}
	if env.Testing {
		p.tests = p.findTests(st)
	}
	p.release(st)
	return p, nil
}

// compile parses and compiles a file, reporting errors as file:line.
func compile(src scripting.Source) (*lua.FunctionProto, error) {
	chunk, err := parse.Parse(bytes.NewReader(src.Code), src.Name)
	if err != nil {
		var pe *parse.Error
		if errors.As(err, &pe) {
			line := pe.Pos.Line
			if line == parse.EOF { // gopher-lua has no line for "at end of file": use the last one
				line = bytes.Count(bytes.TrimRight(src.Code, "\n"), []byte("\n")) + 1
			}
			msg := syntaxMessage(pe)
			if o, ok := unclosedOpener(src.Code, line); ok && pe.Pos.Line == parse.EOF {
				msg = fmt.Sprintf("syntax error: %q opened here is never closed (the parser reached the end of the file)", o.word)
				line = o.line
			} else if ok {
				// Point at where the construct began, and keep where the
				// parser stopped: both lines help.
				msg = fmt.Sprintf("syntax error: %q opened here is never closed (the parser stopped at line %d: %s)",
					o.word, line, strings.TrimSuffix(strings.TrimPrefix(msg, "syntax error "), ": syntax error"))
				line = o.line
			}
			return nil, &scripting.Error{File: src.Name, Line: line, Msg: msg, Err: err}
		}
		return nil, &scripting.Error{File: src.Name, Msg: "syntax error: " + err.Error(), Err: err}
	}
	proto, err := lua.Compile(rewriteChunk(chunk), src.Name)
	if err != nil {
		var ce *lua.CompileError
		if errors.As(err, &ce) {
			return nil, &scripting.Error{File: src.Name, Line: ce.Line, Msg: "compile error: " + ce.Message, Err: err}
		}
		return nil, &scripting.Error{File: src.Name, Msg: "compile error: " + err.Error(), Err: err}
	}
	keepParameterNames(proto)
	return proto, nil
}

// keepParameterNames drops from p and its functions the names of every
// local but their parameters. Only the debug library (not in the
// sandbox) reads the others; the parameters' are each hook's signature
// (signatureOf). A program keeps about a sixth of them (the destructive
// pack: 155 of 856), and a command hook decodes that much less from the
// program cache.
func keepParameterNames(p *lua.FunctionProto) {
	if n := int(p.NumParameters); len(p.DbgLocals) > n {
		p.DbgLocals = slices.Clone(p.DbgLocals[:n])
	}
	for _, child := range p.FunctionPrototypes {
		keepParameterNames(child)
	}
}

func syntaxMessage(pe *parse.Error) string {
	msg := strings.TrimSpace(pe.Message)
	if pe.Pos.Line == parse.EOF {
		return fmt.Sprintf("syntax error at end of file: %s", msg)
	}
	if pe.Token != "" {
		// A long string token spans lines: quote only its first, the
		// line the error is on, not what follows in the file.
		token, rest, cut := strings.Cut(pe.Token, "\n")
		if cut {
			token += fmt.Sprintf("… (%d more bytes)", len(rest)+1)
		}
		return fmt.Sprintf("syntax error near %q: %s", token, msg)
	}
	return "syntax error: " + msg
}
