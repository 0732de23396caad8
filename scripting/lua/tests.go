package lua

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

var _ scripting.TestProgram = (*program)(nil)

// Tests lists the file's test functions (Env.Testing only).
func (p *program) Tests() []scripting.Test { return p.tests }

// findTests lists the global Lua functions of st whose names start with
// test_, in the order of their definitions: Lua tables have no order, so
// the line where each function is defined gives it.
func (p *program) findTests(st *state) []scripting.Test {
	var out []scripting.Test
	st.L.G.Global.ForEach(func(k, v lua.LValue) {
		name, ok := k.(lua.LString)
		fn, isFn := v.(*lua.LFunction)
		if !ok || !isFn || fn.IsG || !strings.HasPrefix(string(name), scripting.TestPrefix) {
			return
		}
		line := fn.Proto.LineDefined
		out = append(out, scripting.Test{Name: string(name), Line: line,
			Func: &function{prog: p, line: line, sig: signatureOf(fn.Proto), test: string(name), proto: fn.Proto}})
	})
	scripting.SortTests(out)
	return out
}

// target is the Lua function a call runs in st: the hook's registration,
// or, for a test, the global function of the test's name, which must
// still be the one the file defined.
func (f *function) target(st *state) (*lua.LFunction, error) {
	if f.test == "" {
		return st.regs[f.index].fn, nil
	}
	fn, ok := st.L.GetGlobal(f.test).(*lua.LFunction)
	if !ok || fn.Proto != f.proto {
		return nil, &scripting.Error{File: f.prog.name, Line: f.line,
			Msg: fmt.Sprintf("%s is no longer the function defined on line %d (a test reassigned it)", f.test, f.line)}
	}
	return fn, nil
}
