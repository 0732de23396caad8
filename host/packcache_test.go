package host

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host/neutralcodec"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/programtest"
)

// Through a program cache, a front matter comes back from the cache as
// parsing gave it (config kinds included: ints, floats, nulls, nesting),
// the second time without parsing; a bad one is never kept, so it is
// reported every time.
func TestPackMetaCached(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"shipped-like", guardsManifest},
		{"no config", "---\nname: n\n---\n"},
		{"empty config", "---\nconfig: {}\n---\n"},
		{"null config", "---\nconfig: ~\n---\n"},
		{"kinds", "---\nconfig:\n  i: 3\n  f: 2.0\n  big: 9007199254740993\n  n: null\n  s: \"3\"\n  b: false\n  l: [1, 1.5, x, [~]]\n  m: {k: {j: -0.0}}\n---\n"},
		{"behaviors", "---\nenabled: false\nerror_behavior: deny\ntimeout_behavior: skip\nversion: 1\n---\n"},
		{"default name", "---\ndescription: d\n---\nbody\n---\n"},
		{"crlf", "---\r\nname: x\r\n---\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := parsePackMeta("p/HOOK.md", "p", []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			cache := &programtest.MemPrograms{}
			for round := range 2 {
				got, err := packMetaCached(cache, "p/HOOK.md", "p", []byte(tc.data))
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d: %#v, %v\nwant %#v", round, got, err, want)
				}
			}
			if gets, puts := cache.Counts(); gets != 2 || puts != 1 {
				t.Errorf("%d gets, %d puts: want 2 and 1 (parsed once, then read back)", gets, puts)
			}
			// The second round read the entry, not the YAML: an entry
			// saying otherwise is what comes back.
			key := cache.Keys()[0]
			other := *want
			other.name = "from the cache"
			enc, err := encodePackMeta(&other)
			if err != nil {
				t.Fatal(err)
			}
			cache.Set(key, scripting.Seal(enc))
			if got, _ := packMetaCached(cache, "p/HOOK.md", "p", []byte(tc.data)); got.name != "from the cache" {
				t.Errorf("name %q: the entry was not used", got.name)
			}
			// The same fields in another pack's directory are another
			// entry: the directory is the default name.
			if packMetaKey("q", []byte(tc.data)) == packMetaKey("p", []byte(tc.data)) {
				t.Error("two directories share a key")
			}
		})
	}
}

// A damaged or foreign entry is parsed again, and replaced; a HOOK.md that
// fails is never kept.
func TestPackMetaCacheDamage(t *testing.T) {
	data := []byte(guardsManifest)
	want, _ := parsePackMeta("p/HOOK.md", "p", data)
	front, _ := frontMatter("p/HOOK.md", data)
	key := packMetaKey("p", front)
	for name, entry := range map[string][]byte{
		"unsealed":        []byte("junk"),
		"bad seal":        append(make([]byte, scripting.SealSize), 'n'),
		"not a map":       scripting.Seal(append(make([]byte, scripting.SealSize), 'n')),
		"wrong kind":      sealed(t, map[string]any{"name": int64(1), "description": "", "version": "", "enabled": true, "error_behavior": "", "timeout_behavior": ""}),
		"unknown verdict": sealed(t, map[string]any{"name": "n", "description": "", "version": "", "enabled": true, "error_behavior": "maybe", "timeout_behavior": ""}),
		"field missing":   sealed(t, map[string]any{"name": "n", "description": "", "version": "", "enabled": true, "error_behavior": ""}),
		"field extra":     sealed(t, map[string]any{"name": "n", "description": "", "version": "", "enabled": true, "error_behavior": "", "timeout_behavior": "", "x": true}),
		"config a list":   sealed(t, map[string]any{"name": "n", "description": "", "version": "", "enabled": true, "error_behavior": "", "timeout_behavior": "", "config": []any{}}),
	} {
		cache := &programtest.MemPrograms{}
		cache.Set(key, entry)
		got, err := packMetaCached(cache, "p/HOOK.md", "p", data)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %#v, %v", name, got, err)
		}
		if _, puts := cache.Counts(); puts != 1 {
			t.Errorf("%s: the damaged entry was not replaced", name)
		}
	}
	cache := &programtest.MemPrograms{}
	for range 2 {
		if _, err := packMetaCached(cache, "p/HOOK.md", "p", []byte("---\nenabled: maybe\n---\n")); err == nil || !strings.HasPrefix(err.Error(), "p/HOOK.md:2:") {
			t.Fatalf("a bad HOOK.md: %v", err)
		}
	}
	if _, puts := cache.Counts(); puts != 0 {
		t.Errorf("a bad HOOK.md was kept")
	}
}

func sealed(t *testing.T, m map[string]any) []byte {
	t.Helper()
	b, err := neutralcodec.Append(make([]byte, scripting.SealSize), m)
	if err != nil {
		t.Fatal(err)
	}
	return scripting.Seal(b)
}

// A host given a program cache keeps its packs' front matter there: the
// next host on the same directory reads it back and shows the same packs.
func TestHostKeepsPackMeta(t *testing.T) {
	cache := &programtest.MemPrograms{}
	var packs [2][]PackStatus
	for i := range packs {
		h, err := New(context.Background(), Options{FS: packFS(goodAndBadPacks), Programs: cache})
		if err != nil {
			t.Fatal(err)
		}
		packs[i] = h.Status().Packs
		h.Close()
	}
	if !reflect.DeepEqual(packs[0], packs[1]) {
		t.Errorf("packs differ:\n%+v\n%+v", packs[0], packs[1])
	}
	var kept int
	for _, k := range cache.Keys() {
		if strings.HasPrefix(k, "pack-") {
			kept++
		}
	}
	if kept != 1 {
		t.Errorf("%d front matters kept, want the good one only (%q)", kept, cache.Keys())
	}
}
