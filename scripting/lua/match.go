package lua

import (
	"errors"
	"fmt"
)

// A Lua 5.1 pattern matcher of hookhost's own. Lua patterns backtrack: a
// pattern with k quantifiers may take time proportional to n^(k+1) on a
// subject of n bytes. gopher-lua's matcher runs that inside one Go call no
// interrupt reaches, so a runaway match could only be abandoned, its
// goroutine left to finish. This one counts its steps and looks at the
// call's interrupt every few thousand, so a match stops at the deadline
// like any Lua code, and it allocates nothing while it searches.
//
// It follows the Lua 5.1 reference manual (§5.4.1): single-character
// classes (., %a %c %d %l %p %s %u %w %x %z and their complements, %x for
// a non-alphanumeric x, [set] and [^set] with ranges and classes), the
// quantifiers * + - ?, anchors ^ and $, captures ( ) and position
// captures (), back-references %1–%9, %bxy and the frontier %f[set].

// maxCaptures is how many captures a pattern may have, as in Lua.
const maxCaptures = 32

// maxMatchDepth bounds the matcher's recursion (one level per pattern
// item that can backtrack), as Lua's C stack does.
const maxMatchDepth = 200

// matchCheckEvery is how many steps the matcher takes between two looks
// at the interrupt.
const matchCheckEvery = 4096

// Capture lengths that are not lengths.
const (
	capUnfinished = -1
	capPosition   = -2
)

type capture struct{ start, len int }

// A match is where a pattern matched and what it captured.
type match struct {
	start, end int
	caps       []capture
}

// errMatchInterrupted stops a match whose call was interrupted.
var errMatchInterrupted = errors.New("interrupted")

// A patternError is a malformed pattern.
type patternError struct{ msg string }

// Error is the message, worded after Lua's own where Lua has one.
func (e *patternError) Error() string { return e.msg }

type matcher struct {
	src, pat string
	level    int
	caps     [maxCaptures]capture
	depth    int
	steps    int
	stop     func() bool
}

// newMatcher prepares to match pat in src. stop reports whether the call
// was interrupted; nil means never.
func newMatcher(src, pat string, stop func() bool) *matcher {
	return &matcher{src: src, pat: pat, stop: stop}
}

// find finds the first match at or after init, or returns nil. An error
// is a malformed pattern or errMatchInterrupted.
func (mt *matcher) find(init int) (m *match, err error) {
	mt.depth = 0
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok || !(errors.Is(e, errMatchInterrupted) || isPatternError(e)) {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	p, anchored := 0, mt.anchored()
	if anchored {
		p = 1
	}
	for s := init; s <= len(mt.src); s++ {
		mt.level = 0
		if e := mt.match(s, p); e >= 0 {
			return &match{start: s, end: e, caps: append([]capture(nil), mt.caps[:mt.level]...)}, nil
		}
		if anchored {
			break
		}
	}
	return nil, nil
}

// anchored reports whether the pattern starts with ^: it is then tried at
// the starting position only.
func (mt *matcher) anchored() bool { return len(mt.pat) > 0 && mt.pat[0] == '^' }

func isPatternError(err error) bool {
	var pe *patternError
	return errors.As(err, &pe)
}

func (m *matcher) fail(format string, args ...any) {
	panic(&patternError{msg: fmt.Sprintf(format, args...)})
}

func (m *matcher) tick() {
	if m.steps++; m.steps%matchCheckEvery == 0 && m.stop != nil && m.stop() {
		panic(errMatchInterrupted)
	}
}

// match matches the pattern from p against the subject from s, returning
// where the match ends, or -1.
func (m *matcher) match(s, p int) int {
	m.depth++
	defer func() { m.depth-- }()
	if m.depth > maxMatchDepth {
		m.fail("pattern too complex (more than %d nested items to backtrack)", maxMatchDepth)
	}
	for {
		m.tick()
		if p == len(m.pat) {
			return s
		}
		switch m.pat[p] {
		case '(':
			if p+1 < len(m.pat) && m.pat[p+1] == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '$':
			if p+1 == len(m.pat) {
				if s == len(m.src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(m.pat) {
				switch c := m.pat[p+1]; {
				case c == 'b':
					if s = m.matchBalance(s, p+2); s < 0 {
						return -1
					}
					p += 4
					continue
				case c == 'f':
					var ok bool
					if p, ok = m.frontier(s, p+2); !ok {
						return -1
					}
					continue
				case c >= '0' && c <= '9':
					if s = m.matchBackReference(s, c); s < 0 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		ep := m.classEnd(p)
		ok := s < len(m.src) && m.singleMatch(m.src[s], p, ep)
		if ep < len(m.pat) {
			switch m.pat[ep] {
			case '?':
				if ok {
					if e := m.match(s+1, ep+1); e >= 0 {
						return e
					}
				}
				p = ep + 1
				continue
			case '*':
				return m.maxExpand(s, p, ep)
			case '+':
				if !ok {
					return -1
				}
				return m.maxExpand(s+1, p, ep)
			case '-':
				return m.minExpand(s, p, ep)
			}
		}
		if !ok {
			return -1
		}
		s, p = s+1, ep
	}
}

// maxExpand matches as many of the item p..ep as it can, then gives them
// back one by one until the rest of the pattern matches.
func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(m.src) && m.singleMatch(m.src[s+i], p, ep) {
		m.tick()
		i++
	}
	for ; i >= 0; i-- {
		if e := m.match(s+i, ep+1); e >= 0 {
			return e
		}
	}
	return -1
}

// minExpand matches as few of the item p..ep as the rest allows.
func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if e := m.match(s, ep+1); e >= 0 {
			return e
		}
		if s < len(m.src) && m.singleMatch(m.src[s], p, ep) {
			s++
			continue
		}
		return -1
	}
}

func (m *matcher) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.fail("too many captures (at most %d)", maxCaptures)
	}
	m.caps[m.level] = capture{start: s, len: what}
	m.level++
	e := m.match(s, p)
	if e < 0 {
		m.level--
	}
	return e
}

func (m *matcher) endCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.caps[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		m.fail("invalid pattern capture (a ')' without its '(')")
	}
	m.caps[l].len = s - m.caps[l].start
	e := m.match(s, p)
	if e < 0 {
		m.caps[l].len = capUnfinished
	}
	return e
}

