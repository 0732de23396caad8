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
	g.RawSetString("pcall", L.NewFunction(st.pcall))
	g.RawSetString("xpcall", L.NewFunction(st.xpcall))
}

// pcall and xpcall are Lua's, without a fault of gopher-lua's own
// (yuin/gopher-lua#448): an error raised inside a protected call closed
// the upvalues of every frame on the stack, those outside the call too,
// so that a closure and the function it was made in stopped sharing the
// locals it had captured. A guard that records an ask through such a
// closure (local ask; local function note(v) ask = v end) lost it after
// any pcall that failed earlier in the same call, and let the command
// through. gopher-lua closes only the frames an error unwinds when the
// protected call has an error function, so these give one (keepError,
// which returns the error as it is), and then close the upvalues of the
// frames the error did unwind, which gopher-lua then leaves open, by
// returning from an empty Lua function called where they stood
// (closeUnwound). TestProtectedCallKeepsUpvalues keeps it so.
func (st *state) pcall(L *lua.LState) int {
	L.CheckAny(1)
	fn := L.Get(1)
	if fn.Type() != lua.LTFunction && L.GetMetaField(fn, "__call").Type() != lua.LTFunction {
		L.Push(lua.LFalse)
		L.Push(lua.LString("attempt to call a " + fn.Type().String() + " value"))
		return 2
	}
	if err := L.PCall(L.GetTop()-1, lua.MultRet, st.errorKeeper()); err != nil {
		return st.protectedError(L, err)
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

func (st *state) xpcall(L *lua.LState) int {
	fn, handler := L.Get(1), L.CheckFunction(2)
	L.SetTop(0)
	L.Push(fn)
	if err := L.PCall(0, lua.MultRet, handler); err != nil {
		return st.protectedError(L, err)
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

// protectedError closes what the failed call left open and returns
// false and the error's value.
func (st *state) protectedError(L *lua.LState, err error) int {
	st.closeUnwound(L)
	L.Push(lua.LFalse)
	if aerr, ok := err.(*lua.ApiError); ok {
		L.Push(aerr.Object)
	} else {
		L.Push(lua.LString(err.Error()))
	}
	return 2
}

func (st *state) errorKeeper() *lua.LFunction {
	if st.keepError == nil {
		st.keepError = st.L.NewFunction(func(L *lua.LState) int { return 1 })
	}
	return st.keepError
}

// closeUnwound closes the upvalues of the frames a failed protected call
// unwound, which would otherwise go on pointing at stack slots later
// code reuses: gopher-lua left the stack's top where the called function
// stood, so an empty Lua function called there has its locals where
// theirs began, and its return closes every upvalue from there up.
// Entering it clears its two registers first (a chunk would write its
// arg table there: it is a function, not a chunk), so a closure made in
// the failed call and kept past it reads nil for what it captured from
// those two slots, and the value for the rest: never another call's.
func (st *state) closeUnwound(L *lua.LState) {
	if st.unwind == nil {
		chunk, err := L.LoadString("return function() end")
		if err != nil {
			panic("lua: an empty function did not compile: " + err.Error())
		}
		L.Push(chunk)
		L.Call(0, 1)
		st.unwind = L.Get(-1).(*lua.LFunction)
		L.Pop(1)
	}
	L.Push(st.unwind)
	L.Call(0, 0)
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
