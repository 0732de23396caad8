package re

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// How a search stays within the call's deadline.
//
// Go's regexp runs in time linear in the text, but the factor is the size
// of the compiled program: its NFA may step every instruction for every
// byte, so (a*)*…b repeated a hundred times over 4 MB is billions of
// steps (tens of seconds), and nothing in package regexp looks at a
// deadline. find_all, replace and split search again after each match,
// and each search may read to the end of the text, so their worst case
// is that times the number of searches.
//
// Each function therefore bounds its worst case before it starts:
// instructions × (bytes + 1) × searches. Within fastWork (a few
// milliseconds of the slowest matching) it uses regexp's string
// functions, with all their shortcuts, and cannot overrun the deadline
// by more than that. Past it, it searches through a RuneReader that looks
// at the call's context before each search and every checkWork
// instruction-steps within one, and ends the input once the call is
// interrupted, so the search stops soon after the
// deadline, whatever the pattern and text, and the function fails with
// the interrupt. Nothing is refused for being large: a large search is
// only slower (regexp skips to a literal prefix only on strings; here
// the reader path skips to it once per search) and interruptible.

const (
	// fastWork is the most instruction-steps a call may take through
	// regexp's string functions, which cannot be interrupted: at the
	// NFA's slowest (about 6 ns a step) some 6 ms.
	fastWork = 1 << 20
	// checkWork is how many instruction-steps the reader lets pass
	// between two looks at the context: well under a millisecond.
	checkWork = 1 << 16
	// sizeSlack covers what progSize may underestimate by.
	sizeSlack = 8
)

// A pattern is a compiled pattern and what searching it needs.
type pattern struct {
	re   *regexp.Regexp
	size int // estimated instructions (progSize)
	expr string

	// next matches one character and then the pattern as group 1: a
	// search from a position past 0 starts it one character earlier, so
	// that ^, \b and (?m)^ see the character before the position, as
	// regexp's own repeated searches do. Compiled on first use.
	nextOnce sync.Once
	next     *regexp.Regexp
	nextErr  error
}

func (p *pattern) continuation() (*regexp.Regexp, error) {
	p.nextOnce.Do(func() { p.next, p.nextErr = compileContinuation(p.expr) })
	if p.nextErr != nil {
		// Only a pattern at regexp's nesting limit gets here.
		return nil, fmt.Errorf("pattern too complex to search a long text past its first match: %w", p.nextErr)
	}
	return p.next, nil
}

// compileContinuation compiles (?s:.) followed by expr as group 1. It
// wraps expr's parsed tree rather than its source: in the source, an
// unclosed \Q makes everything after it literal, a closing parenthesis
// appended to it too, while the tree's String spells \Q… out as escaped
// literals and keeps the flags each part was parsed with.
func compileContinuation(expr string) (*regexp.Regexp, error) {
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	wrapped := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		{Op: syntax.OpAnyChar},
		{Op: syntax.OpCapture, Cap: 1, Sub: []*syntax.Regexp{tree}},
	}}
	return regexp.Compile(wrapped.String())
}

// work is the worst case of searches searches over text, in
// instruction-steps, saturating rather than overflowing.
func (p *pattern) work(text string, searches int) int {
	w := (p.size + sizeSlack) * (len(text) + 1)
	if searches > 1 && w > fastWork/searches {
		return fastWork + 1
	}
	return w * max(searches, 1)
}

// searchesOf bounds how many searches a function that stops after limit
// matches makes over text: each search but the last moves past at least
// one byte.
func searchesOf(text string, limit int) int {
	return min(limit, len(text)+1) + 1
}

// A searcher runs one function's searches over one text.
type searcher struct {
	ctx      context.Context
	p        *pattern
	text     string
	fastWork int // the module's, fastWork unless a test lowers it
}

// fast reports whether searches searches of the text fit in fastWork.
func (s *searcher) fast(searches int) bool {
	return s.p.work(s.text, searches) <= s.fastWork
}

