package shell

import (
	"errors"
	"fmt"
	"strings"
)

// Limits. Every one of them is an error when exceeded, never a silent
// truncation, so that a guard fails closed on input it cannot see whole.
const (
	// MaxLineBytes is the longest line (or nested script) parsed.
	MaxLineBytes = 16 << 10
	// MaxNesting bounds how deeply brackets, braces, quotes and
	// substitutions may nest. It is checked by a scan before parsing,
	// because mvdan.cc/sh recurses once per level and a deep enough input
	// overflows the Go stack, which recover cannot catch.
	MaxNesting = 100
	// MaxScriptDepth bounds scripts inside scripts: bash -c 'sh -c "…"'.
	MaxScriptDepth = 8
	// MaxCommands bounds the commands one line may report.
	MaxCommands = 1024

	maxDepth       = 1000      // recursion of the tree walk, whatever the node
	maxScripts     = 64        // nested scripts parsed for one line
	maxParsedBytes = 256 << 10 // bytes parsed for one line, nested scripts included
	maxWords       = 16 << 10  // argv words reported for one line
	maxWrappers    = 16        // wrappers unwrapped around one command
)

// Errors, returned wrapped with details. Parse errors from mvdan.cc/sh
// are returned as they are (a syntax.ParseError), prefixed with the
// wrapper when they come from a nested script.
var (
	// ErrTooLong is returned for a line or nested script over MaxLineBytes.
	ErrTooLong = errors.New("line is too long")
	// ErrTooDeep is returned for nesting past MaxNesting, scripts nested
	// past MaxScriptDepth, more than 16 wrappers around one command, or a
	// syntax tree too deep to walk.
	ErrTooDeep = errors.New("line nests too deeply")
	// ErrTooMany is returned when a line would report more than
	// MaxCommands commands, or too many words or nested scripts.
	ErrTooMany = errors.New("line runs too many commands")
)

// checkText applies the limits that hold before parsing.
func checkText(s string) error {
	if len(s) > MaxLineBytes {
		return fmt.Errorf("%w: %d bytes (the limit is %d)", ErrTooLong, len(s), MaxLineBytes)
	}
	if nesting(s, MaxNesting) > MaxNesting {
		return fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxNesting)
	}
	return nil
}

// closers maps what opens a level to what closes it.
var closers = map[byte]byte{'(': ')', '{': '}', '[': ']', '"': '"', '`': '`'}

// nesting returns how deeply s nests (…), {…}, […], "…" and `…`,
// stopping once it passes limit. It approximates the shell's lexer —
// single quotes, $'…', backslashes and comments hide what they contain,
// and inside double quotes only $(, ${ and ` open a level — which is
// enough to reject inputs that would make the parser recurse deeply.
func nesting(s string, limit int) int {
	var stack []byte // the closer each open level waits for
	deepest := 0
	for i := 0; i < len(s) && deepest <= limit; i++ {
		c := s[i]
		top := byte(0)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch {
		case c == '\\':
			i++
		case top != 0 && c == top:
			stack = stack[:len(stack)-1]
		case top == '"':
			if c == '`' || (c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{')) {
				if c == '$' {
					i++
				}
				stack = append(stack, closers[s[i]])
			}
		case c == '\'':
			i = skipSingle(s, i)
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			i = skipANSI(s, i+1)
		case c == '#' && (i == 0 || strings.IndexByte(" \t\n;&|()", s[i-1]) >= 0):
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(s)
			}
		case closers[c] != 0:
			stack = append(stack, closers[c])
		}
		deepest = max(deepest, len(stack))
	}
	return deepest
}

// skipSingle returns the index of the quote closing the '…' opened at i.
func skipSingle(s string, i int) int {
	if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
		return i + 1 + j
	}
	return len(s)
}

// skipANSI returns the index of the quote closing the $'…' whose opening
// quote is at i; backslashes escape in it.
func skipANSI(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			return i
		}
	}
	return len(s)
}
