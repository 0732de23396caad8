package lua

// string.find, match, gmatch and gsub over hookhost's own matcher
// (match.go), which looks at the call's interrupt as it searches: a
// runaway match stops at the deadline like any Lua code, nothing is
// abandoned, and nothing is left running. gmatch finds one match per
// iteration; gsub bounds its result as it goes and charges it to the
// call's memory budget.

import (
	"errors"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// matcher prepares a match of pattern in str for the running call.
func (st *state) matcher(str, pattern string) *matcher {
	var stop func() bool
	if c := st.cur; c != nil {
		stop = c.Interrupted
	}
	return newMatcher(str, pattern, stop)
}

// findWith finds the next match, raising a malformed pattern or an
// interrupt as a Lua error.
func findWith(L *lua.LState, mt *matcher, init int) *match {
	m, err := mt.find(init)
	switch {
	case errors.Is(err, errMatchInterrupted):
		L.RaiseError("%v", scripting.ErrInterrupted)
	case err != nil:
		L.RaiseError("%v", err)
	}
	return m
}

// nextInit is where the search after a match continues: past it, or one
// byte on after an empty match, as Lua does.
func nextInit(m *match) int {
	if m.end == m.start {
		return m.end + 1
	}
	return m.end
}

func strIndex(str string, i int, start bool) int {
	if start && i != 0 {
		i--
	}
	l := len(str)
	if i < 0 {
		i = l + i + 1
	}
	i = max(0, i)
	if !start && i > l {
		i = l
	}
	return i
}

// captureValue is capture i of m: a substring, or a position for ().
func captureValue(str string, c capture) lua.LValue {
	if c.len == capPosition {
		return intValue(c.start + 1)
	}
	return lua.LString(str[c.start : c.start+c.len])
}

// pushCaptures pushes m's captures, or the whole match when whole is set
// and there are none; it returns how many values it pushed.
func pushCaptures(L *lua.LState, str string, m *match, whole bool) int {
	if len(m.caps) == 0 {
		if !whole {
			return 0
		}
		L.Push(lua.LString(str[m.start:m.end]))
		return 1
	}
	for _, c := range m.caps {
		if c.len == capUnfinished {
			L.RaiseError("unfinished capture")
		}
		L.Push(captureValue(str, c))
	}
	return len(m.caps)
}

// findArgs reads (s, pattern, init?) for find and match; ok is false
// when init lies past the end, where both return nil.
func findArgs(L *lua.LState) (str, pattern string, init int, ok bool) {
	str = L.CheckString(1)
	pattern = L.CheckString(2)
	init = strIndex(str, intArg(L, 3, 1), true)
	return str, pattern, init, init <= len(str)
}

func (st *state) strFind(L *lua.LState) int {
	str, pattern, init, ok := findArgs(L)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	if L.GetTop() >= 4 && lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(pattern, "^$*+?.([%-") {
		pos := strings.Index(str[init:], pattern)
		if pos < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(intValue(init + pos + 1))
		L.Push(intValue(init + pos + len(pattern)))
		return 2
	}
	m := findWith(L, st.matcher(str, pattern), init)
	if m == nil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(intValue(m.start + 1))
	L.Push(intValue(m.end))
	return 2 + pushCaptures(L, str, m, false)
}

func (st *state) strMatch(L *lua.LState) int {
	str, pattern, init, ok := findArgs(L)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	m := findWith(L, st.matcher(str, pattern), init)
	if m == nil {
		L.Push(lua.LNil)
		return 1
	}
	return pushCaptures(L, str, m, true)
}

// A gmatchState is one gmatch iteration. It belongs to the call that
// made it: a module-level iterator used by a later call would carry
// state from one call into the next.
type gmatchState struct {
	mt    *matcher
	init  int
	owner *scripting.Call
}

func (st *state) strGmatch(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	ud := L.NewUserData()
	ud.Value = &gmatchState{mt: st.matcher(str, pattern), owner: st.cur}
	L.Push(ud)
	return 2
}

func (st *state) strGmatchIter(L *lua.LState) int {
	gs, ok := L.CheckUserData(1).Value.(*gmatchState)
	if !ok {
		L.ArgError(1, "gmatch state expected")
	}
	if gs.owner != st.cur {
		L.RaiseError("string.gmatch: this iterator was made by another call (an iterator cannot outlive its call)")
	}
	if gs.init > len(gs.mt.src) {
		return 0
	}
	m := findWith(L, gs.mt, gs.init)
	if m == nil {
		gs.init = len(gs.mt.src) + 1
		return 0
	}
	gs.init = nextInit(m)
	if gs.mt.anchored() {
		gs.init = len(gs.mt.src) + 1
	}
	return pushCaptures(L, gs.mt.src, m, true)
}

func (st *state) strGsub(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTNumber, lua.LTTable, lua.LTFunction)
	repl := L.Get(3)
	limit := intArg(L, 4, -1)
	max := st.prog.limits.MaxStringSize
	mt := st.matcher(str, pattern)
	var b strings.Builder
	last, n := 0, 0
	for init := 0; init <= len(str) && n != limit; {
		m := findWith(L, mt, init)
		if m == nil {
			break
		}
		n++
		b.WriteString(str[last:m.start])
		r, keep := gsubReplacement(L, str, m, repl)
		if keep {
			r = str[m.start:m.end]
		}
		if b.Len()+len(r) > max {
			L.RaiseError("string.gsub: result would exceed %d bytes", max)
		}
		b.WriteString(r)
		last, init = m.end, nextInit(m)
		if mt.anchored() {
			break
		}
	}
	if b.Len()+len(str)-last > max {
		L.RaiseError("string.gsub: result would exceed %d bytes", max)
	}
	b.WriteString(str[last:])
	st.charge(L, "string.gsub", int64(b.Len()))
	L.Push(lua.LString(b.String()))
	L.Push(intValue(n))
	return 2
}

