package lua

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// Recycled arguments. Binding the payload is most of what a call
// allocates: every gopher-lua table with string keys builds Go maps, and
// every Go string or number put into a Lua value is boxed. So each pooled
// interpreter keeps what its last call of each hook was given — the
// argument values and every table in them — and the next call of that
// hook refills those tables in place: a value equal to the one already
// there is kept (no boxing), another one replaces it, and a table whose
// shape changed (other keys, another length, a table where a scalar was)
// makes the whole argument be built afresh.
//
// Why no call can see what an earlier one was given:
//
//   - Nothing a call creates outlives it except through the state module,
//     which copies (freeze.go): globals, the top level's tables and the
//     library tables refuse writes during a call, module-level locals are
//     reset after it, there are no coroutines, and what a hook returns, a
//     module function receives or the state module stores is converted to
//     neutral values before the call ends. So a recycled table is
//     reachable during a call only through the arguments the binder gave
//     that call.
//   - A refill replaces every value of every recycled table, and only
//     when the table still has exactly the keys (or length) the new value
//     has: no key of the earlier payload survives in it.
//   - Every write to a table during a call passes checkWritable (guard.go)
//     — rewritten assignments, rawset, setmetatable, table.insert, remove
//     and sort; the frozen tables rely on the same funnel — and a write to
//     a recycled table marks its argument dirty: the next call builds that
//     argument afresh. So a recycled table is refilled only if it is still
//     exactly what the binder made (no added key, no metatable, no value a
//     script put there).
//   - An interrupted interpreter, or one that hit a Go panic, is closed,
//     never reused.
//
// Refilling charges the call's memory budget exactly as a fresh
// conversion does, and checks what it is given as strictly (a hook's
// payload fields must be neutral values, see luaBuilder). A state keeps
// at most maxKept of arguments (counted as conversions are charged); a
// larger payload is converted afresh on every call.

// maxKept bounds what one interpreter keeps for reuse, in the units
// conversions are charged in (tableCost per table, entryCost per entry):
// about 45 entries, which a hook's fields rarely pass. A gopher-lua table
// costs ~150 bytes of heap per string key, so an interpreter keeps at
// most ~7 KiB this way (BenchmarkStateMemory: 39 KiB fresh, 40 KiB after
// serving the guardrail, 47 KiB having kept the most it keeps).
const maxKept = 1536

// maxKeptStrings bounds the bytes of payload strings an interpreter's
// kept arguments may hold on to between calls. The strings are the
// payload's own (shared, not copied), so a kept table would otherwise pin
// a large field — a file's content — for as long as the interpreter
// idles; an argument that passes the bound is dropped after its call.
const maxKeptStrings = 2 << 10

// A binder holds an interpreter's recycled arguments.
type binder struct {
	// hooks holds, by hook index, the recycled value of each argument.
	hooks [][]boundArg
	// shapes has every recycled table: what it was built as, and the
	// argument it belongs to.
	shapes map[*lua.LTable]tableShape
	// kept is the total cost of the recycled arguments, keptStrings the
	// bytes of their strings.
	kept, keptStrings int64
	// drop are the arguments to forget once the call is over
	// (maxKeptStrings).
	drop []*boundArg
}

// A boundArg is the value an argument was last bound to.
type boundArg struct {
	v      lua.LValue
	tables []*lua.LTable
	cost   int64
	// strBytes are the bytes of the strings in v.
	strBytes int64
	bound    bool // v is what the last call was given
	dirty    bool // a call wrote to one of tables: build afresh
}

// A tableShape is what a recycled table was built from: n entries of a
// list or a map (a map's nil values make no key).
type tableShape struct {
	arg  *boundArg
	n    int
	list bool
}

// A recording lists the tables a conversion builds (luaBuilder), up to
// maxKept.
type recording struct {
	tables []*lua.LTable
	shapes []tableShape
	cost   int64
	full   bool
}

func (r *recording) table(t *lua.LTable, n int, list bool) {
	if r.full {
		return
	}
	r.cost += tableCost + entryCost*int64(n)
	if r.cost > maxKept {
		r.full, r.tables, r.shapes = true, nil, nil
		return
	}
	r.tables = append(r.tables, t)
	r.shapes = append(r.shapes, tableShape{n: n, list: list})
}

// args is where the arguments of hook index are kept, n of them.
func (bd *binder) args(index, n int) []boundArg {
	if index >= len(bd.hooks) {
		bd.hooks = append(bd.hooks, make([][]boundArg, index+1-len(bd.hooks))...)
	}
	if bd.hooks[index] == nil {
		bd.hooks[index] = make([]boundArg, n)
	}
	return bd.hooks[index]
}

// written notes a write to t during a call.
func (bd *binder) written(t *lua.LTable) {
	if s, ok := bd.shapes[t]; ok {
		s.arg.dirty = true
	}
}

