package lua

import (
	lua "github.com/yuin/gopher-lua"
)

// Clean interpreters: a pooled interpreter serves calls of many sessions
// one after another, so a call must leave nothing behind that a later one
// could see. Once the file's top level has run, freeze records
//
//   - every table reachable from the globals, the libraries, the loaded
//     modules, the registered hooks and the upvalues of every reachable
//     function (the frozen set): writes to them are refused during calls
//     (rewritten assignments, rawset, setmetatable, table.insert, remove
//     and sort all check it), so is any write to a global;
//   - every upvalue cell reachable the same way (module-level locals that
//     functions capture) with its value: reset puts each back after every
//     call, so a hook that reassigns a module-level local changes it for
//     the rest of that call only.
//
// Everything else a call creates is its own and unreachable once it
// returns. The state module is the one place meant to outlive a call.

// An upvalueSnapshot is a captured module-level local and its value after
// the top level.
type upvalueSnapshot struct {
	cell  *lua.Upvalue
	value lua.LValue
}

// freeze records the frozen set and the upvalue snapshots.
func (st *state) freeze() {
	w := walker{st: st, seenFn: map[*lua.LFunction]bool{}, seenUp: map[*lua.Upvalue]bool{}}
	st.frozen = map[*lua.LTable]struct{}{}
	w.push(st.L.G.Global)
	if mt, ok := st.L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		w.push(mt)
	}
	for _, r := range st.regs {
		w.push(r.fn)
	}
	for _, v := range st.loaded {
		w.push(v)
	}
	w.run()
	st.upvalues = w.upvalues
}

// freezeValue adds v and what it reaches to the frozen set: a module
// loaded during a call is as shared as one loaded by the top level.
func (st *state) freezeValue(v lua.LValue) {
	if st.frozen == nil {
		return // the top level is still running: freeze will see it
	}
	w := walker{st: st, seenFn: map[*lua.LFunction]bool{}, seenUp: map[*lua.Upvalue]bool{}}
	w.push(v)
	w.run()
}

func (st *state) isFrozen(t *lua.LTable) bool {
	if st.loading || st.frozen == nil {
		return false
	}
	_, ok := st.frozen[t]
	return ok
}

// reset puts every module-level local back to its value after the top
// level, and lets go of the call's decisions and of the arguments that
// may not be kept (binder.go).
func (st *state) reset() {
	for _, u := range st.upvalues {
		u.cell.SetValue(u.value)
	}
	st.releaseDecisions()
	st.binder.afterCall()
}

// A walker visits everything reachable from its roots, without recursion
// (a deep table cannot overflow the Go stack).
type walker struct {
	st       *state
	stack    []lua.LValue
	seenFn   map[*lua.LFunction]bool
	seenUp   map[*lua.Upvalue]bool
	upvalues []upvalueSnapshot
}

func (w *walker) push(v lua.LValue) {
	switch v.(type) {
	case *lua.LTable, *lua.LFunction:
		w.stack = append(w.stack, v)
	}
}

func (w *walker) run() {
	for len(w.stack) > 0 {
		v := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		switch v := v.(type) {
		case *lua.LTable:
			w.table(v)
		case *lua.LFunction:
			w.function(v)
		}
	}
}

func (w *walker) table(t *lua.LTable) {
	if _, ok := w.st.frozen[t]; ok {
		return
	}
	w.st.frozen[t] = struct{}{}
	w.push(t.Metatable)
	keys, ok := hashKeys(t)
	if !ok {
		t.ForEach(func(k, v lua.LValue) {
			w.push(k)
			w.push(v)
		})
		return
	}
	// What ForEach visits, without boxing every key it gives: the
	// array part by index, the rest through its boxed keys.
	for i, n := 1, t.MaxN(); i <= n; i++ {
		w.push(t.RawGetInt(i))
	}
	for _, k := range keys {
		if v := t.RawGetH(k); v != lua.LNil {
			w.push(k)
			w.push(v)
		}
	}
}

func (w *walker) function(f *lua.LFunction) {
	if len(f.Upvalues) == 0 {
		// Most are library builtins, reached once each: only functions
		// with upvalues are worth remembering (revisiting an environment
		// is one lookup in the frozen set).
		if f.Env != nil {
			w.push(f.Env)
		}
		return
	}
	if w.seenFn[f] {
		return
	}
	w.seenFn[f] = true
	if f.Env != nil {
		w.push(f.Env)
	}
	for _, u := range f.Upvalues {
		if u == nil || w.seenUp[u] {
			continue
		}
		w.seenUp[u] = true
		v := u.Value()
		w.upvalues = append(w.upvalues, upvalueSnapshot{cell: u, value: v})
		w.push(v)
	}
}
