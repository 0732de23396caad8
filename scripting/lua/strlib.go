package lua

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The string functions that build strings or many results, replaced so
// that each is bounded before it starts and charges what it builds.
// string.sub and string.len allocate nothing and stay gopher-lua's.

// rep is string.rep with the result capped at Limits.MaxStringSize.
func (st *state) rep(L *lua.LState) int {
	s := L.CheckString(1)
	n := intArg(L, 2, 0)
	if n <= 0 || len(s) == 0 {
		L.Push(lua.LString(""))
		return 1
	}
	if max := st.prog.limits.MaxStringSize; n > max/len(s) {
		L.RaiseError("string.rep: result would exceed %d bytes", max)
	}
	st.checkString(L, "string.rep", n*len(s))
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// strByte is string.byte, with at most maxResults results.
func (st *state) strByte(L *lua.LState) int {
	s := L.CheckString(1)
	i := strIndex(s, intArg(L, 2, 1), true)
	j := strIndex(s, intArg(L, 3, intArg(L, 2, 1)), false)
	if i >= j {
		return 0
	}
	n := j - i
	if n > maxResults {
		L.RaiseError("string.byte: string slice too long (%d bytes; at most %d)", n, maxResults)
	}
	st.pushResults(L, "string.byte", n)
	for k := i; k < j; k++ {
		L.Push(intValue(int(s[k])))
	}
	return n
}

// strChar is string.char; its arguments are already on the stack, so only
// the result is charged.
func (st *state) strChar(L *lua.LState) int {
	top := L.GetTop()
	st.checkString(L, "string.char", top)
	b := make([]byte, top)
	for i := 1; i <= top; i++ {
		c := L.CheckInt(i)
		if c < 0 || c > 255 {
			L.ArgError(i, "invalid value (want 0 to 255)")
		}
		b[i-1] = byte(c)
	}
	L.Push(lua.LString(b))
	return 1
}

// mapString wraps a function that builds a string exactly as long as its
// input, so that charging the input's length charges the result.
func (st *state) mapString(name string, f func(string) string) lua.LGFunction {
	return func(L *lua.LState) int {
		s := L.CheckString(1)
		st.checkString(L, name, len(s))
		L.Push(lua.LString(f(s)))
		return 1
	}
}

// asciiUpper and asciiLower map case byte by byte as Lua 5.1 does in the
// C locale: only a-z and A-Z change, every other byte (UTF-8 or not) is
// kept. strings.ToUpper would turn each invalid byte into a 3-byte U+FFFD
// (a result three times the size charged) and map runes such as the
// Kelvin sign to ASCII, which Lua's byte semantics never do.
func asciiUpper(s string) string { return flipASCII(s, 'a', 'z') }
func asciiLower(s string) string { return flipASCII(s, 'A', 'Z') }

// flipASCII flips the case bit of every byte in lo..hi.
func flipASCII(s string, lo, hi byte) string {
	i := 0
	for i < len(s) && (s[i] < lo || s[i] > hi) {
		i++
	}
	if i == len(s) {
		return s // nothing to change: no copy
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= lo && c <= hi {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

func reverse(s string) string {
	b := make([]byte, len(s))
	for i := range len(s) {
		b[len(s)-1-i] = s[i]
	}
	return string(b)
}

// patchString replaces rep, byte, char, format, upper, lower, reverse and
// the pattern functions, and gives strings a protected metatable whose
// __index is the patched table, so ("x"):rep(n) is capped too and
// getmetatable("") reveals nothing.
func (st *state) patchString(g *lua.LTable) {
	L := st.L
	str := L.GetField(g, "string").(*lua.LTable)
	for name, fn := range map[string]lua.LGFunction{
		"rep": st.rep, "byte": st.strByte, "char": st.strChar, "format": st.strFormat,
		"upper":   st.mapString("string.upper", asciiUpper),
		"lower":   st.mapString("string.lower", asciiLower),
		"reverse": st.mapString("string.reverse", reverse),
		"find":    st.strFind, "match": st.strMatch, "gsub": st.strGsub,
	} {
		str.RawSetString(name, L.NewFunction(fn))
	}
	gmatch := L.NewClosure(st.strGmatch, L.NewFunction(st.strGmatchIter))
	str.RawSetString("gmatch", gmatch)
	str.RawSetString("gfind", gmatch)
	str.RawSetString("dump", lua.LNil)
	str.RawSetString("__index", lua.LNil)
	mt := L.CreateTable(0, 2)
	mt.RawSetString("__index", str)
	mt.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(lua.LString(""), mt)
}
