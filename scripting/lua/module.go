package lua

import (
	"fmt"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// maxPrint bounds one print line in the log.
const maxPrint = 4 << 10

// print sends its arguments, tostring'ed and tab-separated as Lua's print
// does, to the host's log: stdout belongs to the host.
func (st *state) print(L *lua.LState) int {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			b.WriteByte('\t')
		}
		b.WriteString(L.ToStringMeta(L.Get(i)).String())
		if b.Len() > maxPrint {
			break
		}
	}
	msg := b.String()
	if len(msg) > maxPrint {
		msg = msg[:maxPrint] + "…"
	}
	st.prog.logger.Info(msg, "source", "print", "file", st.prog.name, "hook", st.hookID())
	return 0
}

func (st *state) hookID() string {
	if st.cur != nil {
		return st.cur.Hook
	}
	return ""
}

// require returns one of the host's modules; it resolves nothing else.
func (st *state) require(L *lua.LState) int {
	name := L.CheckString(1)
	if v, ok := st.loaded[name]; ok {
		L.Push(v)
		return 1
	}
	var t *lua.LTable
	if m, ok := st.prog.modules[name]; ok {
		t = st.bindModule(m)
	} else if name == "expect" && st.prog.testing {
		t = st.expectModule()
	} else {
		L.RaiseError("module %q is not available (available: %s)", name, st.prog.moduleNames())
	}
	if st.loaded == nil {
		st.loaded = make(map[string]lua.LValue)
	}
	st.freezeValue(t)
	st.loaded[name] = t
	L.Push(t)
	return 1
}

func (p *program) moduleNames() string {
	names := make([]string, 0, len(p.modules))
	for n := range p.modules {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// bindModule builds the Lua table of a module.
func (st *state) bindModule(m *stdlib.Module) *lua.LTable {
	L := st.L
	t := L.CreateTable(0, len(m.Funcs)+len(m.Consts))
	for i := range m.Funcs {
		f := &m.Funcs[i]
		t.RawSetString(f.Name, L.NewFunction(st.builtin(m.Name, f)))
	}
	for k, v := range m.Consts {
		lv, err := st.toLua(v, st.budget())
		if err != nil { // only inside a call (a require), where raising is safe
			L.RaiseError("%s: %v", m.Name, err)
		}
		t.RawSetString(k, lv)
	}
	return t
}

// builtin adapts a stdlib function to Lua: it converts the arguments to
// neutral values, runs the implementation (on a goroutine the deadline
// can abandon, if it may block), recovers its panics, and raises its
// error prefixed with "module.function: ".
func (st *state) builtin(module string, f *stdlib.Func) lua.LGFunction {
	prefix := module + "." + f.Name
	return func(L *lua.LState) int {
		c, err := st.builtinCall(L, f, prefix)
		if err != nil {
			L.RaiseError("%s: %v", prefix, err)
		}
		out, err := scripting.Invoke(st.cur, f, c)
		if err != nil {
			L.RaiseError("%s: %v", prefix, err)
		}
		if d, ok := out.(*scripting.Decision); ok {
			if st.loading { // the top level: a global may keep it for every call
				d.Share()
			}
			L.Push(st.decisionValue(d))
			return 1
		}
		b := st.budget()
		b.strings = true // a module's result is new memory
		lv, err := st.toLua(out, b)
		if err != nil {
			L.RaiseError("%s: %v", prefix, err)
		}
		L.Push(lv)
		return 1
	}
}

func (st *state) builtinCall(L *lua.LState, f *stdlib.Func, prefix string) (*stdlib.Call, error) {
	top := L.GetTop()
	np := len(f.Params)
	if top > np && !(f.Kwargs && top == np+1) {
		return nil, fmt.Errorf("too many arguments (want at most %d)", np)
	}
	c := scripting.NewModuleCall(f)
	for i := 0; i < np; i++ {
		v, err := st.moduleArg(L.Get(i+1), st.argHint(prefix, i))
		if err != nil {
			return nil, fmt.Errorf("argument %d (%s): %w", i+1, f.Params[i].Name, err)
		}
		if v == nil && !f.Params[i].Optional {
			return nil, fmt.Errorf("missing argument %d (%s)", i+1, f.Params[i].Name)
		}
		c.Args[i] = v
	}
	if f.Kwargs && top == np+1 && L.Get(top) != lua.LNil { // a nil table of named values is none
		kw, err := toNeutral(L.Get(top), nil, st.budget())
		if err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
		m, ok := kw.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("last argument: want a table of named values, got %s", stdlib.TypeName(kw))
		}
		c.Kwargs = m
	}
	return c, nil
}

// maxBoxedArg bounds the string argument a state keeps boxed.
const maxBoxedArg = 256

// moduleArg converts an argument of a module function. A short string
// is boxed once for as long as the state's calls pass the same one (a
// constant reason, a field name): the box holds an immutable string, so
// sharing it between calls shows nothing.
func (st *state) moduleArg(lv lua.LValue, hint any) (any, error) {
	s, ok := lv.(lua.LString)
	if !ok {
		return toNeutral(lv, hint, st.budget())
	}
	if st.argBox != nil && st.argString == string(s) {
		return st.argBox, nil
	}
	var v any = string(s)
	if len(s) <= maxBoxedArg {
		st.argString, st.argBox = string(s), v
	}
	return v, nil
}

// argHint gives hook.modify's fields, and the decision hook.stop wraps,
// the payload as their conversion hint (see convert.go).
func (st *state) argHint(prefix string, i int) any {
	if st.cur == nil || i != 0 {
		return nil
	}
	switch prefix {
	case "hook.modify":
		return st.cur.Payload
	case "hook.stop":
		return map[string]any{"fields": st.cur.Payload}
	}
	return nil
}
