package eventcache

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// What formatEvents writes, parseEvents reads back entry for entry, and
// lookup finds every key and no other.
func TestEventsRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17, MaxEntries} {
		entries := map[string][]string{}
		for i := range n {
			key := keyOf(nil, fmt.Appendf(nil, "file %d", i))
			entries[key] = []string{"tool.execute.pre", fmt.Sprintf("claude.Event_%d", i)}[:1+i%2]
		}
		s, ok := parseEvents(formatEvents(entries))
		if !ok {
			t.Fatalf("%d entries: the file does not read back", n)
		}
		got := map[string][]string{}
		s.each(func(k string, evs []string) { got[k] = evs })
		if !maps.EqualFunc(got, entries, slices.Equal) {
			t.Fatalf("%d entries: read back %d, different", n, len(got))
		}
		for k, want := range entries {
			if evs, ok := s.lookup(k); !ok || !slices.Equal(evs, want) {
				t.Fatalf("lookup(%s) = %v, %v; want %v", k, evs, ok, want)
			}
		}
		for _, k := range []string{"", strings.Repeat("0", 64), strings.Repeat("f", 64), keyOf(nil, []byte("absent"))} {
			if evs, ok := s.lookup(k); ok {
				t.Fatalf("%d entries: lookup(%q) found %v", n, k, evs)
			}
		}
	}
}

// An entry the format cannot hold is left out, never written so that
// it reads back as something else.
func TestFormatEventsLeavesOutWhatItCannotHold(t *testing.T) {
	good := keyOf(nil, []byte("good"))
	entries := map[string][]string{
		good:                                   {"tool.execute.pre"},
		keyOf(nil, []byte("space")):            {"tool execute"},
		keyOf(nil, []byte("line")):             {"a\nb"},
		keyOf(nil, []byte("empty")):            {""},
		keyOf(nil, []byte("none")):             {},
		"not a key":                            {"tool.execute.pre"},
		strings.ToUpper(good[:10]) + good[10:]: {"tool.execute.pre"},
	}
	s, ok := parseEvents(formatEvents(entries))
	if !ok {
		t.Fatal("the file does not read back")
	}
	if len(s.lines) != 1 {
		t.Fatalf("kept %d entries, want the one good one", len(s.lines))
	}
	if evs, ok := s.lookup(good); !ok || !slices.Equal(evs, []string{"tool.execute.pre"}) {
		t.Fatalf("lookup(good) = %v, %v", evs, ok)
	}
}

// Whatever the file holds, reading it does not panic, and a file that
// reads is one formatEvents would write for what it holds.
func FuzzParseEvents(f *testing.F) {
	f.Add([]byte(eventsHeader))
	f.Add(formatEvents(map[string][]string{keyOf(nil, []byte("a")): {"tool.execute.pre", "turn.pre"}}))
	f.Add([]byte(eventsHeader + strings.Repeat("a", 64) + " x\n" + strings.Repeat("b", 64) + " y z\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, ok := parseEvents(data)
		if !ok {
			return
		}
		entries := map[string][]string{}
		s.each(func(k string, evs []string) {
			entries[k] = evs
			if got, ok := s.lookup(k); !ok || !slices.Equal(got, evs) {
				t.Fatalf("lookup(%q) = %v, %v; the line holds %v", k, got, ok, evs)
			}
		})
		if again := formatEvents(entries); string(again) != string(data) {
			t.Fatalf("read %q, which writes as %q", data, again)
		}
	})
}
