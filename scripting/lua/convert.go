package lua

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// Conversion between neutral values and Lua values, in one place.
//
// Neutral → Lua builds tables of the script's own, so what a script
// receives is a copy (the payload's tables are recycled from one call of
// an interpreter to the next when nothing wrote to them, see binder.go).
// Lua → neutral refuses what has no neutral form (functions, userdata,
// NaN, cycles, nesting past stdlib.MaxDepth) with an error that names the
// path of the offending element.
//
// Both directions charge what they build to the call's memory budget
// (Limits.MaxCallMemory), table by table. Lua → neutral produces a tree:
// a table reachable along several paths is converted, and charged, once
// per path. So a value that shares sub-tables — {t, t} nested forty times
// has 2^40 paths — fails with the memory-limit error after at most the
// budget's worth of work, instead of being expanded leaf by leaf; and no
// neutral value that leaves the engine shares structure, so encoding it
// (json.encode, the host's replies) is linear in what was charged.
//
// Lua cannot tell an empty list from an empty map. An empty table becomes
// an empty map unless a hint — the neutral value at the same path of the
// payload the script was given — is a list: then it stays a list, so a
// copied-and-returned [] survives the round trip. The hint also keeps
// integers beyond ±2^53 exact: Lua holds them as the nearest double, and a
// number equal to the double of the payload's integer at the same path
// converts back to that integer.

// What converted values cost, for charging: a table or container, and each
// of its entries.
const (
	tableCost = 64
	entryCost = 32
)

// A budget charges conversions to a call; the zero budget (a file's top
// level outside any call) charges nothing.
type budget struct {
	call  *scripting.Call
	limit int64
	// strings also charges the bytes of strings (module results build
	// theirs; payload strings are shared, not copied).
	strings bool
}

func (st *state) budget() budget {
	return budget{call: st.cur, limit: st.prog.limits.MaxCallMemory}
}

func (b budget) charge(n int64) error {
	if b.call == nil {
		return nil
	}
	return b.call.Charge(n, b.limit)
}

// toLua converts a neutral value into a fresh Lua value.
func toLua(L *lua.LState, v any, b budget) (lua.LValue, error) {
	lb := luaBuilder{L: L, b: b}
	return lb.build(v, 0)
}

// toLua converts a neutral value into a fresh Lua value of st, with the
// keys st has boxed already.
func (st *state) toLua(v any, b budget) (lua.LValue, error) {
	lb := st.builder(b)
	return lb.build(v, 0)
}

// builder is a luaBuilder of st's.
func (st *state) builder(b budget) luaBuilder {
	if st.boxes == nil {
		st.boxes = keyBoxes{}
	}
	return luaBuilder{L: st.L, b: b, boxes: st.boxes}
}

// A luaBuilder converts neutral values into Lua values.
type luaBuilder struct {
	L *lua.LState
	b budget
	// rec, when not nil, is told of every table built (binder.go).
	rec *recording
	// strict refuses, with scripting.ErrNotNeutral, what stdlib.Check
	// would: another type, NaN or an infinity, a list or map nested
	// stdlib.MaxDepth levels deep counting the payload. Binding a hook's
	// fields is strict, so the host need not check them itself
	// (scripting.Hook.Binds).
	strict bool
	// strBytes counts the bytes of the strings converted (binder.go).
	strBytes int64
	// boxes, when not nil, are the state's boxed keys (tables.go).
	boxes keyBoxes
}