// bind converts v, found depth levels down the payload, for argument a,
// refilling what a holds when it can; strict as for luaBuilder.
func (st *state) bind(a *boundArg, v any, depth int, strict bool) (lua.LValue, error) {
	bd := &st.binder
	lb := st.builder(st.budget())
	lb.strict = strict
	if a.bound && !a.dirty {
		lv, _, ok, err := bd.refill(&lb, a.v, v, depth)
		if err != nil {
			return nil, err
		}
		if ok {
			a.v = lv
			bd.holdStrings(a, lb.strBytes)
			return lv, nil
		}
	}
	bd.forget(a)
	var rec recording
	lb.rec = &rec
	lb.strBytes = 0
	lv, err := lb.build(v, depth)
	if err != nil {
		return nil, err
	}
	if !rec.full && bd.kept+rec.cost <= maxKept {
		bd.keep(a, lv, &rec)
		bd.holdStrings(a, lb.strBytes)
	}
	return lv, nil
}

// holdStrings records that a's value holds n bytes of strings, and has
// it dropped after the call when the interpreter's kept arguments would
// hold more than maxKeptStrings.
func (bd *binder) holdStrings(a *boundArg, n int64) {
	bd.keptStrings += n - a.strBytes
	a.strBytes = n
	if bd.keptStrings > maxKeptStrings {
		bd.drop = append(bd.drop, a)
	}
}

// afterCall drops what a call's arguments may not keep.
func (bd *binder) afterCall() {
	for _, a := range bd.drop {
		bd.forget(a)
	}
	bd.drop = bd.drop[:0]
}

// keep records lv, built as rec says, as a's value.
func (bd *binder) keep(a *boundArg, lv lua.LValue, rec *recording) {
	if bd.shapes == nil && len(rec.tables) > 0 {
		bd.shapes = make(map[*lua.LTable]tableShape)
	}
	for i, t := range rec.tables {
		s := rec.shapes[i]
		s.arg = a
		bd.shapes[t] = s
	}
	*a = boundArg{v: lv, tables: rec.tables, cost: rec.cost, bound: true}
	bd.kept += rec.cost
}

// forget drops what a holds.
func (bd *binder) forget(a *boundArg) {
	for _, t := range a.tables {
		delete(bd.shapes, t)
	}
	bd.kept -= a.cost
	bd.keptStrings -= a.strBytes
	*a = boundArg{}
}

// refill turns old, the Lua value the binder built for an earlier value,
// into one for v, changing old's tables in place; same reports that the
// result is old itself. It reports !ok, and has then changed nothing
// that matters (the caller drops old), when v's shape is not old's.
func (bd *binder) refill(lb *luaBuilder, old lua.LValue, v any, depth int) (lv lua.LValue, same, ok bool, err error) {
	switch v := v.(type) {
	case []any:
		if lb.strict && depth >= stdlib.MaxDepth {
			return nil, false, false, scripting.ErrNotNeutral
		}
		t, s, ok := bd.shape(old)
		if !ok || !s.list || s.n != len(v) {
			return nil, false, false, nil
		}
		if err := lb.b.charge(tableCost + entryCost*int64(len(v))); err != nil {
			return nil, false, false, err
		}
		for i, e := range v {
			nc, same, ok, err := bd.refill(lb, t.RawGetInt(i+1), e, depth+1)
			if err != nil || !ok {
				return nil, false, ok, err
			}
			if !same {
				t.RawSetInt(i+1, nc)
			}
		}
		return t, true, true, nil
	case map[string]any:
		if lb.strict && depth >= stdlib.MaxDepth {
			return nil, false, false, scripting.ErrNotNeutral
		}
		t, s, ok := bd.shape(old)
		if !ok || s.list {
			return nil, false, false, nil
		}
		if err := lb.b.charge(tableCost + entryCost*int64(len(v))); err != nil {
			return nil, false, false, err
		}
		n := 0
		for k, e := range v {
			if e == nil {
				continue
			}
			n++
			oc := t.RawGetString(k)
			if oc == lua.LNil { // a key the table does not have
				return nil, false, false, nil
			}
			nc, same, ok, err := bd.refill(lb, oc, e, depth+1)
			if err != nil || !ok {
				return nil, false, ok, err
			}
			if !same {
				t.RawSetString(k, nc)
			}
		}
		if n != s.n { // the table has keys v does not
			return nil, false, false, nil
		}
		return t, true, true, nil
	default:
		if _, ok := old.(*lua.LTable); ok {
			return nil, false, false, nil
		}
		if sameScalar(old, v) { // only ever neutral values are kept
			if s, ok := v.(string); ok {
				lb.strBytes += int64(len(s))
			}
			return old, true, true, nil
		}
		lv, err := lb.scalar(v)
		return lv, false, err == nil, err
	}
}

// shape is the recycled table old is, with its shape.
func (bd *binder) shape(old lua.LValue) (*lua.LTable, tableShape, bool) {
	t, ok := old.(*lua.LTable)
	if !ok {
		return nil, tableShape{}, false
	}
	s, ok := bd.shapes[t]
	return t, s, ok
}

// sameScalar reports whether old is the Lua value of the scalar v.
func sameScalar(old lua.LValue, v any) bool {
	switch v := v.(type) {
	case string:
		o, ok := old.(lua.LString)
		return ok && string(o) == v
	case int64:
		o, ok := old.(lua.LNumber)
		return ok && math.Float64bits(float64(o)) == math.Float64bits(float64(v))
	case float64: // by bits: -0 is not 0 (1/x tells them apart)
		o, ok := old.(lua.LNumber)
		return ok && math.Float64bits(float64(o)) == math.Float64bits(v)
	case bool:
		return old == lua.LBool(v)
	case nil:
		return old == lua.LNil
	}
	return false
}
