package re

import (
	"fmt"
	"regexp"

	"github.com/hookhost/hookhost/stdlib"
)

// Limits on texts and results. Matching takes time linear in the text,
// and results are bounded so that no call allocates without bound.
const (
	// MaxText is the longest text (and replacement) accepted, and the
	// longest string replace or escape returns, in bytes.
	MaxText = 4 << 20
	// MaxResults is the most matches find_all and replace handle, and the
	// most pieces split returns. Past it they fail rather than silently
	// drop results; a script that wants fewer passes n.
	MaxResults = 1 << 16
)

// New returns the re module. Each module owns a cache of compiled
// patterns (see CacheEntries) and is safe for concurrent use.
func New() stdlib.Module { return newModule(fastWork) }

// newModule is New with the work past which searches take the
// interruptible path (see search.go); tests pass 0 to take it always.
func newModule(fast int) stdlib.Module {
	m := &module{cache: newCache(), fastWork: fast}
	p, o := stdlib.P, stdlib.Opt
	return stdlib.Module{
		Name: "re",
		Doc:  "regular expressions (Go RE2 syntax, linear time)",
		Funcs: []stdlib.Func{
			{Name: "match", Params: []stdlib.Param{p("pattern"), p("text")}, Impl: m.match,
				Doc: "whether pattern matches anywhere in text"},
			{Name: "find", Params: []stdlib.Param{p("pattern"), p("text")}, Impl: m.find,
				Doc: "the first match of pattern in text, or nil"},
			{Name: "find_groups", Params: []stdlib.Param{p("pattern"), p("text")}, Impl: m.findGroups,
				Doc: "the first match as {match, groups, named}, or nil"},
			{Name: "find_all", Params: []stdlib.Param{p("pattern"), p("text"), o("n")}, Impl: m.findAll,
				Doc: "a list of the matches of pattern in text, at most n when n >= 0"},
			{Name: "replace", Params: []stdlib.Param{p("pattern"), p("text"), p("repl"), o("n")}, Impl: m.replace,
				Doc: "text with matches replaced by repl ($1, ${name} expand), the first n when n >= 0"},
			{Name: "split", Params: []stdlib.Param{p("pattern"), p("text"), o("n")}, Impl: m.split,
				Doc: "text split around the matches of pattern, into at most n pieces when n >= 0"},
			{Name: "escape", Params: []stdlib.Param{p("text")}, Impl: escape,
				Doc: "text with every regexp metacharacter escaped"},
		},
	}
}

// module holds what the functions share: the pattern cache, and the
// work past which a search goes through the interruptible reader (see
// search.go), which tests lower to test that path.
type module struct {
	cache    *cache
	fastWork int
}

// args reads the (pattern, text) every function but escape starts with,
// and compiles the pattern.
func (m *module) args(c *stdlib.Call) (searcher, error) {
	pattern, err := c.String(0)
	if err != nil {
		return searcher{}, err
	}
	text, err := c.String(1)
	if err != nil {
		return searcher{}, err
	}
	if len(text) > MaxText {
		return searcher{}, fmt.Errorf("argument 2 (text): %d bytes, longer than %d", len(text), MaxText)
	}
	p, err := m.cache.get(pattern)
	if err != nil {
		return searcher{}, err
	}
	return searcher{ctx: c.Context, p: p, text: text, fastWork: m.fastWork}, nil
}

// count reads the optional argument n: absent or negative means no limit.
func count(c *stdlib.Call, i int) (int, error) {
	n, err := c.OptInt(i, -1)
	if err != nil {
		return 0, err
	}
	return int(max(min(n, MaxResults+1), -1)), nil
}

func (m *module) match(c *stdlib.Call) (any, error) {
	s, err := m.args(c)
	if err != nil {
		return nil, err
	}
	if s.fast(1) {
		return s.p.re.MatchString(s.text), nil
	}
	loc, err := s.find(0, false)
	return loc != nil, err
}

func (m *module) find(c *stdlib.Call) (any, error) {
	s, err := m.args(c)
	if err != nil {
		return nil, err
	}
	var loc []int
	if s.fast(1) {
		loc = s.p.re.FindStringIndex(s.text)
	} else if loc, err = s.find(0, false); err != nil {
		return nil, err
	}
	if loc == nil {
		return nil, nil
	}
	return s.text[loc[0]:loc[1]], nil
}