// build converts v, found depth levels down the payload.
func (lb *luaBuilder) build(v any, depth int) (lua.LValue, error) {
	switch v := v.(type) {
	case []any:
		if lb.strict && depth >= stdlib.MaxDepth {
			return nil, scripting.ErrNotNeutral
		}
		if err := lb.b.charge(tableCost + entryCost*int64(len(v))); err != nil {
			return nil, err
		}
		t := lb.L.CreateTable(len(v), 0)
		if lb.rec != nil {
			lb.rec.table(t, len(v), true)
		}
		for i, e := range v {
			lv, err := lb.build(e, depth+1)
			if err != nil {
				return nil, err
			}
			t.RawSetInt(i+1, lv)
		}
		return t, nil
	case map[string]any:
		if lb.strict && depth >= stdlib.MaxDepth {
			return nil, scripting.ErrNotNeutral
		}
		if err := lb.b.charge(tableCost + entryCost*int64(len(v))); err != nil {
			return nil, err
		}
		if stringTableFields != nil && len(v) > 0 {
			return lb.stringKeyed(v, depth)
		}
		t := lb.L.CreateTable(0, len(v))
		if lb.rec != nil {
			lb.rec.table(t, nonNil(v), false)
		}
		for k, e := range v {
			lv, err := lb.build(e, depth+1)
			if err != nil {
				return nil, err
			}
			t.RawSetString(k, lv)
		}
		return t, nil
	case stdlib.Record:
		// a module's result (shell.parse's commands): the table of the
		// map it stands for, its keys in their order
		if lb.strict {
			return nil, scripting.ErrNotNeutral // never a payload
		}
		if err := lb.b.charge(tableCost + entryCost*int64(len(v.Values))); err != nil {
			return nil, err
		}
		if stringTableFields == nil {
			t := lb.L.CreateTable(0, len(v.Values))
			for i, name := range v.Keys.Names() {
				lv, err := lb.build(v.Values[i], depth+1)
				if err != nil {
					return nil, err
				}
				t.RawSetString(name, lv)
			}
			return t, nil
		}
		t := lb.L.CreateTable(0, 0)
		st := newStringTable(len(v.Values))
		for i, name := range v.Keys.Names() {
			lv, err := lb.build(v.Values[i], depth+1)
			if err != nil {
				return nil, err
			}
			st.add(name, lv, lb.boxes)
		}
		st.into(t)
		return t, nil
	default:
		return lb.scalar(v)
	}
}

// stringKeyed builds the table of a map, already charged, in one go
// (tables.go): what RawSetString of each entry, in the map's order,
// would build.
func (lb *luaBuilder) stringKeyed(v map[string]any, depth int) (lua.LValue, error) {
	t := lb.L.CreateTable(0, 0)
	if lb.rec != nil {
		lb.rec.table(t, nonNil(v), false)
	}
	st := newStringTable(len(v))
	for k, e := range v {
		lv, err := lb.build(e, depth+1)
		if err != nil {
			return nil, err
		}
		st.add(k, lv, lb.boxes)
	}
	st.into(t)
	return t, nil
}

// scalar converts a value that is not a list or a map.
func (lb *luaBuilder) scalar(v any) (lua.LValue, error) {
	switch v := v.(type) {
	case nil:
		return lua.LNil, nil
	case bool:
		return lua.LBool(v), nil
	case int64:
		if uint64(v) < 256 {
			return intValue(int(v)), nil // no boxing
		}
		return lua.LNumber(v), nil
	case float64:
		if lb.strict && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return nil, scripting.ErrNotNeutral
		}
		return lua.LNumber(v), nil
	case string:
		if lb.b.strings {
			if err := lb.b.charge(int64(len(v))); err != nil {
				return nil, err
			}
		}
		lb.strBytes += int64(len(v))
		return lua.LString(v), nil
	default:
		if lb.strict {
			return nil, scripting.ErrNotNeutral
		}
		// Unreachable for checked payloads; a visible value beats a panic.
		return lua.LString(fmt.Sprintf("<%T>", v)), nil
	}
}

// nonNil counts the entries of m that are not nil: a nil value becomes no
// key at all.
func nonNil(m map[string]any) int {
	n := 0
	for _, v := range m {
		if v != nil {
			n++
		}
	}
	return n
}

// smallInts are the Lua numbers 0..255, boxed once: string positions
// and bytes are mostly small, and boxing a number allocates. Built on
// first use (not at init, which every command pays), never changed.
var smallInts = sync.OnceValue(func() *[256]lua.LValue {
	var a [256]lua.LValue
	for i := range a {
		a[i] = lua.LNumber(i)
	}
	return &a
})

// intValue is n as a Lua value, without allocating for 0..255.
func intValue(n int) lua.LValue {
	if uint(n) < 256 {
		return smallInts()[n]
	}
	return lua.LNumber(n)
}

// maxSafeInt is the largest integer a Lua number holds exactly.
const maxSafeInt = 1 << 53

// toNeutral converts a Lua value into a neutral value. hint is the neutral
// value at the same path of the payload, or nil.
func toNeutral(lv lua.LValue, hint any, b budget) (any, error) {
	c := converter{budget: b, maxDepth: stdlib.MaxDepth}
	return c.value(lv, hint, "")
}

