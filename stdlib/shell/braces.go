package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds what one word may brace-expand to. A word that
// would expand further is reported unexpanded, as written, and dynamic.
const maxBraceWords = 256

// expand resolves a word into the args it becomes after brace expansion
// and quote removal. Static words are brace-expanded, and so are words
// of plain unquoted text that are dynamic only for a tilde in them
// ({~,/tmp/x}, ~/{a,b}): bash expands the braces first, then the tildes
// of each word. Any other dynamic word is reported
// once, as written.
func expand(src source, w *syntax.Word) []arg {
	a := resolve(src, w, unquoted)
	if a.dynamic {
		a.path, a.hasPath = wordPath(src, w), true
	}
	if a.dynamic && strings.Contains(a.text, "{") && plainText(w) {
		cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
		if syntax.SplitBraces(cp) {
			if vals, ok := braceValues(cp.Parts); ok {
				out := make([]arg, len(vals))
				for i, v := range vals {
					out[i] = plainArg(v)
				}
				return out
			}
		}
	}
	if a.dynamic || !strings.Contains(a.text, "{") {
		return []arg{a}
	}
	// SplitBraces rewrites the word it is given: work on a copy.
	cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(cp) {
		return []arg{a}
	}
	vals, ok := braceValues(cp.Parts)
	if !ok {
		text := src.of(w)
		return []arg{{text: text, raw: text, base: text, dynamic: true}}
	}
	out := make([]arg, len(vals))
	for i, v := range vals {
		out[i] = staticArg(v)
	}
	return out
}

// plainText reports whether a word is unquoted text alone, with no
// escape, quote, glob, expansion or substitution: what is dynamic in it
// can only be a tilde. (A glob among the alternatives is left as
// written, dynamic: the brace values are read without them.)
func plainText(w *syntax.Word) bool {
	for _, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok || strings.ContainsAny(lit.Value, "\\*?[") {
			return false
		}
	}
	return true
}

// plainArg is the arg of a word of plain text v, as brace expansion
// leaves it: a leading ~ makes it dynamic, read as a path the way
// wordPath reads one.
func plainArg(v string) arg {
	if _, home := homePrefix(v); !home {
		return staticArg(v)
	}
	var b pathBuilder
	b.lit(v, true)
	p := b.info()
	return arg{text: v, raw: v, base: baseName(v), dynamic: true, path: p, hasPath: true}
}

// braceValues returns every value the parts expand to, or false when
// there would be more than maxBraceWords.
func braceValues(parts []syntax.WordPart) ([]string, bool) {
	acc := []string{""}
	for _, p := range parts {
		alts, ok := partValues(p)
		if !ok || len(acc)*len(alts) > maxBraceWords {
			return nil, false
		}
		next := make([]string, 0, len(acc)*len(alts))
		for _, a := range acc {
			for _, b := range alts {
				next = append(next, a+b)
			}
		}
		acc = next
	}
	return acc, true
}

// partValues returns the alternatives one part of a static word stands
// for: one value, except for a brace expansion.
func partValues(p syntax.WordPart) ([]string, bool) {
	br, ok := p.(*syntax.BraceExp)
	if !ok {
		r := resolver{}
		r.part(p, unquoted, false)
		return []string{r.raw.String()}, true
	}
	if br.Sequence {
		return sequence(br.Elems)
	}
	var out []string
	for _, e := range br.Elems {
		vals, ok := braceValues(e.Parts)
		if !ok || len(out)+len(vals) > maxBraceWords {
			return nil, false
		}
		out = append(out, vals...)
	}
	return out, true
}

// sequence expands {x..y[..step]}: integers (zero-padded when either end
// is) or single characters. SplitBraces has already checked the form.
func sequence(elems []*syntax.Word) ([]string, bool) {
	from, to := elems[0].Lit(), elems[1].Lit()
	step := int64(1)
	if len(elems) == 3 {
		step, _ = strconv.ParseInt(elems[2].Lit(), 10, 64)
	}
	if step == 0 {
		step = 1 // bash counts {1..5..0} by one
	}
	a, errA := strconv.ParseInt(from, 10, 64)
	b, errB := strconv.ParseInt(to, 10, 64)
	if errA != nil || errB != nil { // characters, such as {a..e}
		a, b = int64(from[0]), int64(to[0])
	}
	n, ok := seqLen(a, b, step)
	if !ok {
		return nil, false
	}
	width := 0
	if errA == nil && (padded(from) || padded(to)) {
		width = max(len(from), len(to))
	}
	dir := int64(1)
	if b < a {
		dir = -1
	}
	out := make([]string, 0, n)
	for i, v := uint64(0), a; i < n; i, v = i+1, v+dir*abs(step) {
		if errA != nil {
			out = append(out, string(rune(v)))
		} else {
			out = append(out, pad(v, width))
		}
	}
	return out, true
}

// seqLen counts the values from a to b by step, or reports false past
// maxBraceWords. It works in uint64 so that no range can overflow.
func seqLen(a, b, step int64) (uint64, bool) {
	var diff uint64
	if b >= a {
		diff = uint64(b) - uint64(a)
	} else {
		diff = uint64(a) - uint64(b)
	}
	s := uint64(abs(step)) // abs(MinInt64) converts to 1<<63, its magnitude
	n := diff/s + 1
	return n, n <= maxBraceWords
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// padded reports whether a sequence end has a leading zero ({01..10}).
func padded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// pad formats v with at least width characters, zero-filled after the sign.
func pad(v int64, width int) string {
	s := strconv.FormatInt(abs(v), 10)
	sign := ""
	if v < 0 {
		sign = "-"
		width--
	}
	for len(s) < width {
		s = "0" + s
	}
	return sign + s
}
