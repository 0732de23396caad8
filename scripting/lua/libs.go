package lua

import (
	"math"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// Opening gopher-lua's libraries through their Open functions builds
// every table key by key, records each library in a registry table the
// sandbox then drops, and makes functions the sandbox removes at once:
// about 400 allocations per interpreter, a quarter of what making one
// of the shipped packs' interpreters allocates. So the libraries are
// opened once per process, in a scratch interpreter, and read into a
// list of what each table holds (libraryTables): the Go functions, the
// numbers and strings, the table itself. Each interpreter then builds
// its own tables and its own function values from that list, each
// table sized once and the functions allocated together; nothing of the
// scratch interpreter is shared but Go functions and immutable Lua
// numbers and strings. A test checks that an interpreter opened this
// way has, table for table and key for key, what the Open functions
// give it.

// A libraryTable is what one library's table holds once opened, less
// what the sandbox removes.
type libraryTable struct {
	name    string // its global name; "" for the globals
	entries []libraryEntry
}

// A libraryEntry is one key of a library table: a Go function (a
// closure over the Go functions upvalues), the table itself, or value.
type libraryEntry struct {
	name     string
	key      lua.LValue // name, boxed
	fn       lua.LGFunction
	upvalues []lua.LGFunction
	self     bool
	value    lua.LValue
}

// gopherLibraries are the libraries the sandbox opens, by global name.
var gopherLibraries = []struct {
	name string
	open lua.LGFunction
}{
	{lua.BaseLibName, lua.OpenBase},
	{lua.TabLibName, lua.OpenTable},
	{lua.StringLibName, lua.OpenString},
	{lua.MathLibName, lua.OpenMath},
	{lua.OsLibName, lua.OpenOs},
}

// openGopherLibraries opens the libraries in L as their Open functions
// do, and removes from the globals what scripts must not have.
func openGopherLibraries(L *lua.LState) {
	for _, open := range gopherLibraries {
		L.Push(L.NewFunction(open.open))
		L.Push(lua.LString(open.name))
		L.Call(1, 0)
	}
	// Opening a library also records it in the registry's _LOADED table,
	// which only gopher-lua's require (removed) reads: dropping it lets
	// the full os table go.
	L.G.Registry.RawSetString("_LOADED", lua.LNil)
	for _, name := range removedBase {
		L.G.Global.RawSetString(name, lua.LNil)
	}
	// Lua's math.huge is HUGE_VAL, the infinity; gopher-lua's is the
	// largest finite number, so 1e400 == math.huge was false
	if m, ok := L.G.Global.RawGetString(lua.MathLibName).(*lua.LTable); ok {
		m.RawSetString("huge", lua.LNumber(math.Inf(1)))
	}
}

// libraryTables reads the opened libraries of a scratch interpreter;
// ok is false if they hold something it cannot copy (then each
// interpreter opens them itself). Computed once, never changed.
var libraryTables = sync.OnceValues(func() ([]libraryTable, bool) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	openGopherLibraries(L)
	g := L.G.Global
	var libs []libraryTable
	for _, open := range gopherLibraries {
		t := g
		if open.name != lua.BaseLibName {
			t, _ = g.RawGetString(open.name).(*lua.LTable)
		}
		lib, ok := readLibrary(t, g)
		if !ok {
			return nil, false
		}
		if open.name != lua.BaseLibName {
			lib.name = open.name
		}
		libs = append(libs, lib)
	}
	return libs, true
})

// readLibrary lists what t holds; tables other than t itself are other
// libraries, found in the globals g.
func readLibrary(t, g *lua.LTable) (libraryTable, bool) {
	var lib libraryTable
	if t == nil {
		return lib, false
	}
	ok := true
	t.ForEach(func(k, v lua.LValue) {
		name, isString := k.(lua.LString)
		e := libraryEntry{name: string(name), key: k}
		switch v := v.(type) {
		case *lua.LFunction:
			e.fn, ok = v.GFunction, ok && v.IsG && v.Env == g
			for _, u := range v.Upvalues {
				f, isG := u.Value().(*lua.LFunction)
				ok = ok && isG && f.IsG && len(f.Upvalues) == 0
				if isG {
					e.upvalues = append(e.upvalues, f.GFunction)
				}
			}
		case *lua.LTable:
			e.self = v == t
			if !e.self && g.RawGetString(string(name)) != v {
				ok = false // a table that is not a library
			}
			if !e.self {
				return // another library: built in its own right
			}
		case lua.LString, lua.LNumber:
			e.value = v
		default:
			ok = false
		}
		ok = ok && isString
		lib.entries = append(lib.entries, e)
	})
	return lib, ok
}

// openLibraries gives L's globals the libraries (see the top of this
// file).
func openLibraries(L *lua.LState) {
	libs, ok := libraryTables()
	if !ok || stringTableFields == nil {
		openGopherLibraries(L)
		return
	}
	n := 0
	for _, lib := range libs {
		for _, e := range lib.entries {
			if e.fn != nil && len(e.upvalues) == 0 {
				n++
			}
		}
	}
	fns := make([]lua.LFunction, n)
	tables := make([]*lua.LTable, len(libs))
	for i, lib := range libs {
		tables[i] = L.G.Global
		if lib.name != "" {
			tables[i] = L.CreateTable(0, 0)
		}
		fns = fillLibrary(L, tables[i], lib, fns)
	}
	for i, lib := range libs {
		if lib.name != "" {
			L.G.Global.RawSetString(lib.name, tables[i])
		}
	}
}

// fillLibrary sets t, a table with no keys yet, to what lib holds,
// taking the functions' values from fns, and returns what is left of
// fns.
func fillLibrary(L *lua.LState, t *lua.LTable, lib libraryTable, fns []lua.LFunction) []lua.LFunction {
	s := newStringTable(len(lib.entries) + 4) // room for the other libraries
	for _, e := range lib.entries {
		var v lua.LValue
		switch {
		case e.self:
			v = t
		case e.fn != nil && len(e.upvalues) > 0:
			ups := make([]lua.LValue, len(e.upvalues))
			for i, u := range e.upvalues {
				ups[i] = L.NewFunction(u)
			}
			v = L.NewClosure(e.fn, ups...)
		case e.fn != nil:
			fns[0] = lua.LFunction{IsG: true, Env: L.Env, GFunction: e.fn, Upvalues: []*lua.Upvalue{}}
			v, fns = &fns[0], fns[1:]
		default:
			v = e.value
		}
		s.addBoxed(e.name, e.key, v)
	}
	s.into(t)
	return fns
}
