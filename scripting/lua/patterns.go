package lua

// string.find, match, gmatch and gsub, adapted from gopher-lua's
// stringlib.go (MIT licence, Copyright (c) 2015 Yusuke Inuzuka) so that
// the matching itself can be abandoned at a hook's deadline.
//
// Lua patterns backtrack: a pattern with k quantifiers can take time
// proportional to n^(k+1) on a subject of n bytes, inside one Go call that
// no interrupt reaches. Matching that is cheap by that bound runs inline;
// anything else runs through scripting.Guard, which the deadline abandons.
//
// gmatch and gsub look for matches a batch at a time (gmatch lazily, as
// the loop asks; gsub in a loop that checks the call's interrupt and
// bounds its result as it goes), so what an abandoned search leaves
// running is one batch — CPU and a bounded list, not an unbounded one —
// and a call that is interrupted between batches stops. Matches are garbage as soon as the next one is found;
// what is kept, gsub's result, is charged to the call's memory budget.

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/pm"

	"github.com/hookhost/hookhost/scripting"
)

// inlineMatchBudget is the worst-case step count (n^(k+1)) below which a
// match runs inline: about a millisecond of matching.
const inlineMatchBudget = 1e6

// find runs pm.Find, inline when its worst case is small, else guarded.
func (st *state) find(L *lua.LState, pattern, str string, init, limit int) []*pm.MatchData {
	var mds []*pm.MatchData
	var err error
	if st.cur == nil || cheapMatch(pattern, len(str)-init) {
		mds, err = pm.Find(pattern, readOnlyBytes(str), init, limit)
	} else {
		// str is immutable, so the guarded goroutine may read it
		// without a copy even after it is abandoned.
		src := readOnlyBytes(str)
		mds, err = scripting.Guard(st.cur, func() ([]*pm.MatchData, error) {
			return pm.Find(pattern, src, init, limit)
		})
	}
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	return mds
}

// matchBatch is how many matches gmatch and gsub search for at a time:
// enough to make a guarded search worth its goroutine, few enough that
// an abandoned one ends soon and holds little.
const matchBatch = 1024

// A matchStream yields the matches of a pattern in a string one by one,
// searching for up to matchBatch of them at a time.
type matchStream struct {
	str, pattern string
	init         int
	done         bool
	batch        []*pm.MatchData
}

func newMatchStream(str, pattern string) *matchStream {
	return &matchStream{str: str, pattern: pattern}
}

// next returns the next match, or nil when there is none.
func (m *matchStream) next(st *state, L *lua.LState) *pm.MatchData {
	if len(m.batch) == 0 {
		if m.done || m.init > len(m.str) {
			return nil
		}
		m.batch = st.find(L, m.pattern, m.str, m.init, matchBatch)
		// pm.Find tries an anchored pattern at init only
		if len(m.batch) < matchBatch || strings.HasPrefix(m.pattern, "^") {
			m.done = true
		}
		if len(m.batch) == 0 {
			return nil
		}
		m.init = nextInit(m.batch[len(m.batch)-1])
	}
	md := m.batch[0]
	m.batch = m.batch[1:]
	return md
}

// nextInit is where the search after a match continues: past it, or one
// byte on after an empty match, as Lua does.
func nextInit(md *pm.MatchData) int {
	if md.Capture(1) == md.Capture(0) {
		return md.Capture(1) + 1
	}
	return md.Capture(1)
}

// cheapMatch bounds the backtracking of pattern on n bytes.
func cheapMatch(pattern string, n int) bool {
	if n <= 16 {
		return true
	}
	k := quantifiers(pattern)
	return math.Pow(float64(n), float64(k+1)) <= inlineMatchBudget
}

// quantifiers counts the unescaped quantifiers of a Lua pattern outside
// character sets, plus one for each %b (which scans ahead).
func quantifiers(p string) int {
	k := 0
	inSet := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '%':
			if i+1 < len(p) && p[i+1] == 'b' && !inSet {
				k++
			}
			i++
		case c == '[' && !inSet:
			inSet = true
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			}
		case c == ']' && inSet:
			inSet = false
		case !inSet && (c == '*' || c == '+' || c == '-' || c == '?'):
			k++
		}
	}
	return k
}

// readOnlyBytes views s as bytes without copying; pm.Find only reads.
func readOnlyBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
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

func pushCaptures(L *lua.LState, str string, md *pm.MatchData, whole bool) int {
	if md.CaptureLength() == 2 && whole {
		L.Push(lua.LString(str[md.Capture(0):md.Capture(1)]))
		return 1
	}
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(lua.LNumber(md.Capture(i)))
		} else {
			L.Push(lua.LString(str[md.Capture(i):md.Capture(i+1)]))
		}
	}
	return md.CaptureLength()/2 - 1
}

