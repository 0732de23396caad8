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

// maxPooledDecisions bounds the decision userdata a state reuses from
// call to call: a call that makes more gets fresh ones for the rest.
const maxPooledDecisions = 8

// decisionValue wraps d for the script. During a hook call the wrapper
// is one of the state's own, reused by its later calls: like a recycled
// argument (binder.go), nothing a call makes outlives it — what it
// returns reaches the host as the Decision, not as the wrapper — and a
// wrapper cannot be changed (no setmetatable or fenv for userdata, its
// metatable refuses writes); reset clears them. A decision made by the
// top level may be kept in a global for every call, so it gets its own.
func (st *state) decisionValue(d *scripting.Decision) lua.LValue {
	if st.decisionMeta == nil {
		st.decisionMeta = st.newDecisionMeta()
	}
	if st.loading || st.usedDecisions == maxPooledDecisions || st.prog.without.has(speedReasonDecisions) {
		return &lua.LUserData{Value: d, Metatable: st.decisionMeta}
	}
	if st.usedDecisions == len(st.decisions) {
		st.decisions = append(st.decisions, &lua.LUserData{Metatable: st.decisionMeta})
	}
	ud := st.decisions[st.usedDecisions]
	st.usedDecisions++
	ud.Value = d
	return ud
}

// releaseDecisions lets the state's decision wrappers go after a call.
func (st *state) releaseDecisions() {
	for _, ud := range st.decisions[:st.usedDecisions] {
		ud.Value = nil
	}
	for i := range st.decisionValues[:min(st.usedDecisions, maxPooledDecisions)] {
		st.decisionValues[i] = scripting.Decision{}
	}
	st.usedDecisions = 0
}

// reasonBuiltin binds a constructor that takes only a reason straight to
// the decision it builds when it is called with one string (or, for
// hook.allow, nothing), the commonest return value of all: the decision
// is written into the state's own memory (ownDecision) instead of the
// module call's two allocations. Any other call goes to the module
// function, whose errors are the ones to give.
func (st *state) reasonBuiltin(a scripting.ReasonAction, generic lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		if st.prog.without.has(speedReasonDecisions) {
			return generic(L)
		}
		var d scripting.Decision
		switch top := L.GetTop(); {
		case top == 1 && L.Get(1).Type() == lua.LTString:
			d = scripting.ReasonDecision(a.Name, string(L.Get(1).(lua.LString)))
		case top == 0 && a.Optional:
			d = scripting.ActionDecision(a.Name)
		default:
			return generic(L)
		}
		L.Push(st.ownDecision(d))
		return 1
	}
}

// ownDecision wraps d, held in the state's own memory while a call runs;
// at the top level (a global may keep it for every call) and past
// maxPooledDecisions it gets memory of its own.
func (st *state) ownDecision(d scripting.Decision) lua.LValue {
	if st.loading || st.usedDecisions >= maxPooledDecisions {
		return st.newDecision(d)
	}
	i := st.usedDecisions
	st.decisionValues[i] = d
	return st.decisionValue(&st.decisionValues[i])
}

// newDecision wraps a copy of d in memory of its own (apart, so that
// ownDecision's d stays off the heap).
func (st *state) newDecision(d scripting.Decision) lua.LValue {
	if st.loading {
		d.Share()
	}
	return st.decisionValue(&d)
}

// keepDecision returns what a hook returned, with a decision held in the
// state's memory copied into the call's (scripting.Call.KeepDecision): the
// state's next call reuses that memory.
func (st *state) keepDecision(out any, c *scripting.Call) any {
	d, ok := out.(*scripting.Decision)
	if !ok {
		return out
	}
	for i := range st.decisionValues {
		if d == &st.decisionValues[i] {
			return c.KeepDecision(d)
		}
	}
	return out
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
	lv, err := st.toLua(v, st.budget())
	if err != nil {
		L.RaiseError("%v", err)
	}
	L.Push(lv)
	return 1
}
