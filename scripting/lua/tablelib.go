package lua

import (
	"math"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// unpack and the table library, replaced so that each is bounded before it
// starts (counts and sizes checked against the call's limits), checks the
// call's interrupt as it goes, charges what it builds, and refuses to
// change a frozen table (freeze.go).

// maxResults bounds how many values one builtin returns (unpack,
// string.byte). Lua 5.1 allows about 8,000; gopher-lua grows its stack
// 32 slots at a time, copying each time, so a million results took
// minutes.
const maxResults = 1 << 16

// interruptEvery is how many elements a builtin's loop handles between
// two looks at the call's interrupt.
const interruptEvery = 4096

// intArg reads an optional integer argument, truncated, within ±2^53 (a
// float too large for an int would otherwise wrap).
func intArg(L *lua.LState, n int, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	f := math.Trunc(float64(L.CheckNumber(n)))
	return int(max(-maxSafeInt, min(maxSafeInt, f)))
}

// pushResults makes room for n results at once, after checking n against
// maxResults and charging the slots.
func (st *state) pushResults(L *lua.LState, what string, n int) {
	if n > maxResults {
		L.RaiseError("%s: too many results (%d; at most %d)", what, n, maxResults)
	}
	st.charge(L, what, int64(n)*slotSize)
	if n > grownSlots {
		st.grown = true
	}
	top := L.GetTop()
	L.SetTop(top + n) // grows the stack once
	L.SetTop(top)
}

func (st *state) unpack(L *lua.LState) int {
	t := L.CheckTable(1)
	i := intArg(L, 2, 1)
	j := intArg(L, 3, t.Len())
	if i > j {
		return 0
	}
	n := j - i + 1
	st.pushResults(L, "unpack", n)
	for k := i; k <= j; k++ {
		L.Push(t.RawGetInt(k))
	}
	return n
}

func (st *state) tableConcat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i := intArg(L, 3, 1)
	j := intArg(L, 4, t.Len())
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	total := len(sep) * min(j-i, st.prog.limits.MaxStringSize)
	for k := i; k <= j; k++ {
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			total += len(v)
		case lua.LNumber:
			total += 24
		default:
			L.RaiseError("table.concat: invalid value (%s) at index %d in table for concat", v.Type(), k)
		}
		if total > st.prog.limits.MaxStringSize {
			break // checkString reports it
		}
		if (k-i)%interruptEvery == 0 {
			st.checkInterrupt(L, "table.concat")
		}
	}
	st.checkString(L, "table.concat", total)
	var b strings.Builder
	b.Grow(total)
	for k := i; k <= j; k++ {
		if k > i {
			b.WriteString(sep)
		}
		b.WriteString(lua.LVAsString(t.RawGetInt(k)))
	}
	L.Push(lua.LString(b.String()))
	return 1
}

func (st *state) tableInsert(L *lua.LState) int {
	t := L.CheckTable(1)
	st.checkWritable(L, t)
	n := t.Len()
	switch L.GetTop() {
	case 2:
		t.Append(L.Get(2))
	case 3:
		pos := intArg(L, 2, 0)
		if pos < 1 || pos > n+1 {
			L.RaiseError("table.insert: position %d out of bounds (want 1 to %d)", pos, n+1)
		}
		t.Insert(pos, L.Get(3))
	default:
		L.RaiseError("table.insert: wrong number of arguments (want table, [position,] value)")
	}
	return 0
}

func (st *state) tableRemove(L *lua.LState) int {
	t := L.CheckTable(1)
	st.checkWritable(L, t)
	n := t.Len()
	pos := intArg(L, 2, n)
	if pos < 1 || pos > n { // Lua 5.1 returns nothing
		return 0
	}
	L.Push(t.Remove(pos))
	return 1
}

func (st *state) tableSort(L *lua.LState) int {
	t := L.CheckTable(1)
	st.checkWritable(L, t)
	var less *lua.LFunction
	if L.Get(2) != lua.LNil {
		less = L.CheckFunction(2)
	}
	n := t.Len()
	st.charge(L, "table.sort", int64(n)*slotSize)
	s := &sorter{st: st, L: L, less: less, v: make([]lua.LValue, n)}
	for i := range s.v {
		s.v[i] = t.RawGetInt(i + 1)
	}
	sort.Sort(s)
	for i, v := range s.v {
		t.RawSetInt(i+1, v)
	}
	return 0
}

// A sorter sorts a copy of a table's list part with Lua's < or a Lua
// comparator, looking at the call's interrupt as it goes.
type sorter struct {
	st    *state
	L     *lua.LState
	less  *lua.LFunction
	v     []lua.LValue
	count int
}

// Len implements sort.Interface.
func (s *sorter) Len() int { return len(s.v) }

// Swap implements sort.Interface.
func (s *sorter) Swap(i, j int) { s.v[i], s.v[j] = s.v[j], s.v[i] }

// Less implements sort.Interface with Lua's < or the comparator, checking
// the call's interrupt every interruptEvery comparisons.
func (s *sorter) Less(i, j int) bool {
	if s.count++; s.count%interruptEvery == 0 {
		s.st.checkInterrupt(s.L, "table.sort")
	}
	if s.less == nil {
		return s.L.LessThan(s.v[i], s.v[j])
	}
	s.L.Push(s.less)
	s.L.Push(s.v[i])
	s.L.Push(s.v[j])
	s.L.Call(2, 1)
	r := lua.LVAsBool(s.L.Get(-1))
	s.L.Pop(1)
	return r
}

// tableMaxN is table.maxn; it walks the table, so it looks at the
// interrupt first. table.getn is gopher-lua's.
func (st *state) tableMaxN(L *lua.LState) int {
	t := L.CheckTable(1)
	st.checkInterrupt(L, "table.maxn")
	L.Push(lua.LNumber(t.MaxN()))
	return 1
}

// patchTable replaces unpack and the table functions that can run long
// or write.
func (st *state) patchTable(g *lua.LTable) {
	L := st.L
	g.RawSetString("unpack", L.NewFunction(st.unpack))
	tab := L.GetField(g, "table").(*lua.LTable)
	tab.RawSetString("concat", L.NewFunction(st.tableConcat))
	tab.RawSetString("insert", L.NewFunction(st.tableInsert))
	tab.RawSetString("remove", L.NewFunction(st.tableRemove))
	tab.RawSetString("sort", L.NewFunction(st.tableSort))
	tab.RawSetString("maxn", L.NewFunction(st.tableMaxN))
}
