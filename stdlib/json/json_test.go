package json

import (
	"math"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

func TestFunctions(t *testing.T) {
	m := New()
	tests := []struct {
		fn      string
		args    []any
		want    any
		wantErr string
	}{
		{"encode", []any{map[string]any{"b": int64(1), "a": []any{true, nil}}}, `{"a":[true,null],"b":1}`, ""},
		{"encode", []any{map[string]any{}}, `{}`, ""},
		{"encode", []any{[]any{}}, `[]`, ""},
		{"encode", []any{"<a&b>"}, `"<a&b>"`, ""},
		{"encode", []any{nil}, `null`, ""},
		{"encode", []any{[]any{int64(1)}, int64(2)}, "[\n  1\n]", ""},
		{"encode", []any{[]any{int64(1)}, float64(1)}, "[\n 1\n]", ""}, // a whole Lua number
		{"encode", []any{[]any{int64(1)}, int64(0)}, "[1]", ""},
		{"encode", []any{int64(1), int64(-1)}, nil, "argument 2 (indent): want 0 to 16"},
		{"encode", []any{int64(1), int64(17)}, nil, "argument 2 (indent): want 0 to 16"},
		{"encode", []any{int64(1), "2"}, nil, "argument 2 (indent): want integer, got string"},
		{"encode", []any{int64(1), 1.5}, nil, "argument 2 (indent): want integer"},
		{"encode", []any{map[string]any{"x": []any{math.NaN()}}}, nil, "x[0]: NaN cannot be represented"},
		{"encode", []any{map[string]any{"f": func() {}}}, nil, "f: func() is not a neutral value"},

		{"decode", []any{`{"a": [1, 2.5, "x"]}`}, map[string]any{"a": []any{int64(1), 2.5, "x"}}, ""},
		{"decode", []any{` null `}, nil, ""},
		{"decode", []any{`[]`}, []any{}, ""},
		{"decode", []any{"{\n  \"a\": }"}, nil, "line 2, column 8: found '}', want a value"},
		{"decode", []any{""}, nil, "line 1, column 1: found end of text, want a value"},
		{"decode", []any{nil}, nil, "argument 1 (text): want string, got nil"},
		{"decode", []any{int64(1)}, nil, "argument 1 (text): want string, got int"},
		{"decode", []any{map[string]any{}}, nil, "argument 1 (text): want string, got map"},
	}
	for _, tt := range tests {
		got, err := stdlibtest.Call(t, m, tt.fn, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s%v: error %v, want one containing %q", tt.fn, tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s%v: %v", tt.fn, tt.args, err)
			continue
		}
		if !stdlib.Equal(got, tt.want) {
			t.Errorf("%s%v = %#v, want %#v", tt.fn, tt.args, got, tt.want)
		}
	}
}

func TestModuleShape(t *testing.T) {
	m := New()
	if m.Name != "json" {
		t.Errorf("Name = %q", m.Name)
	}
	for _, f := range m.Funcs {
		if f.Impl == nil || f.Doc == "" || f.Blocking {
			t.Errorf("%s: Impl, Doc or Blocking not as expected", f.Name)
		}
	}
}
