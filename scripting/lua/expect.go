package lua

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// expectModule is the expect module of script tests: the shared
// assertions plus fails, which calls a Lua function.
func (st *state) expectModule() *lua.LTable {
	m := scripting.ExpectModule()
	t := st.bindModule(&m)
	t.RawSetString("fails", st.L.NewFunction(expectFails))
	return t
}

// expectFails implements expect.fails(fn, text): fn must raise an error
// whose message contains text.
func expectFails(L *lua.LState) int {
	fn := L.CheckFunction(1)
	text := L.OptString(2, "")
	L.Push(fn)
	err := pcall(L, 0, 0)
	msg := ""
	if err != nil {
		msg = err.Error()
		if ae, ok := err.(*lua.ApiError); ok {
			msg = ae.Object.String()
		}
	}
	if e := scripting.FailsMessage(err, msg, text); e != nil {
		L.RaiseError("expect.fails: %v", e)
	}
	return 0
}
