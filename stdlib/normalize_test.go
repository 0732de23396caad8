package stdlib

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestNormalizeErrorPaths checks the path each error names, for every
// kind of error and every way a path is written (keys, indices, keys
// that are empty or hold dots and brackets, YAML v2 maps, long runs).
func TestNormalizeErrorPaths(t *testing.T) {
	deep := any(int64(0))
	for range MaxDepth + 1 {
		deep = []any{deep}
	}
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"the value itself", math.NaN(), "value: NaN cannot be represented"},
		{"a key", map[string]any{"x": math.Inf(1)}, "x: +Inf cannot be represented"},
		{"an index", []any{int64(1), math.Inf(-1)}, "[1]: -Inf cannot be represented"},
		{"keys and indices", map[string]any{"params": map[string]any{"args": []any{"a", "b", uint64(math.MaxUint64)}}},
			"params.args[2]: 18446744073709551615 overflows int64"},
		{"a map in a list", []any{map[string]any{"k": []any{[]int{1}}}}, "[0].k[0]: []int is not a neutral value (want nil, bool, int64, float64, string, []any or map[string]any)"},
		{"an empty key", map[string]any{"a": map[string]any{"": uint(math.MaxUint64)}}, "a.: 18446744073709551615 overflows int64"},
		{"an empty key first", map[string]any{"": map[string]any{"b": float32(math.Inf(1))}}, "b: +Inf cannot be represented"},
		{"keys with dots and brackets", map[string]any{"a.b": map[string]any{"[c]": json.Number("1e999")}}, "a.b.[c]: number 1e999 is out of range"},
		{"a YAML v2 map", map[string]any{"y": map[any]any{"k": map[any]any{1: "x"}}}, "y.k: map key 1 is not a string"},
		{"a YAML v2 map with a long key", map[string]any{"y": map[any]any{[4096]int{}: "x"}}, "y: map key [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0… is not a string"},
		{"a run of steps", deep, "[0]×512: value nests deeper than 512 levels"},
	} {
		_, err := Normalize(c.v)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := Normalize(deep); !errors.Is(err, ErrTooDeep) {
		t.Errorf("too deep: %v does not wrap ErrTooDeep", err)
	}
	long := strings.Repeat("k", 1000)
	_, err := Normalize(map[string]any{long: []any{int64(0), math.NaN()}})
	if err == nil || !strings.HasSuffix(err.Error(), "…: NaN cannot be represented") || len(err.Error()) > maxPathName+64 {
		t.Errorf("under a long key: %.300v, want the path shortened", err)
	}
}

// TestNormalizeIsLinear checks that normalizing a list under a long key
// costs the same number of allocations whatever the list's length: the
// path of an element is written only for an error, not for every element
// (a 100 KiB key over 20,000 elements once took 2 GB of path strings).
func TestNormalizeIsLinear(t *testing.T) {
	key := strings.Repeat("k", 64<<10)
	allocs := func(n int) float64 {
		list := make([]any, n)
		for i := range list {
			list[i] = []any{int64(0), "s", true, 1.5, nil}[i%5]
		}
		v := map[string]any{key: map[string]any{"list": list}}
		return testing.AllocsPerRun(5, func() {
			if _, err := Normalize(v); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(100), allocs(10_000)
	if large != small || small > 8 {
		t.Errorf("normalizing 100 elements takes %v allocations, 10,000 take %v: want the same few", small, large)
	}
}
