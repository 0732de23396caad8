package lua

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// string.format as Lua 5.1 defines it: each directive is
// %[flags][width][.precision]conversion with flags from "-+ #0", a width
// and a precision of at most two digits each, conversions c d i o u x X
// e E f g G q s and %%. gopher-lua passed the format to Go's fmt, whose
// widths go up to a million: a long format of huge widths built
// gigabytes. Here the result's size is known before it is built: each
// directive's most (directiveSize, from its width, precision and
// argument) is added up, bounded and charged first.

// A directive is one parsed %… of a format.
type directive struct {
	spec  string // the Go format for this directive, e.g. "%-5.2f"
	conv  byte
	width int
	prec  int // -1 when absent
}

func (st *state) strFormat(L *lua.LState) int {
	format := L.CheckString(1)
	var parts []any // literal strings and directives, in order
	arg := 2
	bound := 0
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			parts = append(parts, format[i:])
			bound += len(format) - i
			break
		}
		if j > 0 {
			parts = append(parts, format[i:i+j])
			bound += j
		}
		i += j + 1
		if i < len(format) && format[i] == '%' {
			parts = append(parts, "%")
			bound++
			i++
			continue
		}
		d, n, err := parseDirective(format[i:])
		if err != "" {
			L.RaiseError("string.format: %s", err)
		}
		i += n
		if arg > L.GetTop() {
			L.ArgError(arg, "no value")
		}
		bound += directiveSize(L, d, arg)
		parts = append(parts, d)
		arg++
	}
	st.checkString(L, "string.format", bound)
	var b strings.Builder
	b.Grow(bound)
	arg = 2
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			b.WriteString(p)
		case directive:
			st.formatOne(L, &b, p, arg)
			arg++
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// parseDirective reads flags, width, precision and the conversion after a
// %, returning how many bytes it used.
func parseDirective(s string) (directive, int, string) {
	i := 0
	for i < len(s) && strings.IndexByte("-+ #0", s[i]) >= 0 {
		i++
	}
	if i > 5 {
		return directive{}, 0, "invalid format (repeated flags)"
	}
	w := i
	for i < len(s) && i-w < 3 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i-w > 2 {
		return directive{}, 0, "invalid format (width or precision too long; at most two digits)"
	}
	d := directive{prec: -1}
	d.width, _ = strconv.Atoi(s[w:i])
	if i < len(s) && s[i] == '.' {
		i++
		p := i
		for i < len(s) && i-p < 3 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i-p > 2 {
			return directive{}, 0, "invalid format (width or precision too long; at most two digits)"
		}
		d.prec, _ = strconv.Atoi(s[p:i])
	}
	if i >= len(s) {
		return directive{}, 0, "invalid format (ends inside a directive)"
	}
	d.conv = s[i]
	if strings.IndexByte("cdiouxXeEfgGqs", d.conv) < 0 {
		return directive{}, 0, fmt.Sprintf("invalid option '%%%c' to 'format'", d.conv)
	}
	d.spec = "%" + s[:i]
	return d, i + 1, ""
}

// directiveSize is the most that d writes for its argument: what the
// conversion writes at its widest (the widest int64 or uint64 in its
// base, a float's integer digits, a string's length, %q's exact quoted
// length), or the width when that is wider.
func directiveSize(L *lua.LState, d directive, arg int) int {
	prec := d.prec
	if prec < 0 {
		prec = 6 // C's default, for the float conversions
	}
	var n int
	switch d.conv {
	case 'c':
		n = 1
	case 'd', 'i':
		n = 1 + max(d.prec, 19) // a sign and the digits of an int64, or the precision's zeros
	case 'u', 'o', 'x', 'X':
		n = 3 + max(d.prec, 22) // a sign for +, "0x" for #, and a uint64 in octal
	case 'e', 'E', 'g', 'G':
		n = prec + 8 // sign, a digit, the point, the precision, e+308
	case 'f':
		n = 2 + floatDigits(L.Get(arg)) + prec // sign, integer digits, the point, the precision
	case 's':
		if s, ok := L.Get(arg).(lua.LString); ok {
			n = len(s)
			if d.prec >= 0 {
				n = min(n, d.prec)
			}
		} else {
			n = 64 // tostring of a number or table; __tostring results are checked when written
		}
	case 'q':
		return quotedLen(L.CheckString(arg))
	}
	return max(n, d.width)
}

// floatDigits is how many digits %f writes before the point for v: 309
// for anything that is not a finite number (the widest, or an argument
// that fails when it is written).
func floatDigits(v lua.LValue) int {
	f, ok := v.(lua.LNumber)
	a := math.Abs(float64(f))
	if !ok || math.IsInf(a, 0) || math.IsNaN(a) {
		return 309
	}
	if a < 1 {
		return 1 // 0.99 may round up to 1, never to 10
	}
	return int(math.Floor(math.Log10(a))) + 2 // one more than log10 says: 9.99 may round up to 10
}

func (st *state) formatOne(L *lua.LState, b *strings.Builder, d directive, arg int) {
	switch d.conv {
	case 'c':
		b.WriteByte(byte(L.CheckInt(arg)))
	case 'd', 'i':
		fmt.Fprintf(b, d.spec+"d", int64(L.CheckNumber(arg)))
	case 'u':
		fmt.Fprintf(b, d.spec+"d", uint64(int64(L.CheckNumber(arg))))
	case 'o', 'x', 'X':
		fmt.Fprintf(b, d.spec+string(d.conv), uint64(int64(L.CheckNumber(arg))))
	case 'e', 'E', 'f':
		fmt.Fprintf(b, d.spec+string(d.conv), float64(L.CheckNumber(arg)))
	case 'g', 'G': // C's default precision, not Go's shortest form
		spec := d.spec
		if d.prec < 0 {
			spec += ".6"
		}
		fmt.Fprintf(b, spec+string(d.conv), float64(L.CheckNumber(arg)))
	case 'q':
		quoteLua(b, L.CheckString(arg))
	case 's':
		s := L.ToStringMeta(L.Get(arg)).String()
		if _, plain := L.Get(arg).(lua.LString); !plain {
			st.checkString(L, "string.format", b.Len()+len(s))
		}
		fmt.Fprintf(b, d.spec+"s", s)
	}
}

// quotedLen is the length of quoteLua's output for s: a NUL becomes four
// bytes, so no constant factor of len(s) would be both safe and tight.
func quotedLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '\n', '\r':
			n++
		case 0:
			n += 3
		}
	}
	return n
}

// quoteLua writes s as Lua 5.1's %q does: in double quotes, with ", \,
// newline and NUL escaped so that Lua reads the same string back.
func quoteLua(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString("\\\n")
		case '\r':
			b.WriteString("\\r")
		case 0:
			b.WriteString("\\000")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
