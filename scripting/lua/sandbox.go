package lua

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The sandbox: base without the functions that reach files,
// load code or reach the collector, string with a capped rep and
// pattern functions that a deadline can abandon, table, math, and from os
// only time, clock and date. No io, debug, package, coroutine or channel.

// removedBase are base functions scripts must not have.
var removedBase = []string{
	"dofile", "loadfile", "load", "loadstring", "require", "module",
	"collectgarbage", "getfenv", "setfenv", "newproxy", "_printregs",
	"_GOPHER_LUA_VERSION",
}

// keptOS are the os functions scripts may use.
var keptOS = []string{"time", "clock", "date"}

func (st *state) openSandbox() {
	L := st.L
	for _, open := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.OsLibName, lua.OpenOs},
	} {
		L.Push(L.NewFunction(open.fn))
		L.Push(lua.LString(open.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	for _, name := range removedBase {
		g.RawSetString(name, lua.LNil)
	}
	g.RawSetString("print", L.NewFunction(st.print))
	g.RawSetString("require", L.NewFunction(st.require))
	st.restrictOS(g)
	st.patchString(g)
}

func (st *state) restrictOS(g *lua.LTable) {
	full := st.L.GetField(g, "os").(*lua.LTable)
	os := st.L.CreateTable(0, len(keptOS))
	for _, name := range keptOS {
		os.RawSetString(name, full.RawGetString(name))
	}
	g.RawSetString("os", os)
}

// patchString replaces rep and the pattern functions, and gives strings a
// protected metatable whose __index is the patched table, so
// ("x"):rep(n) is capped too and getmetatable("") reveals nothing.
func (st *state) patchString(g *lua.LTable) {
	L := st.L
	str := L.GetField(g, "string").(*lua.LTable)
	str.RawSetString("rep", L.NewFunction(st.rep))
	str.RawSetString("find", L.NewFunction(st.strFind))
	str.RawSetString("match", L.NewFunction(st.strMatch))
	str.RawSetString("gsub", L.NewFunction(st.strGsub))
	gmatch := L.NewClosure(st.strGmatch, L.NewFunction(strGmatchIter))
	str.RawSetString("gmatch", gmatch)
	str.RawSetString("gfind", gmatch)
	str.RawSetString("dump", lua.LNil)
	str.RawSetString("__index", lua.LNil)
	mt := L.CreateTable(0, 2)
	mt.RawSetString("__index", str)
	mt.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(lua.LString(""), mt)
}

// rep is string.rep with the result capped at Limits.MaxStringSize.
func (st *state) rep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || len(s) == 0 {
		L.Push(lua.LString(""))
		return 1
	}
	if max := st.prog.limits.MaxStringSize; n > max/len(s) {
		L.RaiseError("string.rep: result would exceed %d bytes", max)
	}
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}
