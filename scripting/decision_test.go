package scripting

import (
	"errors"
	"slices"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// build calls one constructor of the hook module with neutral arguments.
func build(t *testing.T, name string, args ...any) *Decision {
	t.Helper()
	m := HookModule()
	for i := range m.Funcs {
		f := &m.Funcs[i]
		if f.Name != name {
			continue
		}
		c := NewModuleCall(f)
		copy(c.Args, args)
		out, err := f.Impl(c)
		if err != nil {
			t.Fatalf("hook.%s: %v", name, err)
		}
		return out.(*Decision)
	}
	t.Fatalf("no constructor %s", name)
	return nil
}

// A decision kept in fields reads like the map a script could have
// written: the same keys, values, size and depth.
func TestDecisionReadsLikeItsMap(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *Decision
		want map[string]any
	}{
		{"deny", build(t, "deny", "no"), map[string]any{"action": "deny", "reason": "no"}},
		{"allow", build(t, "allow"), map[string]any{"action": "allow"}},
		{"ask", build(t, "ask", "why", map[string]any{"title": "t"}), map[string]any{"action": "ask", "reason": "why", "approval": map[string]any{"title": "t"}}},
		{"modify", build(t, "modify", map[string]any{"x": []any{int64(1)}}), map[string]any{"action": "modify", "fields": map[string]any{"x": []any{int64(1)}}}},
		{"respond", build(t, "respond", "r"), map[string]any{"action": "respond", "result": "r"}},
		{"message", build(t, "message", "hi"), map[string]any{"messages": []any{map[string]any{"role": "system", "content": "hi"}}}},
		{"stop", build(t, "stop"), map[string]any{"stop": true}},
		{"stop of a map", build(t, "stop", map[string]any{"action": "deny", "odd": int64(1)}), map[string]any{"action": "deny", "odd": int64(1), "stop": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.Map(); !stdlib.Equal(got, tc.want) {
				t.Fatalf("Map() = %v, want %v", got, tc.want)
			}
			if got, want := tc.d.Keys(), stdlib.SortedKeys(tc.want); !slices.Equal(got, want) {
				t.Errorf("Keys() = %v, want %v", got, want)
			}
			for k, v := range tc.want {
				if got, ok := tc.d.Field(k); !ok || !stdlib.Equal(got, v) {
					t.Errorf("Field(%q) = %v, %v, want %v", k, got, ok, v)
				}
			}
			if _, ok := tc.d.Field("nothing"); ok {
				t.Error(`Field("nothing") is found`)
			}
			size, depth := measure(tc.want)
			if tc.d.size != size || tc.d.Depth() != depth {
				t.Errorf("size %d, depth %d; want %d, %d (as the map's)", tc.d.size, tc.d.Depth(), size, depth)
			}
			if got := AsNeutral(tc.d); !stdlib.Equal(got, tc.want) {
				t.Errorf("AsNeutral = %v", got)
			}
		})
	}
}

// A decision a call built is returned as it is; a shared one that holds
// only strings too, since nothing changes strings; a shared one holding
// containers is copied, charged, so that no two results share them.
func TestDecisionReturn(t *testing.T) {
	free := func(int64) error { return nil }
	d := build(t, "deny", "x")
	if got, _ := d.Return(free); got != d {
		t.Error("a decision the call built was copied")
	}
	d.Share()
	if got, _ := d.Return(func(int64) error { t.Error("a string-only decision was charged"); return nil }); got != d {
		t.Error("a shared decision of strings was copied")
	}
	r := build(t, "respond", map[string]any{"hits": []any{int64(1)}})
	r.Share()
	charged := int64(0)
	got, err := r.Return(func(n int64) error { charged += n; return nil })
	if err != nil || got == r || charged != r.size {
		t.Fatalf("Return of a shared respond: %p (the original %p), %v, charged %d of %d", got, r, err, charged, r.size)
	}
	res, _ := got.Field("result")
	res.(map[string]any)["hits"].([]any)[0] = "changed"
	if orig, _ := r.Field("result"); orig.(map[string]any)["hits"].([]any)[0] != int64(1) {
		t.Error("changing the copy changed the shared decision")
	}
	limit := errors.New("over")
	if _, err := r.Return(func(int64) error { return limit }); !errors.Is(err, limit) {
		t.Errorf("Return past the budget: %v", err)
	}
}
