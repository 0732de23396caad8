package re

import (
	"fmt"

	"github.com/hookhost/hookhost/stdlib"
)

// replace expands repl for each match itself, through a template, rather
// than calling regexp's ReplaceAllString: it must stop after n matches,
// and it must know each expansion's length before making it, to keep the
// result within MaxText.
func (m *module) replace(c *stdlib.Call) (any, error) {
	s, err := m.args(c)
	if err != nil {
		return nil, err
	}
	repl, err := c.String(2)
	if err != nil {
		return nil, err
	}
	if len(repl) > MaxText {
		return nil, fmt.Errorf("argument 3 (repl): %d bytes, longer than %d", len(repl), MaxText)
	}
	n, err := count(c, 3)
	if err != nil {
		return nil, err
	}
	matches, err := s.findAll(limit(n), true)
	if err != nil {
		return nil, err
	}
	if len(matches) > MaxResults {
		return nil, fmt.Errorf("more than %d matches", MaxResults)
	}
	return expandAll(parseTemplate(s.p.re, repl), s.text, matches)
}

// expandAll returns text with each of matches replaced by t's expansion.
func expandAll(t template, text string, matches [][]int) (string, error) {
	if len(matches) == 0 {
		return text, nil
	}
	var out []byte
	last := 0
	for _, match := range matches {
		size := len(out) + (match[0] - last) + t.size(text, match)
		if size > MaxText {
			return "", fmt.Errorf("result would be longer than %d bytes", MaxText)
		}
		out = append(out, text[last:match[0]]...)
		out = t.expand(out, text, match)
		last = match[1]
	}
	if len(out)+len(text)-last > MaxText {
		return "", fmt.Errorf("result would be longer than %d bytes", MaxText)
	}
	return string(append(out, text[last:]...)), nil
}
