package lua

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// A decision constructor's result (scripting.Decision) reaches a script as
// a userdata holding it: one allocation instead of a table, and returned
// as it is, the host gets the decision itself without a conversion
// back. Scripts can read its fields (d.action, d["reason"]) and nothing
// else; writing one is an error.

// decisionOf is the Decision lv holds, if it holds one.
func decisionOf(lv lua.LValue) (*scripting.Decision, bool) {
	ud, ok := lv.(*lua.LUserData)
	if !ok {
		return nil, false
	}
	d, ok := ud.Value.(*scripting.Decision)
	return d, ok
}

// decisionValue wraps d for the script.
func (st *state) decisionValue(d *scripting.Decision) lua.LValue {
	if st.decisionMeta == nil {
		st.decisionMeta = st.newDecisionMeta()
	}
	return &lua.LUserData{Value: d, Metatable: st.decisionMeta}
}

// newDecisionMeta builds the metatable every decision of the state
// shares. Its __metatable field is what getmetatable returns instead of
// it, so no script can reach the table to change it for later calls.
func (st *state) newDecisionMeta() *lua.LTable {
	L := st.L
	mt := L.CreateTable(0, 5)
	mt.RawSetString("__index", L.NewFunction(st.decisionIndex))
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("a decision is read-only (to change one, return a plain table such as {action = \"deny\", reason = …})")
		return 0
	}))
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString("decision"))
		return 1
	}))
	// Decisions compare by content, as in Starlark
	// (scripting.Decision.Equal). Lua calls __eq only for two userdata
	// that share it, so a decision never equals anything else.
	mt.RawSetString("__eq", L.NewFunction(func(L *lua.LState) int {
		a, _ := decisionOf(L.Get(1))
		b, _ := decisionOf(L.Get(2))
		L.Push(lua.LBool(a != nil && b != nil && a.Equal(b)))
		return 1
	}))
	mt.RawSetString("__metatable", lua.LString("decision"))
	return mt
}

// decisionIndex reads a field: a fresh Lua value, charged to the call like
// any conversion; nil for a key the decision does not have.
func (st *state) decisionIndex(L *lua.LState) int {
	d, _ := decisionOf(L.Get(1))
	key, ok := L.Get(2).(lua.LString)
	if d == nil || !ok {
		L.Push(lua.LNil)
		return 1
	}
	v, ok := d.Field(string(key))
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	lv, err := toLua(L, v, st.budget())
	if err != nil {
		L.RaiseError("%v", err)
	}
	L.Push(lv)
	return 1
}
