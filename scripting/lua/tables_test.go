package lua

import (
	"reflect"
	"strconv"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// A table built in one go (tables.go) is, field for field, the table
// RawSetString builds from the same entries in the same order: next,
// pairs, # and rawget cannot tell them apart. Checked on every table of
// converted values, shell.parse's results among them.
func TestStringTableIsRawSetString(t *testing.T) {
	if stringTableFields == nil {
		t.Fatal("gopher-lua's LTable has no strdict, keys and k2i fields of the expected types: update tables.go for this gopher-lua")
	}
	values := append(shellValues(t),
		map[string]any{"a": "x", "b": int64(1), "c": nil, "d": []any{"p", nil, "q"}, "e": map[string]any{}},
		map[string]any{"only": nil},
		map[string]any{"n": 1.5, "big": int64(1) << 40, "neg": int64(-3), "t": true, "f": false,
			"deep": map[string]any{"deeper": map[string]any{"k": "v"}}},
	)
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for _, v := range values {
		lv, err := toLua(L, v, budget{})
		if err != nil {
			t.Fatal(err)
		}
		checkLikeRawSet(t, L, lv, scripting.Show(v))
	}
}

// checkLikeRawSet checks every table reachable from lv against one built
// with RawSetString in the order next walks it.
func checkLikeRawSet(t *testing.T, L *lua.LState, lv lua.LValue, what string) {
	t.Helper()
	tb, ok := lv.(*lua.LTable)
	if !ok {
		return
	}
	again := L.CreateTable(0, 0)
	for i := 1; i <= tb.MaxN(); i++ {
		again.RawSetInt(i, tb.RawGetInt(i))
	}
	hashed := 0
	for k, v := tb.Next(lua.LNil); k != lua.LNil; k, v = tb.Next(k) {
		checkLikeRawSet(t, L, v, what)
		if s, ok := k.(lua.LString); ok {
			again.RawSetString(string(s), v)
			hashed++
		}
	}
	if hashed == 0 {
		return // a list or an empty table: not built here
	}
	if !reflect.DeepEqual(tb, again) {
		t.Errorf("%s: a table built in one go differs from the one RawSetString builds", what)
	}
}

// A state boxes each short key once and keeps at most maxKeyBoxes of
// them; a long key, or one past the bound, is boxed afresh each time.
func TestKeyBoxesBounded(t *testing.T) {
	kb := keyBoxes{}
	first := kb.box("argv")
	if again := kb.box("argv"); again != first || again != lua.LValue(lua.LString("argv")) {
		t.Fatalf("boxing argv twice gave %v and %v", first, again)
	}
	long := string(make([]byte, maxBoxedKey+1))
	if kb.box(long) != lua.LValue(lua.LString(long)) || len(kb) != 1 {
		t.Fatalf("a %d-byte key was kept", len(long))
	}
	for i := range 2 * maxKeyBoxes {
		key := "k" + strconv.Itoa(i)
		if kb.box(key) != lua.LValue(lua.LString(key)) {
			t.Fatalf("box(%q) is another string", key)
		}
	}
	if len(kb) != maxKeyBoxes {
		t.Fatalf("%d keys kept, want the bound %d", len(kb), maxKeyBoxes)
	}
}

// Freezing reaches, through the array part and the boxed keys
// (hashKeys), every table ForEach reaches: values and keys alike, past
// holes, removed keys and keys that are not strings.
func TestFreezeReachesWhatForEachDoes(t *testing.T) {
	if _, ok := hashKeys(&lua.LTable{}); !ok {
		t.Fatal("hashKeys does not read gopher-lua's LTable: update tables.go for this gopher-lua")
	}
	L := lua.NewState()
	defer L.Close()
	err := L.DoString(`
		local function leaf(name) return { name = name } end
		root = { leaf("a1"), leaf("a2"), nil, leaf("a4") }
		root[10] = leaf("a10")
		root.s = leaf("s")
		root.gone = leaf("gone")
		root.gone = nil
		root[0] = leaf("zero")
		root[-1] = leaf("neg")
		root[1.5] = leaf("half")
		root[2^40] = leaf("big")
		root[leaf("key")] = true
		root[true] = { nested = { leaf("deep") } }
		root.mt = setmetatable({}, { __index = leaf("meta") })
	`)
	if err != nil {
		t.Fatal(err)
	}
	st := &state{L: L, frozen: map[*lua.LTable]struct{}{}}
	w := walker{st: st, seenFn: map[*lua.LFunction]bool{}, seenUp: map[*lua.Upvalue]bool{}}
	w.push(L.GetGlobal("root"))
	w.run()
	want := map[*lua.LTable]struct{}{}
	var visit func(v lua.LValue)
	visit = func(v lua.LValue) {
		tb, ok := v.(*lua.LTable)
		if !ok {
			return
		}
		if _, seen := want[tb]; seen {
			return
		}
		want[tb] = struct{}{}
		visit(tb.Metatable)
		tb.ForEach(func(k, v lua.LValue) { visit(k); visit(v) })
	}
	visit(L.GetGlobal("root"))
	if len(want) < 15 {
		t.Fatalf("the reference walk found %d tables, want the 15 built", len(want))
	}
	if !reflect.DeepEqual(st.frozen, want) {
		t.Fatalf("freezing reached %d tables, ForEach %d", len(st.frozen), len(want))
	}
}

// A table whose first string key a hook's assignment sets (rawSet,
// startStringKeys) is, field for field, the table RawSetString alone
// builds: with string keys only, after a key of another type, after a
// key set to nil, and past the first few keys.
func TestFirstStringKeyLikeRawSetString(t *testing.T) {
	if stringTableFields == nil {
		t.Fatal("gopher-lua's LTable has no strdict, keys and k2i fields of the expected types: update tables.go for this gopher-lua")
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	st := &state{L: L}
	other := L.NewTable()
	for _, keys := range [][]lua.LValue{
		{lua.LString("a")},
		{lua.LString("a"), lua.LString("b"), lua.LString("a")},
		{lua.LNumber(0.5), lua.LString("a")},
		{other, lua.LString("a"), lua.LNumber(-1)},
		{lua.LNumber(1), lua.LNumber(2), lua.LString("x")},
	} {
		for _, n := range []int{1, 12} { // the keys once, or with 11 more
			got, want := L.CreateTable(0, 0), L.CreateTable(0, 0)
			all := append([]lua.LValue(nil), keys...)
			for i := 1; i < n; i++ {
				all = append(all, lua.LString("k"+strconv.Itoa(i)))
			}
			for i, k := range all {
				st.rawSet(L, got, k, lua.LNumber(i))
				want.RawSet(k, lua.LNumber(i))
			}
			st.rawSet(L, got, lua.LString("gone"), lua.LNil)
			want.RawSet(lua.LString("gone"), lua.LNil)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("keys %v: the table differs from RawSetString's", all)
			}
		}
	}
}
