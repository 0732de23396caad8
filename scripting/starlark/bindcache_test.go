package starlark

import (
	"slices"
	"strings"
	"testing"
	"unsafe"

	"go.starlark.net/starlark"
)

// A string bound at the place where the last call bound an equal one
// reuses its box; any other string is boxed anew and is what it says.
func TestStringCacheReusesOnlyEqualStrings(t *testing.T) {
	long := strings.Repeat("x", maxCachedString+1)
	cases := []struct {
		name      string
		last, now []string
		reused    []bool
	}{
		{"same strings", []string{"bash", "command"}, []string{"bash", "command"}, []bool{true, true}},
		{"another value", []string{"bash", "ls"}, []string{"bash", "rm"}, []bool{true, false}},
		{"equal string elsewhere", []string{"a", "b"}, []string{"b", "a"}, []bool{false, false}},
		{"shorter call", []string{"a", "b"}, []string{"a"}, []bool{true}},
		{"longer call", []string{"a"}, []string{"a", "b"}, []bool{true, false}},
		{"too long to keep", []string{long}, []string{long}, []bool{false}},
		{"empty string", []string{""}, []string{""}, []bool{true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var sc stringCache
			sc.start()
			var last []starlark.Value
			for _, s := range tc.last {
				last = append(last, sc.box(s))
			}
			sc.start()
			for i, s := range tc.now {
				v := sc.box(s)
				if got, ok := v.(starlark.String); !ok || string(got) != s {
					t.Fatalf("box(%q) = %v", s, v)
				}
				reused := i < len(last) && sameBox(v, last[i])
				if reused != tc.reused[i] {
					t.Errorf("string %d (%.10q): reused = %v, want %v", i, s, reused, tc.reused[i])
				}
			}
		})
	}
}

// Past cachedStrings places, strings are boxed and not kept.
func TestStringCacheBoundsWhatItKeeps(t *testing.T) {
	var sc stringCache
	for round := 0; round < 2; round++ {
		sc.start()
		for i := 0; i < cachedStrings+5; i++ {
			if v := sc.box("s"); v != starlark.String("s") {
				t.Fatalf("box = %v", v)
			}
		}
	}
	if sc.next != cachedStrings {
		t.Fatalf("next = %d, want %d", sc.next, cachedStrings)
	}
	var nilCache *stringCache
	if v := nilCache.box("s"); v != starlark.String("s") {
		t.Fatalf("a nil cache boxed %v", v)
	}
}

// Reusing a box allocates nothing.
func TestStringCacheReuseAllocatesNothing(t *testing.T) {
	var sc stringCache
	sc.start()
	sc.box("bash")
	if n := testing.AllocsPerRun(100, func() { sc.start(); _ = sc.box("bash") }); n != 0 {
		t.Fatalf("reusing a box allocated %v times", n)
	}
}

// sameBox reports whether two values share one box (the same string
// header in memory), not only equal contents.
func sameBox(a, b starlark.Value) bool {
	type iface struct{ typ, data unsafe.Pointer }
	return (*iface)(unsafe.Pointer(&a)).data == (*iface)(unsafe.Pointer(&b)).data
}

// sortedKeys gives a map's keys sorted and their values, whether it finds
// them from the last call's map at the same place or sorts afresh.
func TestKeyCacheGivesSortedKeysAndValues(t *testing.T) {
	cases := []struct {
		name      string
		last, now map[string]any
		reused    bool
	}{
		{"same keys", map[string]any{"b": 1, "a": 2}, map[string]any{"a": 3, "b": 4}, true},
		{"one key changed", map[string]any{"b": 1, "a": 2}, map[string]any{"a": 3, "c": 4}, false},
		{"a key more", map[string]any{"a": 1}, map[string]any{"a": 1, "b": 2}, false},
		{"a key fewer", map[string]any{"a": 1, "b": 2}, map[string]any{"b": 2}, false},
		{"empty", map[string]any{}, map[string]any{}, true},
		{"too many to keep", manyKeys(reusedDictLen + 1), manyKeys(reusedDictLen + 1), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var kc keyCache
			var buf [reusedDictLen]any
			kc.start()
			kc.sortedKeys(tc.last, buf[:])
			kc.start()
			keys, vals := kc.sortedKeys(tc.now, buf[:])
			if want := sortKeys(tc.now, nil); !slices.Equal(keys, want) {
				t.Fatalf("keys = %q, want %q", keys, want)
			}
			if (vals != nil) != tc.reused {
				t.Fatalf("reused the last keys = %v, want %v", vals != nil, tc.reused)
			}
			for i, k := range keys {
				if vals != nil && vals[i] != tc.now[k] {
					t.Fatalf("value of %q = %v, want %v", k, vals[i], tc.now[k])
				}
			}
		})
	}
}

// Each place keeps its own keys: two maps bound in one call, in turn.
func TestKeyCacheKeepsKeysByPlace(t *testing.T) {
	var kc keyCache
	var buf [reusedDictLen]any
	first, second := map[string]any{"command": "ls"}, map[string]any{"path": "/tmp", "mode": "w"}
	for round := 0; round < 3; round++ {
		kc.start()
		k1, v1 := kc.sortedKeys(first, buf[:])
		if !slices.Equal(k1, []string{"command"}) || (round > 0) != (v1 != nil) {
			t.Fatalf("round %d: first map: %q %v", round, k1, v1)
		}
		k2, v2 := kc.sortedKeys(second, buf[:])
		if !slices.Equal(k2, []string{"mode", "path"}) || (round > 0) != (v2 != nil) {
			t.Fatalf("round %d: second map: %q %v", round, k2, v2)
		}
	}
}

func manyKeys(n int) map[string]any {
	m := map[string]any{}
	for i := 0; i < n; i++ {
		m[string(rune('a'+i))] = int64(i)
	}
	return m
}