// gsubReplacement computes one replacement; keep reports that the
// replacement was false or nil, which keeps the original text.
func gsubReplacement(L *lua.LState, str string, m *match, repl lua.LValue) (string, bool) {
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		return expandPercent(L, str, m, r.String()), false
	case *lua.LTable:
		v := L.GetTable(r, firstCapture(str, m))
		return lua.LVAsString(v), lua.LVIsFalse(v)
	case *lua.LFunction:
		L.Push(r)
		n := pushCaptures(L, str, m, true)
		L.Call(n, 1)
		v := L.Get(-1)
		L.Pop(1)
		return lua.LVAsString(v), lua.LVIsFalse(v)
	}
	return "", true
}

// firstCapture is the first capture, or the whole match when there is
// none.
func firstCapture(str string, m *match) lua.LValue {
	if len(m.caps) == 0 {
		return lua.LString(str[m.start:m.end])
	}
	return captureValue(str, m.caps[0])
}

// expandPercent expands %0-%9 and %% in a gsub replacement string.
func expandPercent(L *lua.LState, str string, m *match, repl string) string {
	if !strings.Contains(repl, "%") {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '%' || i+1 == len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		d := repl[i]
		if d < '0' || d > '9' {
			b.WriteByte(d)
			continue
		}
		b.WriteString(lua.LVAsString(captureText(L, str, m, int(d-'0'))))
	}
	return b.String()
}

// captureText is %n of a replacement: %0 and, without captures, %1 are
// the whole match.
func captureText(L *lua.LState, str string, m *match, n int) lua.LValue {
	if n == 0 || n == 1 && len(m.caps) == 0 {
		return lua.LString(str[m.start:m.end])
	}
	if n > len(m.caps) {
		L.RaiseError("invalid capture index %%%d", n)
	}
	return captureValue(str, m.caps[n-1])
}
