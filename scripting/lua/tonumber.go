package lua

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// toNumber is Lua 5.1's tonumber(e [, base]). gopher-lua's reads a
// string of base 10 with Go's syntax, so tonumber("1e1") was nil; this
// one reads it as Lua 5.1 does, with C's strtod (then, if that stops at
// an x, strtoul in base 16), and any other base with strtoul: leading and
// trailing white space, a sign, "0x" in base 16.
func toNumber(L *lua.LState) int {
	base := L.OptInt(2, 10)
	if base == 10 {
		switch v := L.CheckAny(1).(type) {
		case lua.LNumber:
			L.Push(v)
			return 1
		case lua.LString:
			if n, ok := str2d(string(v)); ok {
				L.Push(lua.LNumber(n))
				return 1
			}
		}
		L.Push(lua.LNil)
		return 1
	}
	s := L.CheckString(1)
	if base < 2 || base > 36 {
		L.ArgError(2, "base out of range")
	}
	n, rest, ok := strtoul(s, base)
	if ok && strings.TrimLeft(rest, cSpace) == "" {
		L.Push(lua.LNumber(n))
		return 1
	}
	L.Push(lua.LNil)
	return 1
}

// cSpace is what C's isspace accepts.
const cSpace = " \t\n\v\f\r"

// str2d is Lua 5.1's luaO_str2d: strtod, then strtoul in base 16 when
// strtod stopped at an x or X, then only white space may follow.
func str2d(s string) (float64, bool) {
	n, rest, ok := strtod(s)
	if !ok {
		return 0, false
	}
	if rest != "" && (rest[0] == 'x' || rest[0] == 'X') {
		u, r, _ := strtoul(s, 16)
		n, rest = u, r
	}
	return n, strings.TrimLeft(rest, cSpace) == ""
}

// strtod reads the longest prefix of s that C's strtod (glibc) reads: a
// decimal or hexadecimal number, inf, infinity or nan, after white space
// and a sign. It returns the value, what follows, and whether it read
// anything.
func strtod(s string) (float64, string, bool) {
	t := strings.TrimLeft(s, cSpace)
	i, neg := 0, false
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		neg = t[i] == '-'
		i++
	}
	sign := func(v float64) float64 {
		if neg {
			return -v
		}
		return v
	}
	lower := strings.ToLower(t[i:])
	switch {
	case strings.HasPrefix(lower, "infinity"):
		return sign(math.Inf(1)), t[i+8:], true
	case strings.HasPrefix(lower, "inf"):
		return sign(math.Inf(1)), t[i+3:], true
	case strings.HasPrefix(lower, "nan"):
		rest := t[i+3:]
		if j := strings.IndexByte(rest, ')'); len(rest) > 0 && rest[0] == '(' && j > 0 && isAlnumUnderscore(rest[1:j]) {
			rest = rest[j+1:]
		}
		return math.NaN(), rest, true
	}
	if strings.HasPrefix(lower, "0x") {
		if end := floatEnd(t, i+2, isHexDigit, "pP"); end > 0 {
			lit := t[i:end]
			if !strings.ContainsAny(lit, "pP") {
				lit += "p0" // Go's hexadecimal floats need an exponent
			}
			v, err := strconv.ParseFloat(lit, 64)
			if err == nil || isRange(err) {
				return sign(v), t[end:], true
			}
		}
		// "0x" with no hex digit: strtod reads the 0
		return sign(0), t[i+1:], true
	}
	j := floatEnd(t, i, isDigit, "eE")
	if j == 0 {
		return 0, s, false
	}
	v, err := strconv.ParseFloat(t[i:j], 64)
	if err != nil && !isRange(err) {
		return 0, s, false
	}
	return sign(v), t[j:], true
}

// floatEnd is where a number whose digits (isDigit) start at i ends:
// digits, a point, digits, then one of the exponent markers, a sign and
// decimal digits (the exponent only when it has a digit); 0 when there
// is no digit before the exponent.
func floatEnd(t string, i int, isDigitOf func(byte) bool, exponent string) int {
	j, digits := i, 0
	for j < len(t) && isDigitOf(t[j]) {
		j++
		digits++
	}
	if j < len(t) && t[j] == '.' {
		j++
		for j < len(t) && isDigitOf(t[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if j < len(t) && strings.IndexByte(exponent, t[j]) >= 0 {
		k := j + 1
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		if k < len(t) && isDigit(t[k]) {
			for k < len(t) && isDigit(t[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

// strtoul reads the longest prefix of s that C's strtoul reads in base:
// white space, a sign (a minus negates modulo 2^64), "0x" in base 16,
// digits; past 2^64-1 it is 2^64-1. ok is false when no digit was read.
func strtoul(s string, base int) (float64, string, bool) {
	t := strings.TrimLeft(s, cSpace)
	i, neg := 0, false
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		neg = t[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(t) && t[i] == '0' && (t[i+1] == 'x' || t[i+1] == 'X') && digitValue(t[i+2]) < 16 {
		i += 2
	}
	var n uint64
	overflow := false
	j := i
	for j < len(t) && digitValue(t[j]) < base {
		d := uint64(digitValue(t[j]))
		if n > (math.MaxUint64-d)/uint64(base) {
			overflow = true
		}
		n = n*uint64(base) + d
		j++
	}
	if j == i {
		return 0, s, false
	}
	if overflow {
		return math.MaxUint64, t[j:], true
	}
	if neg {
		n = -n
	}
	return float64(n), t[j:], true
}

func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isHexDigit(c byte) bool { return digitValue(c) < 16 }

func isAlnumUnderscore(s string) bool {
	for i := range len(s) {
		if digitValue(s[i]) == 99 && s[i] != '_' {
			return false
		}
	}
	return true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
