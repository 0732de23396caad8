package re

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Limits on patterns and on the cache of compiled patterns.
const (
	// MaxPattern is the longest pattern accepted, in bytes.
	MaxPattern = 4 << 10
	// MaxProgram bounds the size of one compiled pattern, in RE2
	// instructions (tens of bytes each). Counted repetition multiplies
	// size: a{1000} is a thousand instructions, so a 4 KiB pattern could
	// otherwise compile to megabytes.
	MaxProgram = 16 << 10
	// CacheEntries is how many compiled patterns a module keeps.
	CacheEntries = 256
	// cacheBudget bounds the instructions of all cached patterns together,
	// so the cache stays within a few tens of megabytes however large its
	// patterns are (a pattern's continuation, compiled only when a long
	// text is searched past a first match, at most doubles its share).
	cacheBudget = 1 << 20
)

// A PatternError reports a pattern that does not compile, or is too large.
type PatternError struct {
	Pattern string
	Err     error
}

// Error names the pattern and what is wrong with it, with a hint when the
// pattern uses syntax RE2 lacks.
func (e *PatternError) Error() string {
	msg := e.Err.Error()
	var se *syntax.Error
	if errors.As(e.Err, &se) {
		// Go's message repeats the whole pattern; keep only the part that
		// points at the problem.
		msg = string(se.Code)
		if se.Expr != e.Pattern {
			msg += ": " + showPattern(se.Expr)
		}
		msg += hint(e.Pattern)
	}
	return fmt.Sprintf("bad pattern %s: %s", showPattern(e.Pattern), msg)
}

// Unwrap gives regexp's error.
func (e *PatternError) Unwrap() error { return e.Err }

// hint explains the usual cause when a pattern uses Perl syntax that
// RE2 leaves out on purpose, since it cannot be matched in linear time.
func hint(pattern string) string {
	for _, look := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
		if strings.Contains(pattern, look) {
			return " (RE2 has no lookahead or lookbehind)"
		}
	}
	for d := '1'; d <= '9'; d++ {
		if strings.Contains(pattern, `\`+string(d)) {
			return " (RE2 has no backreferences)"
		}
	}
	return ""
}

// showPattern quotes a pattern for an error message, preferring
// backquotes so that backslashes read as the script author wrote them,
// and shortens a long one.
func showPattern(p string) string {
	if utf8.RuneCountInString(p) > 64 {
		p = string([]rune(p)[:64]) + "…"
	}
	if strconv.CanBackquote(p) {
		return "`" + p + "`"
	}
	return strconv.Quote(p)
}

// compile compiles pattern within the limits, and returns its estimated
// size in instructions.
func compile(pattern string) (*regexp.Regexp, int, error) {
	if len(pattern) > MaxPattern {
		return nil, 0, &PatternError{pattern, fmt.Errorf("pattern is %d bytes, longer than %d", len(pattern), MaxPattern)}
	}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, 0, &PatternError{pattern, err}
	}
	// Estimate before compiling, so that an oversized pattern is refused
	// without building it.
	size := progSize(tree)
	if size > MaxProgram {
		return nil, 0, &PatternError{pattern, fmt.Errorf("pattern compiles to more than %d instructions (counted repetition such as {1000} multiplies size)", MaxProgram)}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, 0, &PatternError{pattern, err}
	}
	return re, size, nil
}

// progSize estimates how many instructions re compiles to, as
// regexp/syntax's own size check does, saturating past MaxProgram.
func progSize(re *syntax.Regexp) int {
	var size int
	switch re.Op {
	case syntax.OpLiteral:
		size = len(re.Rune)
	case syntax.OpCapture, syntax.OpStar:
		size = 2 + progSize(re.Sub[0])
	case syntax.OpPlus, syntax.OpQuest:
		size = 1 + progSize(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		size = len(re.Sub)
		for _, sub := range re.Sub {
			size += progSize(sub)
		}
	case syntax.OpRepeat:
		sub := progSize(re.Sub[0])
		switch {
		case re.Max < 0 && re.Min == 0: // x*
			size = 2 + sub
		case re.Max < 0: // x{2,} is xx+
			size = 1 + re.Min*sub
		default: // x{2,5} is xx(x(x(x)?)?)?
			size = re.Max*sub + re.Max - re.Min
		}
	}
	return min(max(size, 1), MaxProgram+1)
}

// A cache holds compiled patterns: at most CacheEntries of them and
// cacheBudget instructions in all. When full it forgets the oldest
// entries first: simple, and a guardrail's patterns are few and
// constant, so they stay cached. It is safe for concurrent use.
type cache struct {
	mu      sync.RWMutex
	entries map[string]*pattern
	order   []string // keys of entries, oldest first
	cost    int      // the sum of the entries' sizes
}

func newCache() *cache {
	return &cache{entries: make(map[string]*pattern)}
}

// get returns pattern compiled, from the cache when it is there.
func (c *cache) get(expr string) (*pattern, error) {
	c.mu.RLock()
	e, ok := c.entries[expr]
	c.mu.RUnlock()
	if ok {
		return e, nil
	}
	// Compile outside the lock; two goroutines may both compile a new
	// pattern, and the second simply finds it cached.
	re, size, err := compile(expr)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addLocked(&pattern{re: re, size: size, expr: strings.Clone(expr)}), nil
}

// addLocked caches e unless its pattern is cached already, and returns
// the cached one.
func (c *cache) addLocked(e *pattern) *pattern {
	if old, ok := c.entries[e.expr]; ok {
		return old
	}
	for len(c.order) > 0 && (len(c.order) >= CacheEntries || c.cost+e.size > cacheBudget) {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.cost -= c.entries[oldest].size
		delete(c.entries, oldest)
	}
	c.entries[e.expr] = e
	c.order = append(c.order, e.expr)
	c.cost += e.size
	return e
}

// len returns the number of cached patterns, for tests.
func (c *cache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
