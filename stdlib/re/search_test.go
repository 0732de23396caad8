package re

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

// The interruptible search (the reader path of search.go) must find
// exactly what regexp's string functions find. These patterns and texts
// exercise what a search from a position past 0 could get wrong: anchors
// and word boundaries that look at the character before, empty matches,
// alternation priorities, literal prefixes, groups, non-ASCII and
// invalid UTF-8.
var (
	samePatterns = []string{
		`a`, `a*`, `x*`, ``, `^`, `$`, `^a`, `a$`, `\Aa`, `a\z`, `(?m)^a`, `(?m)a$`, `(?m)^`, `(?m)$`,
		`\b`, `\B`, `\ba`, `a\b`, `\bab\b`, `\Bb`, `a|ab`, `ab|a`, `a*b|a`, `ab+c`, `^abc`, `(?i)AB`,
		`(a)(b)?`, `(?P<x>a+)(?P<y>b*)`, `(a|(b))+`, `é`, `.`, `(?s).`, `[^a]`, `\xff`, `\x{FFFD}`,
		`a.c`, `(?U)a+`, `(a*)*b`, `\w+`, `\s*,\s*`, `(?m)^\w+$`,
		// \Q without \E quotes the rest of the pattern, so the
		// continuation must not be built by appending to the source.
		`\Qa.b`, `x\Q)(`, `\Q`, `(?i)\Qab`, `(?m)^\Qa.b`, `a\Q # )(`, `a # x`,
	}
	sameTexts = []string{
		"", "a", "b", "aaa", "ab", "abab", "abc abc", "xabcx ab", "ab\nab\na", "\nab\n\n", "é é", "aé a",
		"\xffa\xff", "a\xe2\x82b", "\xf0\xe2\x82\xacab", "foo bar_baz a,b , c", "aaab", "bbaab", "abcab\nabc",
		"a.b xa.b\na.bab", "x)(x)(x", "AB aB ab", "a # )(a # x",
	}
)

func TestReaderPathMatchesRegexp(t *testing.T) {
	ctx := context.Background()
	c := newCache()
	for _, pat := range samePatterns {
		p, err := c.get(pat)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(pat)
		for _, text := range sameTexts {
			s := &searcher{ctx: ctx, p: p, text: text} // fastWork 0: always the reader
			what := fmt.Sprintf("%q in %q", pat, text)
			if got, err := s.find(0, true); err != nil || !reflect.DeepEqual(got, re.FindStringSubmatchIndex(text)) {
				t.Errorf("%s: find %v, %v; regexp %v", what, got, err, re.FindStringSubmatchIndex(text))
			}
			if got, err := s.find(0, false); err != nil || !reflect.DeepEqual(got, re.FindStringIndex(text)) {
				t.Errorf("%s: find without groups %v, %v; regexp %v", what, got, err, re.FindStringIndex(text))
			}
			for _, n := range []int{-1, 0, 1, 2} {
				want := re.FindAllStringSubmatchIndex(text, n)
				got, err := s.all(limit(n), true)
				if err != nil || len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
					t.Errorf("%s: all(%d) %v, %v; regexp %v", what, n, got, err, want)
				}
				locs, _ := s.all(limit(n), false)
				if pieces := splitAt(pat != "", text, locs, limit(n)); !reflect.DeepEqual(pieces, re.Split(text, n)) {
					t.Errorf("%s: split(%d) %q; regexp %q", what, n, pieces, re.Split(text, n))
				}
			}
		}
	}
}

// TestFunctionsAgreeOnBothPaths calls every function through a module
// that always takes the reader path and one that takes the string path
// for small texts: the answers must be the same.
func TestFunctionsAgreeOnBothPaths(t *testing.T) {
	fast, slow := newModule(fastWork), newModule(0)
	calls := [][]any{
		{"match", `\bmain\b`, "git push origin main"}, {"match", `^rm`, "sudo rm"},
		{"find", `\d+`, "port 8080 and 443"}, {"find", `x*`, "abc"}, {"find", `\d`, "none"},
		{"find_groups", `(?P<user>\w+)@(\w+)`, "mail bob@example now"}, {"find_groups", `a(x)?(b)`, "ab"},
		{"find_all", `\d+`, "a1 b22 c333"}, {"find_all", `\d+`, "a1 b22 c333", int64(2)}, {"find_all", `\b`, "ab cd"},
		{"replace", `(\w+)@(\w+)`, "bob@example, al@home", "$2 at ${1}"}, {"replace", `\d`, "a1b2c3", "#", int64(2)},
		{"replace", `(?m)^`, "a\nb\n", "> "}, {"replace", `x*`, "abc", "-"},
		{"split", `\s*,\s*`, "a , b,c"}, {"split", `,`, "a,b,c", int64(2)}, {"split", `x*`, "abc"}, {"split", `,`, ""},
	}
	for _, args := range calls {
		fn := args[0].(string)
		want, werr := stdlibtest.Call(t, fast, fn, args[1:]...)
		got, gerr := stdlibtest.Call(t, slow, fn, args[1:]...)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s%q: reader path %#v, %v; string path %#v, %v", fn, args[1:], got, gerr, want, werr)
		}
	}
}