// findAll returns at most limit successive matches, with their groups
// when groups is set.
func (s *searcher) findAll(limit int, groups bool) ([][]int, error) {
	switch {
	case !s.fast(searchesOf(s.text, limit)):
		return s.all(limit, groups)
	case groups:
		return s.p.re.FindAllStringSubmatchIndex(s.text, limit), nil
	default:
		return s.p.re.FindAllStringIndex(s.text, limit), nil
	}
}

// interrupted is the error of a search the call's interrupt ended at
// byte at of the text.
func (s *searcher) interrupted(at int, err error) error {
	return fmt.Errorf("stopped after matching %d of %d bytes: %w", at, len(s.text), err)
}

// find returns the leftmost match at or after pos (regexp's submatch
// index form; with groups only when groups is set), or nil.
func (s *searcher) find(pos int, groups bool) ([]int, error) {
	// Each reader looks at the context only every so many runes, so a
	// series of short searches (find_all of many small matches) looks
	// here, once per search.
	if err := s.ctx.Err(); err != nil {
		return nil, s.interrupted(pos, err)
	}
	if prefix, _ := s.p.re.LiteralPrefix(); prefix != "" {
		// Every match starts with the prefix, so the search may start at
		// its first occurrence.
		i := strings.Index(s.text[pos:], prefix)
		if i < 0 {
			return nil, nil
		}
		pos += i
	}
	re, start := s.p.re, pos
	if pos > 0 {
		var err error
		if re, err = s.p.continuation(); err != nil {
			return nil, err
		}
		_, w := utf8.DecodeLastRuneInString(s.text[:pos])
		start = pos - w
	}
	r := &reader{ctx: s.ctx, text: s.text, i: start, every: max(1, checkWork/(s.p.size+sizeSlack))}
	var loc []int
	switch {
	case groups || pos > 0:
		loc = re.FindReaderSubmatchIndex(r)
	default:
		loc = re.FindReaderIndex(r)
	}
	if r.err != nil {
		return nil, s.interrupted(r.i, r.err)
	}
	if loc == nil {
		return nil, nil
	}
	if pos > 0 {
		loc = loc[2:] // the continuation's group 1 is the pattern's match
	}
	if !groups {
		loc = loc[:2]
	}
	for i, v := range loc {
		if v >= 0 {
			loc[i] = v + start
		}
	}
	return loc, nil
}

// all returns the successive non-overlapping matches, at most limit of
// them, as regexp's FindAll functions define them: after an empty match
// the search moves on one character, and an empty match right where the
// previous match ended does not count.
func (s *searcher) all(limit int, groups bool) ([][]int, error) {
	var out [][]int
	prevEnd := -1
	for pos := 0; len(out) < limit && pos <= len(s.text); {
		loc, err := s.find(pos, groups)
		if err != nil || loc == nil {
			return out, err
		}
		accept := true
		if loc[1] == pos { // empty, at the search position
			accept = loc[0] != prevEnd
			if _, w := utf8.DecodeRuneInString(s.text[pos:]); w > 0 {
				pos += w
			} else {
				pos++
			}
		} else {
			pos = loc[1]
		}
		prevEnd = loc[1]
		if accept {
			out = append(out, loc)
		}
	}
	return out, nil
}

// A reader gives the text to regexp rune by rune and ends it early, with
// err set, once the call's context is done.
type reader struct {
	ctx   context.Context
	text  string
	i     int
	every int // runes between two looks at the context
	count int
	err   error
}

// ReadRune implements io.RuneReader, ending the text early once the
// context is done.
func (r *reader) ReadRune() (rune, int, error) {
	if r.count++; r.count >= r.every {
		r.count = 0
		if err := r.ctx.Err(); err != nil {
			r.err = err
			return 0, 0, io.EOF
		}
	}
	if r.i >= len(r.text) {
		return 0, 0, io.EOF
	}
	if c := r.text[r.i]; c < utf8.RuneSelf {
		r.i++
		return rune(c), 1, nil
	}
	c, w := utf8.DecodeRuneInString(r.text[r.i:])
	r.i += w
	return c, w, nil
}
