package lua

import (
	lua "github.com/yuin/gopher-lua"
)

// The sandbox: base without the functions that reach files, load code or
// reach the collector, and with rawset, setmetatable and unpack guarded;
// string and table with the functions that could run long or build much
// replaced (strlib.go, format.go, patterns.go, tablelib.go); math; and
// from os only time, clock and date. No io, debug, package, coroutine or
// channel.

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
	openLibraries(L)
	g := L.G.Global
	g.RawSetString("print", L.NewFunction(st.print))
	g.RawSetString("require", L.NewFunction(st.require))
	g.RawSetString("rawset", L.NewFunction(st.rawsetGuarded))
	g.RawSetString("setmetatable", L.NewFunction(st.setmetatableGuarded))
	st.restrictOS(g)
	st.patchBase(g)
	st.patchString(g)
	st.patchTable(g)
	// math.randomseed would seed the generator every interpreter of the
	// process shares; math.random is seeded by the runtime already.
	L.GetField(g, "math").(*lua.LTable).RawSetString("randomseed", L.NewFunction(func(*lua.LState) int { return 0 }))
}

func (st *state) restrictOS(g *lua.LTable) {
	full := st.L.GetField(g, "os").(*lua.LTable)
	os := st.L.CreateTable(0, len(keptOS))
	for _, name := range keptOS {
		os.RawSetString(name, full.RawGetString(name))
	}
	os.RawSetString("date", st.L.NewFunction(st.boundedDate(full.RawGetString("date").(*lua.LFunction).GFunction)))
	g.RawSetString("os", os)
}

// boundedDate wraps os.date so that its result, up to 12 times as long as
// its format ("%c" is 24 bytes), is bounded and charged first.
func (st *state) boundedDate(date lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if s, ok := L.Get(1).(lua.LString); ok {
			st.checkString(L, "os.date", 12*len(s))
		}
		return date(L)
	}
}