// returnToNeutral converts a hook's return value, which may nest one
// level deeper than a payload (scripting.ReturnDepth). A decision is
// returned as the *scripting.Decision itself (see
// scripting.Decision.Return).
func returnToNeutral(lv lua.LValue, hint any, b budget) (any, error) {
	if d, ok := decisionOf(lv); ok {
		out, err := d.Return(b.charge)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	c := converter{budget: b, maxDepth: scripting.ReturnDepth}
	return c.value(lv, hint, "")
}

type converter struct {
	budget   budget
	depth    int
	maxDepth int
	onPath   map[*lua.LTable]bool
}

func (c *converter) value(lv lua.LValue, hint any, path string) (any, error) {
	switch v := lv.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(v), nil
	case lua.LNumber:
		return number(float64(v), hint, path)
	case lua.LString:
		return string(v), nil
	case *lua.LTable:
		return c.table(v, hint, path)
	case *lua.LUserData:
		return c.decision(v, path)
	default:
		return nil, fmt.Errorf("%s: a %s cannot be converted (want nil, boolean, number, string or table)", stdlib.PathName(path), lv.Type())
	}
}

// decision converts a decision found inside another value (or passed to a
// builtin) into a copy of its map, charged to the call, so that what the
// conversion returns never shares structure.
func (c *converter) decision(ud *lua.LUserData, path string) (any, error) {
	d, ok := ud.Value.(*scripting.Decision)
	if !ok {
		return nil, fmt.Errorf("%s: a %s cannot be converted (want nil, boolean, number, string or table)", stdlib.PathName(path), ud.Type())
	}
	if c.depth+d.Depth() > c.maxDepth {
		return nil, fmt.Errorf("%s: %w", stdlib.PathName(path), stdlib.ErrTooDeep)
	}
	m, err := d.Copy(c.budget.charge)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stdlib.PathName(path), err)
	}
	return m, nil
}

func number(f float64, hint any, path string) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%s: %v cannot be converted", stdlib.PathName(path), f)
	}
	if h, ok := hint.(int64); ok && float64(h) == f {
		return h, nil // the payload's integer, untouched: keep it exact
	}
	if f == math.Trunc(f) && math.Abs(f) <= maxSafeInt {
		return int64(f), nil
	}
	return f, nil
}

func (c *converter) table(t *lua.LTable, hint any, path string) (any, error) {
	if c.depth >= c.maxDepth {
		return nil, fmt.Errorf("%s: %w", stdlib.PathName(path), stdlib.ErrTooDeep)
	}
	if c.onPath[t] {
		return nil, fmt.Errorf("%s: the table contains itself (a cycle cannot be converted)", stdlib.PathName(path))
	}
	if c.onPath == nil {
		c.onPath = make(map[*lua.LTable]bool)
	}
	c.onPath[t] = true
	c.depth++
	defer func() { c.depth--; delete(c.onPath, t) }()

	n, isList := shape(t)
	if err := c.budget.charge(tableCost + entryCost*int64(n)); err != nil {
		return nil, fmt.Errorf("%s: %w", stdlib.PathName(path), err)
	}
	switch {
	case n == 0:
		if _, ok := hint.([]any); ok {
			return []any{}, nil
		}
		return map[string]any{}, nil
	case isList:
		return c.list(t, n, hint, path)
	default:
		return c.dict(t, n, hint, path)
	}
}

// shape counts t's keys and reports whether they are exactly 1..n.
func shape(t *lua.LTable) (n int, isList bool) {
	isList = true
	max := 0
	t.ForEach(func(k, _ lua.LValue) {
		n++
		if !isList {
			return
		}
		num, ok := k.(lua.LNumber)
		if !ok || float64(num) != math.Trunc(float64(num)) || num < 1 {
			isList = false
			return
		}
		if int(num) > max {
			max = int(num)
		}
	})
	return n, isList && max == n
}

func (c *converter) list(t *lua.LTable, n int, hint any, path string) (any, error) {
	hl, _ := hint.([]any)
	out := make([]any, n)
	for i := 0; i < n; i++ {
		var h any
		if i < len(hl) {
			h = hl[i]
		}
		v, err := c.value(t.RawGetInt(i+1), h, path+"["+strconv.Itoa(i+1)+"]")
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (c *converter) dict(t *lua.LTable, n int, hint any, path string) (any, error) {
	hm, _ := hint.(map[string]any)
	out := make(map[string]any, n)
	var err error
	t.ForEach(func(k, v lua.LValue) {
		if err != nil {
			return
		}
		var key string
		switch k := k.(type) {
		case lua.LString:
			key = string(k)
		case lua.LNumber:
			key = k.String()
		default:
			err = fmt.Errorf("%s: a table key of type %s cannot be converted (want string keys, or 1..n for a list)", stdlib.PathName(path), k.Type())
			return
		}
		var cv any
		cv, err = c.value(v, hm[key], stdlib.PathKey(path, key))
		out[key] = cv
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
