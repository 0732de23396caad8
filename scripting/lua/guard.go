package lua

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// The helpers the rewrite routes concatenation and writes through (see
// rewrite.go), the guarded versions of rawset and setmetatable, and the
// memory budget as builtins see it.

// arrayGapFree is how far past a table's end an integer key may land
// without being charged: gopher-lua fills every slot in between, so
// t[6e7] = 1 allocates a gigabyte in one instruction.
const arrayGapFree = 1024

// slotSize is what one Lua value slot costs, for charging.
const slotSize = 16

// helpers returns the helper functions in the order of helperNames.
func (st *state) helpers() []lua.LValue {
	L := st.L
	return []lua.LValue{L.NewFunction(st.concat), L.NewFunction(st.set), L.NewFunction(st.setGlobal), L.NewFunction(st.key),
		L.NewFunction(none)}
}

// none returns nothing: the main chunk's ... (see rewrite.go).
func none(*lua.LState) int { return 0 }

// charge counts n bytes against the running call's memory budget and
// raises an error naming what when the budget is spent.
func (st *state) charge(L *lua.LState, what string, n int64) {
	if st.cur == nil || n <= 0 {
		return
	}
	if err := st.cur.Charge(n, st.prog.limits.MaxCallMemory); err != nil {
		L.RaiseError("%s: %v", what, err)
	}
}

// checkString refuses a string result of n bytes past Limits.MaxStringSize
// and charges it.
func (st *state) checkString(L *lua.LState, what string, n int) {
	if max := st.prog.limits.MaxStringSize; n > max {
		L.RaiseError("%s: the result would be %d bytes, more than the limit of %s", what, n, scripting.FormatBytes(int64(max)))
	}
	st.charge(L, what, int64(n))
}

// interrupted raises when the running call was interrupted: loops in Go
// builtins call it as they go, so they stop soon after the deadline.
func (st *state) checkInterrupt(L *lua.LState, what string) {
	if st.cur != nil && st.cur.Interrupted() {
		L.RaiseError("%s: %v", what, scripting.ErrInterrupted)
	}
}

