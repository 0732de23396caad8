package lua

import (
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// ipairs and type as gopher-lua's base library has them, without the
// allocations: its ipairs boxes the index twice per step and its type
// boxes the name it returns, and a guard's loops over shell.parse's
// results call both all the time. What a script sees is the same: the
// same values, the same errors (the checks are made in the same order),
// and ipairs returns the same step function every time.

// patchBase replaces ipairs and type in the globals g.
func (st *state) patchBase(g *lua.LTable) {
	L := st.L
	g.RawSetString("ipairs", L.NewClosure(ipairs, L.NewFunction(ipairsStep)))
	g.RawSetString("type", L.NewFunction(luaType))
	g.RawSetString("tonumber", L.NewFunction(toNumber))
}

// ipairs returns the step function (its upvalue), the table and 0.
func ipairs(L *lua.LState) int {
	t := L.CheckTable(1)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	L.Push(t)
	L.Push(intValue(0))
	return 3
}

// ipairsStep returns the next index and its value, or nothing at the
// first nil.
func ipairsStep(L *lua.LState) int {
	t := L.CheckTable(1)
	i := L.CheckInt(2) + 1
	v := t.RawGetInt(i)
	if v == lua.LNil {
		return 0
	}
	L.Pop(1)
	n := intValue(i)
	L.Push(n)
	L.Push(n)
	L.Push(v)
	return 2
}

// typeNames are the names type returns, boxed once, by lua.LValueType.
// Built on first use, never changed.
var typeNames = sync.OnceValue(func() []lua.LValue {
	var names []lua.LValue
	for t := lua.LTNil; t <= lua.LTChannel; t++ {
		names = append(names, lua.LString(t.String()))
	}
	return names
})

// luaType is type(v): the name of v's type.
func luaType(L *lua.LState) int {
	t := L.CheckAny(1).Type()
	if names := typeNames(); int(t) < len(names) {
		L.Push(names[t])
	} else {
		L.Push(lua.LString(t.String()))
	}
	return 1
}
