package starlark

// A bracket is an opening bracket and the line it is on.
type bracket struct {
	char byte
	line int
}

// closingOf maps each opening bracket to its closing one.
func closingOf(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	}
	return 0
}

// unclosedBracket finds the bracket a syntax error most likely comes from
// when the parser only notices it later: inside brackets Starlark ignores
// line breaks and indentation, so a missing "]" is reported where the
// next statement begins, lines further down. It returns the innermost
// bracket opened before errLine that is never closed anywhere in the
// file (strings and comments do not count); ok is false when there is
// none, or when a closing bracket with nothing to close comes first.
func unclosedBracket(code []byte, errLine int) (bracket, bool) {
	var stack, unclosed []bracket
	stray := false // a closing bracket with nothing to close, before errLine
	_ = scanSource(code, nil, func(line int, c byte) {
		if closingOf(c) != 0 {
			stack = append(stack, bracket{char: c, line: line})
			return
		}
		for j := len(stack) - 1; j >= 0; j-- {
			if closingOf(stack[j].char) == c {
				// What was opened inside it and is still open never closes.
				unclosed = append(unclosed, stack[j+1:]...)
				stack = stack[:j]
				return
			}
		}
		if (c == ')' || c == ']' || c == '}') && line <= errLine {
			stray = true
		}
	})
	if stray {
		return bracket{}, false // the parser's own report of it is the better one
	}
	unclosed = append(unclosed, stack...)
	var best bracket
	for _, b := range unclosed {
		if b.line < errLine && b.line >= best.line {
			best = b
		}
	}
	return best, best.line > 0
}