// concat implements a .. b .. c: Lua's concatenation (numbers become
// strings, __concat metamethods apply right to left), with the result
// bounded and charged before it is built.
func (st *state) concat(L *lua.LState) int {
	n := L.GetTop()
	var small [8]string
	parts := small[:0]
	total := 0
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			parts = append(parts, string(v))
		case lua.LNumber:
			parts = append(parts, v.String())
		default:
			L.Push(st.concatMeta(L, n))
			return 1
		}
		total += len(parts[len(parts)-1])
	}
	st.checkString(L, "string concatenation", total)
	var b strings.Builder
	b.Grow(total)
	for _, p := range parts {
		b.WriteString(p)
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// concatMeta is concatenation with an operand that is not a string or a
// number: pairwise from the right, through __concat where needed.
func (st *state) concatMeta(L *lua.LState, n int) lua.LValue {
	rhs := L.Get(n)
	for i := n - 1; i >= 1; i-- {
		lhs := L.Get(i)
		if lua.LVCanConvToString(lhs) && lua.LVCanConvToString(rhs) {
			l, r := lua.LVAsString(lhs), lua.LVAsString(rhs)
			st.checkString(L, "string concatenation", len(l)+len(r))
			rhs = lua.LString(l + r)
			continue
		}
		mm := L.GetMetaField(lhs, "__concat")
		if mm == lua.LNil {
			mm = L.GetMetaField(rhs, "__concat")
		}
		fn, ok := mm.(*lua.LFunction)
		if !ok {
			L.RaiseError("cannot perform concat operation between %s and %s", lhs.Type(), rhs.Type())
		}
		L.Push(fn)
		L.Push(lhs)
		L.Push(rhs)
		L.Call(2, 1)
		rhs = L.Get(-1)
		L.Pop(1)
	}
	return rhs
}

// set implements obj[key] = value in a function body: Lua's assignment
// (__newindex applies), refused on a frozen table.
func (st *state) set(L *lua.LState) int {
	obj, key, value := L.Get(1), L.Get(2), L.Get(3)
	if t, ok := obj.(*lua.LTable); ok && t.Metatable == lua.LNil { // the common case: no __newindex to follow
		st.checkWritable(L, t)
		st.rawSet(L, t, key, value)
		return 0
	}
	st.setIndex(L, obj, key, value)
	return 0
}

// maxNewindexChain bounds __newindex chains, as gopher-lua does.
const maxNewindexChain = 100

func (st *state) setIndex(L *lua.LState, obj, key, value lua.LValue) {
	for range maxNewindexChain {
		t, isTable := obj.(*lua.LTable)
		if isTable {
			st.checkWritable(L, t)
			if t.RawGet(key) != lua.LNil {
				L.RawSet(t, key, value)
				return
			}
		}
		mm := L.GetMetaField(obj, "__newindex")
		if mm == lua.LNil {
			if !isTable {
				L.RaiseError("attempt to index a non-table object(%s) with key '%s'", obj.Type(), key.String())
			}
			st.rawSet(L, t, key, value)
			return
		}
		if fn, ok := mm.(*lua.LFunction); ok {
			L.Push(fn)
			L.Push(obj)
			L.Push(key)
			L.Push(value)
			L.Call(3, 0)
			return
		}
		obj = mm
	}
	L.RaiseError("too many recursions in settable")
}

// rawSet is L.RawSet that charges an integer key far past the table's end
// for the slots gopher-lua will fill up to it.
func (st *state) rawSet(L *lua.LState, t *lua.LTable, key, value lua.LValue) {
	switch k := key.(type) {
	case lua.LNumber:
		if value != lua.LNil {
			st.chargeIndex(L, t, float64(k))
		}
	case lua.LString:
		if value != lua.LNil {
			startStringKeys(t) // tables.go
		}
	}
	L.RawSet(t, key, value)
}

func (st *state) chargeIndex(L *lua.LState, t *lua.LTable, n float64) {
	if n < arrayGapFree || n >= float64(lua.MaxArrayIndex) || n != math.Trunc(n) {
		return
	}
	length := 0
	if t != nil {
		length = t.Len()
	}
	if gap := int64(n) - int64(length); gap > arrayGapFree {
		st.charge(L, "table index", gap*slotSize)
	}
}

// key implements a computed constructor key: it charges a large integer
// key (the constructor's table starts empty) and returns it.
func (st *state) key(L *lua.LState) int {
	k := L.Get(1)
	if n, ok := k.(lua.LNumber); ok {
		st.chargeIndex(L, nil, float64(n))
	}
	L.Push(k)
	return 1
}

// setGlobal implements an assignment to a global in a function body:
// allowed while the top level runs, refused in a hook call.
func (st *state) setGlobal(L *lua.LState) int {
	name := L.CheckString(1)
	if !st.loading {
		L.RaiseError("cannot set global %q during a hook call: globals are read-only once the file's top level has run "+
			"(declare it local, or keep state in the state module)", name)
	}
	st.setIndex(L, L.G.Global, lua.LString(name), L.Get(2))
	return 0
}

// checkWritable refuses to change a frozen table. Every write to a table
// during a call passes here, so it also tells the binder which recycled
// tables a call changed (binder.go).
func (st *state) checkWritable(L *lua.LState, t *lua.LTable) {
	if st.isFrozen(t) {
		L.RaiseError("cannot change a table of the file's top level during a hook call: the globals, the libraries and " +
			"every table reachable from them or from module-level locals are read-only once the top level has run " +
			"(copy what you need into a local table, or keep state in the state module)")
	}
	st.binder.written(t)
}

// rawsetGuarded is rawset, refused on a frozen table.
func (st *state) rawsetGuarded(L *lua.LState) int {
	t := L.CheckTable(1)
	st.checkWritable(L, t)
	st.rawSet(L, t, L.CheckAny(2), L.CheckAny(3))
	L.SetTop(1)
	return 1
}

// setmetatableGuarded is Lua 5.1's setmetatable: tables only (gopher-lua
// would set the metatable shared by every number, boolean or function),
// refused on a frozen table and on a protected metatable.
func (st *state) setmetatableGuarded(L *lua.LState) int {
	t := L.CheckTable(1)
	L.CheckTypes(2, lua.LTNil, lua.LTTable)
	st.checkWritable(L, t)
	if mt, ok := t.Metatable.(*lua.LTable); ok && mt.RawGetString("__metatable") != lua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	t.Metatable = L.Get(2)
	L.SetTop(1)
	return 1
}
