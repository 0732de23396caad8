package json

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		v      any
		indent int
		want   string
	}{
		{true, 0, "true"},
		{int64(-42), 0, "-42"},
		{int64(math.MinInt64), 0, "-9223372036854775808"},
		{1.5, 0, "1.5"},
		{1.0, 0, "1.0"},
		{-0.0, 0, "0.0"}, // a Go constant -0.0 is +0
		{math.Copysign(0, -1), 0, "-0.0"},
		{1e21, 0, "1e+21"},
		{1e-7, 0, "1e-07"},
		{123456.0, 0, "123456.0"},
		{"a\"b\\c", 0, `"a\"b\\c"`},
		{"\n\r\t\b\f\x00\x1f\x7f", 0, `"\n\r\t\b\f\u0000\u001f` + "\x7f" + `"`},
		{"é😀", 0, `"é😀"`},
		{"\u2028\u2029", 0, `"\u2028\u2029"`},
		{"a\xffb", 0, `"a\ufffdb"`},
		{"<script>&</script>", 0, `"<script>&</script>"`},
		{map[string]any{"b": int64(1), "a": int64(2), "B": int64(3), "": nil}, 0, `{"":null,"B":3,"a":2,"b":1}`},
		{map[string]any{"k\n": "v"}, 0, `{"k\n":"v"}`},
		{[]any{[]any{}, map[string]any{}}, 0, `[[],{}]`},
		{[]any{[]any{}, map[string]any{}}, 2, "[\n  [],\n  {}\n]"},
		{map[string]any{"a": []any{int64(1), map[string]any{"b": nil}}}, 2,
			"{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ]\n}"},
		{map[string]any{"a": int64(1)}, 1, "{\n \"a\": 1\n}"},
	}
	for _, tt := range tests {
		got, err := Encode(tt.v, tt.indent)
		if err != nil {
			t.Errorf("Encode(%#v, %d): %v", tt.v, tt.indent, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Encode(%#v, %d) = %s, want %s", tt.v, tt.indent, got, tt.want)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	self := map[string]any{}
	self["self"] = self
	tests := []struct {
		name    string
		v       any
		wantErr string
		is      error
	}{
		{"NaN", math.NaN(), "value: NaN cannot be represented", nil},
		{"+Inf", []any{math.Inf(1)}, "[0]: +Inf cannot be represented", nil},
		{"-Inf", map[string]any{"a": math.Inf(-1)}, "a: -Inf cannot be represented", nil},
		{"int", []any{1}, "[0]: int is not a neutral value", nil},
		{"too deep", nest(stdlib.MaxDepth + 1), "nests deeper than 512", stdlib.ErrTooDeep},
		{"cycle", self, "nests deeper than 512", stdlib.ErrTooDeep},
		{"too large", strings.Repeat("x", MaxSize), "longer than", ErrTooLarge},
		{"too large escaped", strings.Repeat("\x01", MaxSize/2), "longer than", ErrTooLarge},
		{"too large list", manyStrings(5, MaxSize/4), "longer than", ErrTooLarge},
	}
	for _, tt := range tests {
		_, err := Encode(tt.v, 0)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.wantErr)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v is not %v", tt.name, err, tt.is)
		}
	}
}

// TestEncodeDepthLimit checks that the deepest value Decode accepts
// encodes, indented too.
func TestEncodeDepthLimit(t *testing.T) {
	for _, indent := range []int{0, MaxIndent} {
		if _, err := Encode(nest(stdlib.MaxDepth), indent); err != nil {
			t.Errorf("indent %d: %v", indent, err)
		}
	}
}

// TestEncodeIndentBounded checks that indentation cannot blow a small
// value up past MaxSize: each of these lines is indented 16*500 spaces.
func TestEncodeIndentBounded(t *testing.T) {
	var v any = manyStrings(1, 1000)
	for range 499 {
		v = []any{v}
	}
	_, err := Encode(v, MaxIndent)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
}

// nest returns n lists, each inside the one before.
func nest(n int) any {
	var v any = []any{}
	for range n - 1 {
		v = []any{v}
	}
	return v
}

func manyStrings(size, n int) []any {
	l := make([]any, n)
	for i := range l {
		l[i] = strings.Repeat("s", size)
	}
	return l
}
