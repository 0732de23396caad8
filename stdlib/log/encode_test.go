package log

import (
	"math"
	"strings"
	"testing"
)

func TestEncode(t *testing.T) {
	deep := any(int64(1))
	for range 100000 {
		deep = []any{deep}
	}
	tests := []struct {
		v    any
		max  int
		want string
	}{
		{nil, 100, "null"},
		{true, 100, "true"},
		{int64(-7), 100, "-7"},
		{1.5, 100, "1.5"},
		{math.Inf(1), 100, "+Inf"},
		{"a<b>&\"c\"\n", 100, `"a<b>&\"c\"\n"`},
		{[]any{}, 100, "[]"},
		{map[string]any{}, 100, "{}"},
		{[]any{int64(1), "x", nil, []any{false}}, 100, `[1,"x",null,[false]]`},
		{map[string]any{"z": int64(1), "a": map[string]any{"k": "v"}}, 100, `{"a":{"k":"v"},"z":1}`},
		{[]any{struct{}{}, int(3)}, 100, "[<struct {}>,<int>]"},
		{strings.Repeat("x", 20), 10, `"xxxxxxxxx…[truncated]`},
		{[]any{"abc", "def", "ghi", "jkl"}, 12, `["abc","def"…[truncated]`},
	}
	for _, tt := range tests {
		if got := encode(tt.v, tt.max); got != tt.want {
			t.Errorf("encode(%v, %d) = %s, want %s", tt.v, tt.max, got, tt.want)
		}
	}
	// Deep nesting stops at the bound instead of recursing 100000 levels.
	if got := encode(deep, 50); !strings.HasPrefix(got, strings.Repeat("[", 50)) || len(got) > 100 {
		t.Errorf("deep: %s", got)
	}
}