func (m *module) findGroups(c *stdlib.Call) (any, error) {
	s, err := m.args(c)
	if err != nil {
		return nil, err
	}
	var match []int
	if s.fast(1) {
		match = s.p.re.FindStringSubmatchIndex(s.text)
	} else if match, err = s.find(0, true); err != nil {
		return nil, err
	}
	if match == nil {
		return nil, nil
	}
	re, text := s.p.re, s.text
	groups := make([]any, re.NumSubexp())
	for i := range groups {
		groups[i] = group(text, match, i+1)
	}
	return map[string]any{"match": group(text, match, 0), "groups": groups, "named": named(re, text, match)}, nil
}

// named maps each group name of re to its text in match. When several
// groups share a name, the first that took part wins, as in replace's
// ${name}.
func named(re *regexp.Regexp, text string, match []int) map[string]any {
	chosen := map[string]int{}
	for i, name := range re.SubexpNames() {
		if j, ok := chosen[name]; name != "" && (!ok || match[2*j] < 0 && match[2*i] >= 0) {
			chosen[name] = i
		}
	}
	out := make(map[string]any, len(chosen))
	for name, i := range chosen {
		out[name] = group(text, match, i)
	}
	return out
}

// group returns the text of group i of match, or "" when it took no part.
func group(text string, match []int, i int) string {
	if match[2*i] < 0 {
		return ""
	}
	return text[match[2*i]:match[2*i+1]]
}

// argsN reads (pattern, text, n?) for find_all and split, and finds the
// matches: at most n when n >= 0, and one past MaxResults at most.
func (m *module) argsN(c *stdlib.Call) (searcher, [][]int, int, error) {
	s, err := m.args(c)
	if err != nil {
		return s, nil, 0, err
	}
	n, err := count(c, 2)
	if err != nil {
		return s, nil, 0, err
	}
	locs, err := s.findAll(limit(n), false)
	return s, locs, n, err
}

func (m *module) findAll(c *stdlib.Call) (any, error) {
	s, locs, _, err := m.argsN(c)
	if err != nil {
		return nil, err
	}
	if len(locs) > MaxResults {
		return nil, fmt.Errorf("more than %d matches (pass n to take fewer)", MaxResults)
	}
	out := make([]any, len(locs))
	for i, loc := range locs {
		out[i] = s.text[loc[0]:loc[1]]
	}
	return out, nil
}

// limit turns n (negative: no limit) into a bound on the matches to find
// that stops one past MaxResults, so that going past it is detected
// without doing all the work.
func limit(n int) int {
	if n < 0 {
		return MaxResults + 1
	}
	return n
}

func (m *module) split(c *stdlib.Call) (any, error) {
	s, locs, n, err := m.argsN(c)
	if err != nil {
		return nil, err
	}
	pieces := splitAt(s.p.re.String() != "", s.text, locs, limit(n))
	if len(pieces) > MaxResults {
		return nil, fmt.Errorf("more than %d pieces (pass n to take fewer)", MaxResults)
	}
	out := make([]any, len(pieces))
	for i, p := range pieces {
		out[i] = p
	}
	return out, nil
}

// splitAt cuts text around matches (found with the same n) into at most
// n pieces, the last holding the rest of the text, as regexp's Split
// does: an empty match at the very start cuts nothing, and an empty
// text is one empty piece unless the pattern is empty too.
func splitAt(nonEmpty bool, text string, matches [][]int, n int) []string {
	switch {
	case n == 0:
		return nil
	case nonEmpty && text == "":
		return []string{""}
	}
	pieces := make([]string, 0, len(matches)+1)
	start, end := 0, 0
	for _, m := range matches {
		if len(pieces) == n-1 {
			break
		}
		end = m[0]
		if m[1] != 0 {
			pieces = append(pieces, text[start:end])
		}
		start = m[1]
	}
	if end != len(text) {
		pieces = append(pieces, text[start:])
	}
	return pieces
}

func escape(c *stdlib.Call) (any, error) {
	text, err := c.String(0)
	if err != nil {
		return nil, err
	}
	// Escaping at most doubles the text.
	if len(text) > MaxText/2 {
		return nil, fmt.Errorf("argument 1 (text): %d bytes, longer than %d", len(text), MaxText/2)
	}
	return regexp.QuoteMeta(text), nil
}
