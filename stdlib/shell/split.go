package shell

import (
	"strings"
)

// Split returns the shell words of line after quote removal, as
// sh would pass them to a program: `a "b c" 'd'` is ["a", "b c", "d"].
// It expands nothing — a word holding a variable, a substitution, a
// glob or a ~ comes back as its source text, as in Command.Argv, and
// braces stay as written. A line with an operator (|, ;, &&, >, …) is
// an error, as is one that does not parse or exceeds MaxLineBytes or
// MaxNesting. Newlines separate words like spaces, and comments are
// dropped.
func Split(line string) ([]string, error) {
	if err := checkText(line); err != nil {
		return nil, err
	}
	out := []string{}
	for w, err := range newParser().WordsSeq(strings.NewReader(line)) {
		if err != nil {
			return nil, err
		}
		out = append(out, resolve(source(line), w, unquoted).text)
	}
	return out, nil
}