// findArgs reads (s, pattern, init?) for find and match; ok is false
// when init lies past the end, where both return nil.
func findArgs(L *lua.LState) (str, pattern string, init int, ok bool) {
	str = L.CheckString(1)
	pattern = L.CheckString(2)
	init = strIndex(str, L.OptInt(3, 1), true)
	return str, pattern, init, init <= len(str)
}

func (st *state) strFind(L *lua.LState) int {
	str, pattern, init, ok := findArgs(L)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	if pattern == "" {
		L.Push(lua.LNumber(init + 1))
		L.Push(lua.LNumber(init))
		return 2
	}
	if L.GetTop() >= 4 && lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(pattern, "^$*+?.([%-") {
		pos := strings.Index(str[init:], pattern)
		if pos < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + pos + 1))
		L.Push(lua.LNumber(init + pos + len(pattern)))
		return 2
	}
	mds := st.find(L, pattern, str, init, 1)
	if len(mds) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	md := mds[0]
	L.Push(lua.LNumber(md.Capture(0) + 1))
	L.Push(lua.LNumber(md.Capture(1)))
	return 2 + pushCaptures(L, str, md, false)
}

func (st *state) strMatch(L *lua.LState) int {
	str, pattern, init, ok := findArgs(L)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	mds := st.find(L, pattern, str, init, 1)
	if len(mds) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	return pushCaptures(L, str, mds[0], true)
}

// A gmatchState is one gmatch iteration. It belongs to the call that
// made it: a module-level iterator used by a later call would carry
// state from one call into the next.
type gmatchState struct {
	*matchStream
	owner *scripting.Call
}

func (st *state) strGmatch(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	L.Push(L.Get(lua.UpvalueIndex(1)))
	ud := L.NewUserData()
	ud.Value = &gmatchState{matchStream: newMatchStream(str, pattern), owner: st.cur}
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
	md := gs.next(st, L)
	if md == nil {
		return 0
	}
	return pushCaptures(L, gs.str, md, true)
}

func (st *state) strGsub(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTNumber, lua.LTTable, lua.LTFunction)
	repl := L.Get(3)
	limit := intArg(L, 4, -1)
	max := st.prog.limits.MaxStringSize
	var b strings.Builder
	last, n := 0, 0
	for m := newMatchStream(str, pattern); n != limit; n++ {
		md := m.next(st, L)
		if md == nil {
			break
		}
		start, end := md.Capture(0), md.Capture(1)
		b.WriteString(str[last:start])
		r, keep := gsubReplacement(L, str, md, repl)
		if keep {
			r = str[start:end]
		}
		if b.Len()+len(r) > max {
			L.RaiseError("string.gsub: result would exceed %d bytes", max)
		}
		b.WriteString(r)
		last = end
		if n%interruptEvery == 0 {
			st.checkInterrupt(L, "string.gsub")
		}
	}
	if b.Len()+len(str)-last > max {
		L.RaiseError("string.gsub: result would exceed %d bytes", max)
	}
	b.WriteString(str[last:])
	st.charge(L, "string.gsub", int64(b.Len()))
	L.Push(lua.LString(b.String()))
	L.Push(lua.LNumber(n))
	return 2
}

// gsubReplacement computes one replacement; keep reports that the
// replacement was false or nil, which keeps the original text.
func gsubReplacement(L *lua.LState, str string, md *pm.MatchData, repl lua.LValue) (string, bool) {
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		return expandPercent(L, str, md, r.String()), false
	case *lua.LTable:
		v := L.GetTable(r, firstCapture(str, md))
		return lua.LVAsString(v), lua.LVIsFalse(v)
	case *lua.LFunction:
		L.Push(r)
		n := 1
		if md.CaptureLength() > 2 {
			n = pushCaptures(L, str, md, false)
		} else {
			L.Push(lua.LString(str[md.Capture(0):md.Capture(1)]))
		}
		L.Call(n, 1)
		v := L.Get(-1)
		L.Pop(1)
		return lua.LVAsString(v), lua.LVIsFalse(v)
	}
	return "", true
}

func firstCapture(str string, md *pm.MatchData) lua.LValue {
	idx := 0
	if md.CaptureLength() > 2 {
		idx = 2
	}
	if md.IsPosCapture(idx) {
		return lua.LNumber(md.Capture(idx))
	}
	return lua.LString(str[md.Capture(idx):md.Capture(idx+1)])
}

// expandPercent expands %0-%9 and %% in a gsub replacement string.
func expandPercent(L *lua.LState, str string, md *pm.MatchData, repl string) string {
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
		b.WriteString(captureText(L, str, md, int(d-'0')))
	}
	return b.String()
}

func captureText(L *lua.LState, str string, md *pm.MatchData, n int) string {
	idx := 2 * n
	if n == 0 || (n == 1 && md.CaptureLength() == 2) {
		idx = 0
	} else if idx >= md.CaptureLength() {
		L.RaiseError("invalid capture index %%%d", n)
	}
	if md.IsPosCapture(idx) {
		return fmt.Sprint(md.Capture(idx))
	}
	return str[md.Capture(idx):md.Capture(idx+1)]
}