// matchBalance matches %bxy at s; p is at x.
func (m *matcher) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.fail("missing arguments to '%%b'")
	}
	if s >= len(m.src) || m.src[s] != m.pat[p] {
		return -1
	}
	open, closing, depth := m.pat[p], m.pat[p+1], 1
	for i := s + 1; i < len(m.src); i++ {
		m.tick()
		switch m.src[i] {
		case closing:
			if depth--; depth == 0 {
				return i + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

// frontier matches %f[set] at s (p is at the '['): the previous byte is
// not in the set and the next one is; the subject's ends count as "\0".
func (m *matcher) frontier(s, p int) (int, bool) {
	if p >= len(m.pat) || m.pat[p] != '[' {
		m.fail("missing '[' after '%%f' in pattern")
	}
	ep := m.classEnd(p)
	var prev, cur byte
	if s > 0 {
		prev = m.src[s-1]
	}
	if s < len(m.src) {
		cur = m.src[s]
	}
	if !m.matchSet(prev, p, ep-1) && m.matchSet(cur, p, ep-1) {
		return ep, true
	}
	return p, false
}

func (m *matcher) matchBackReference(s int, c byte) int {
	l := int(c - '1')
	if l < 0 || l >= m.level || m.caps[l].len == capUnfinished {
		m.fail("invalid capture index %%%c", c)
	}
	start, n := m.caps[l].start, m.caps[l].len
	if n < 0 {
		n = 0 // a position capture matches the empty string
	}
	if len(m.src)-s >= n && m.src[s:s+n] == m.src[start:start+n] {
		return s + n
	}
	return -1
}

// classEnd returns the end of the single-character class at p.
func (m *matcher) classEnd(p int) int {
	c := m.pat[p]
	p++
	switch c {
	case '%':
		if p >= len(m.pat) {
			m.fail("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if p < len(m.pat) && m.pat[p] == '^' {
			p++
		}
		for { // the first byte is part of the set even if it is ']'
			if p >= len(m.pat) {
				m.fail("malformed pattern (missing ']')")
			}
			c := m.pat[p]
			p++
			if c == '%' && p < len(m.pat) {
				p++
			}
			if p < len(m.pat) && m.pat[p] == ']' {
				return p + 1
			}
		}
	}
	return p
}

func (m *matcher) singleMatch(c byte, p, ep int) bool {
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.pat[p+1])
	case '[':
		return m.matchSet(c, p, ep-1)
	}
	return m.pat[p] == c
}

// matchSet matches c against the set from the '[' at p to the ']' at ec.
func (m *matcher) matchSet(c byte, p, ec int) bool {
	want := true
	if m.pat[p+1] == '^' {
		want = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case m.pat[p] == '%':
			p++
			if matchClass(c, m.pat[p]) {
				return want
			}
		case m.pat[p+1] == '-' && p+2 < ec:
			if m.pat[p] <= c && c <= m.pat[p+2] {
				return want
			}
			p += 2
		case m.pat[p] == c:
			return want
		}
	}
	return !want
}

// matchClass matches c against the class letter cl (%a, %D, …) in the C
// locale; any other cl stands for itself.
func matchClass(c, cl byte) bool {
	var ok bool
	switch cl | 0x20 {
	case 'a':
		ok = isAlpha(c)
	case 'c':
		ok = c < 32 || c == 127
	case 'd':
		ok = c >= '0' && c <= '9'
	case 'l':
		ok = c >= 'a' && c <= 'z'
	case 'p':
		ok = c > 32 && c < 127 && !isAlpha(c) && !(c >= '0' && c <= '9')
	case 's':
		ok = c == ' ' || c >= '\t' && c <= '\r'
	case 'u':
		ok = c >= 'A' && c <= 'Z'
	case 'w':
		ok = isAlpha(c) || c >= '0' && c <= '9'
	case 'x':
		ok = c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
	case 'z':
		ok = c == 0
	default:
		return cl == c
	}
	if cl >= 'A' && cl <= 'Z' {
		return !ok
	}
	return ok
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
