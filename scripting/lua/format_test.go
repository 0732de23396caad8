package lua

import (
	"math"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestDirectiveSizeBounds checks that what string.format charges and
// allocates before it writes is never less than what a directive writes:
// every conversion, flag, width and precision, on the widest values.
func TestDirectiveSizeBounds(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	numbers := []lua.LValue{lua.LNumber(0), lua.LNumber(math.Copysign(0, -1)), lua.LNumber(1), lua.LNumber(-1),
		lua.LNumber(1.5), lua.LNumber(999.99), lua.LNumber(9.9999999), lua.LNumber(123456789012),
		lua.LNumber(1e308), lua.LNumber(-1e308), lua.LNumber(math.MaxFloat64), lua.LNumber(-math.MaxFloat64),
		lua.LNumber(math.Ldexp(1, 63)), lua.LNumber(-math.Ldexp(1, 63)), lua.LNumber(5e-324),
		lua.LNumber(math.Inf(1)), lua.LNumber(math.Inf(-1)), lua.LNumber(math.NaN()), lua.LString("1e308")}
	strs := []lua.LValue{lua.LString(""), lua.LString("abc"), lua.LString(strings.Repeat("x", 300))}
	var st *state // formatOne needs the state only for %s of a value that is not a string
	checked := 0
	for _, conv := range "cdiouxXeEfgGs" {
		values := numbers
		if conv == 's' {
			values = strs
		}
		if conv == 'c' {
			values = []lua.LValue{lua.LNumber(65), lua.LNumber(0)}
		}
		for _, flags := range []string{"", "-", "+", " ", "#", "0", "-+ #0"} {
			for _, width := range []string{"", "1", "9", "99"} {
				for _, prec := range []string{"", ".", ".0", ".6", ".99"} {
					d, _, errText := parseDirective(flags + width + prec + string(conv))
					if errText != "" {
						t.Fatalf("%%%s%s%s%c: %s", flags, width, prec, conv, errText)
					}
					for _, v := range values {
						L.SetTop(0)
						L.Push(v)
						bound := directiveSize(L, d, 1)
						var b strings.Builder
						st.formatOne(L, &b, d, 1)
						if b.Len() > bound {
							t.Errorf("%s of %v wrote %d bytes, more than its bound of %d", d.spec+string(conv), v, b.Len(), bound)
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d combinations checked", checked)
	}
}
