package lua

import (
	"math"
	"testing"
)

// FuzzStr2d: tonumber's reading of a string never panics, and white
// space around a number changes nothing (lua51_test.go compares the
// answers themselves with Lua 5.1).
func FuzzStr2d(f *testing.F) {
	for _, s := range []string{"10", "1e1", "0x10", "-0x1p4", "inf", "nan(x)", " 7 ", "1_000", "0x", "1e+", ""} {
		f.Add(s, 16)
	}
	f.Fuzz(func(t *testing.T, s string, base int) {
		n, ok := str2d(s)
		m, ok2 := str2d(" \t" + s + "\n ")
		if ok != ok2 || (ok && n != m && !(math.IsNaN(n) && math.IsNaN(m))) {
			t.Errorf("str2d(%q) = %v, %v but with white space around it %v, %v", s, n, ok, m, ok2)
		}
		if base = 2 + (base%35+35)%35; base <= 36 {
			strtoul(s, base)
		}
	})
}