// catastrophe is the audit's pattern: a program of some 700 instructions
// that the NFA steps through entirely for every byte of a run of a's.
var catastrophe = strings.Repeat("(a*)*", 100) + "b"

// TestInterruptStopsSearch checks that every function stops a search the
// call's context ends, and fails with the interrupt: before, regexp's
// string functions ran to the end of the text (21 s for 4 MB here).
func TestInterruptStopsSearch(t *testing.T) {
	m := New()
	text := strings.Repeat("a", 400_000) // some 2 s of stepping uninterrupted
	for _, args := range [][]any{
		{"match", catastrophe, text}, {"find", catastrophe, text}, {"find_groups", catastrophe, text},
		{"find_all", catastrophe, text}, {"split", catastrophe, text}, {"replace", catastrophe, text, "x"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		f, _ := m.Lookup(args[0].(string))
		full := make([]any, len(f.Params))
		copy(full, args[1:])
		out, err := f.Impl(&stdlib.Call{Context: ctx, Hook: stdlibtest.Hook, Func: f, Args: full})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after matching") {
			t.Errorf("%s: %v, %v; want the interrupt's error", args[0], out, err)
		}
	}
}

// TestInterruptBetweenShortSearches checks that find_all, split and
// replace stop between searches too: each of many short searches reads
// fewer runes than its reader's interval between looks at the context.
func TestInterruptBetweenShortSearches(t *testing.T) {
	m := newModule(0) // always the reader
	text := strings.Repeat("a", 100_000)
	for _, args := range [][]any{{"find_all", "a", text}, {"split", "a", text}, {"replace", "a", text, "b"}} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		f, _ := m.Lookup(args[0].(string))
		full := make([]any, len(f.Params))
		copy(full, args[1:])
		if _, err := f.Impl(&stdlib.Call{Context: ctx, Hook: stdlibtest.Hook, Func: f, Args: full}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %.200v; want the interrupt's error", args[0], err)
		}
	}
}

// TestInterruptMidSearch ends the context while a search runs: the
// search must notice within a few look-ups, not at the end of the text.
func TestInterruptMidSearch(t *testing.T) {
	c := newCache()
	p, err := c.get(catastrophe)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	text := strings.Repeat("a", 4_000_000)
	s := &searcher{ctx: ctx, p: p, text: text, fastWork: fastWork}
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = s.find(0, false)
	var stopped int
	if _, scanErr := fmt.Sscanf(errString(err), "stopped after matching %d of", &stopped); scanErr != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the interrupt's error", err)
	}
	if stopped >= len(text) {
		t.Errorf("the search read all %d bytes before it stopped", stopped)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestWorkBound checks the estimate that picks the path: small searches
// take the string path, large or repeated ones the reader, and the
// product saturates instead of overflowing.
func TestWorkBound(t *testing.T) {
	c := newCache()
	small, _ := c.get(`\bmain\b`)
	big, _ := c.get(catastrophe)
	for _, tc := range []struct {
		p        *pattern
		text     int
		searches int
		fast     bool
	}{
		{small, 80, 1, true}, {small, 80, searchesOf(strings.Repeat("x", 80), MaxResults+1), true},
		{small, 4 << 20, 1, false}, {big, 1000, 1, true}, {big, 100_000, 1, false},
		{big, 1000, MaxResults + 1, false}, {big, MaxText, MaxResults + 1, false},
	} {
		s := &searcher{p: tc.p, text: strings.Repeat("a", tc.text), fastWork: fastWork}
		if got := s.fast(tc.searches); got != tc.fast {
			t.Errorf("size %d, %d bytes, %d searches: fast %v, want %v", tc.p.size, tc.text, tc.searches, got, tc.fast)
		}
	}
}

// FuzzReaderPath compares the reader path with regexp's string functions
// on any pattern that compiles and any text.
func FuzzReaderPath(f *testing.F) {
	for i, p := range samePatterns {
		f.Add(p, sameTexts[i%len(sameTexts)])
	}
	f.Fuzz(func(t *testing.T, pat, text string) {
		if len(text) > 1<<10 {
			return
		}
		p, err := newCache().get(pat)
		if err != nil {
			return
		}
		s := &searcher{ctx: context.Background(), p: p, text: text}
		want := p.re.FindAllStringSubmatchIndex(text, -1)
		got, err := s.all(limit(-1), true)
		if err != nil || len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in %q: reader path %v, %v; regexp %v", pat, text, got, err, want)
		}
	})
}
