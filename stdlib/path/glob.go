package path

import (
	"fmt"
	"path"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hookhost/hookhost/stdlib"
)

// Limits on glob. doublestar matches by backtracking: its time grows
// with the pattern's length times the path's, and again with each {a,b}
// alternative, which it tries one after the other.
const (
	// MaxGlobPattern is the longest pattern glob accepts, in bytes.
	MaxGlobPattern = 4 << 10
	// MaxGlobAlternatives bounds the ways a pattern's {a,b} groups can be
	// chosen: {a,b}{c,d} has four.
	MaxGlobAlternatives = 1 << 10
	// maxGlobWork bounds alternatives × pattern length × path length,
	// which keeps the worst match to tens of milliseconds.
	maxGlobWork = 1 << 23
)

func glob(c *stdlib.Call) (any, error) {
	pattern, err := c.String(0)
	if err != nil {
		return nil, err
	}
	p, err := c.String(1)
	if err != nil {
		return nil, err
	}
	if len(pattern) > MaxGlobPattern {
		return nil, fmt.Errorf("argument 1 (pattern): %d bytes, longer than %d", len(pattern), MaxGlobPattern)
	}
	// Validate up front: doublestar reports some bad patterns only when
	// the match gets that far, so the same pattern could pass or fail
	// depending on p.
	if !doublestar.ValidatePattern(pattern) {
		return nil, fmt.Errorf("bad pattern %q: %w", pattern, doublestar.ErrBadPattern)
	}
	// Clean first, so that "/ws/../etc/passwd" cannot slip past "/etc/**".
	p = path.Clean(p)
	alts := alternatives(pattern)
	if alts > MaxGlobAlternatives {
		return nil, fmt.Errorf("pattern %q has more than %d alternatives", abbreviate(pattern), MaxGlobAlternatives)
	}
	if alts > maxGlobWork/(len(pattern)+1)/(len(p)+1) {
		return nil, fmt.Errorf("pattern %q is too complex to match against a path of %d bytes (fewer {a,b} alternatives or a shorter pattern would do)", abbreviate(pattern), len(p))
	}
	return doublestar.Match(pattern, p)
}

// alternatives returns how many ways the {a,b} groups of pattern can be
// chosen: the product of their sizes, counting nested groups as if they
// were side by side, which can only overestimate. It saturates past
// MaxGlobAlternatives.
func alternatives(pattern string) int {
	n := 1
	var commas []int // per open group, its commas so far
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			commas = append(commas, 0)
		case ',':
			if len(commas) > 0 {
				commas[len(commas)-1]++
			}
		case '}':
			if len(commas) > 0 {
				n = min(n*(commas[len(commas)-1]+1), MaxGlobAlternatives+1)
				commas = commas[:len(commas)-1]
			}
		}
	}
	return n
}

// abbreviate shortens s for an error message.
func abbreviate(s string) string {
	if len(s) <= 64 {
		return s
	}
	return s[:64] + "…"
}
