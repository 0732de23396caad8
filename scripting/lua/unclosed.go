package lua

import (
	"bytes"

	"github.com/yuin/gopher-lua/parse"
)

// An opener is a construct that needs a closing token: a bracket, or a
// keyword that needs "end" (or "until").
type opener struct {
	word string // as written: "{", "function", "repeat"
	line int
}

// closedBy reports whether a closing token ends the opener.
func (o opener) closedBy(tokType int) bool {
	switch o.word {
	case "{":
		return tokType == '}'
	case "(":
		return tokType == ')'
	case "[":
		return tokType == ']'
	case "repeat":
		return tokType == parse.TUntil
	default: // function, if, do, while, for
		return tokType == parse.TEnd
	}
}

// unclosedOpener finds the construct a syntax error most likely comes from
// when the parser only notices the problem later: a bracket or a block
// opened before errLine that is never closed anywhere in the file. The
// parser reports where it gave up (often the next statement, lines
// further down); the person needs the line where the construct began.
// It reports ok=false when every construct is closed, when the source
// does not scan, when a closing token with nothing to close comes first,
// or when the innermost unclosed construct is not before errLine.
func unclosedOpener(code []byte, errLine int) (opener, bool) {
	sc := parse.NewScanner(bytes.NewReader(code), "")
	lx := &parse.Lexer{}
	var stack, unclosed []opener
	for {
		tok, err := sc.Scan(lx)
		if err != nil {
			return opener{}, false
		}
		if tok.Type == parse.EOF || tok.Type < 0 {
			break
		}
		lx.PrevTokenType = tok.Type
		switch tok.Type {
		case '{', '(', '[', parse.TFunction, parse.TIf, parse.TRepeat, parse.TWhile, parse.TFor:
			stack = append(stack, opener{word: tok.Str, line: tok.Pos.Line})
		case parse.TDo:
			// "while … do" and "for … do" share their opener's "end";
			// only a bare "do" opens a block of its own.
			if n := len(stack); n == 0 || (stack[n-1].word != "while" && stack[n-1].word != "for") {
				stack = append(stack, opener{word: tok.Str, line: tok.Pos.Line})
			}
		case '}', ')', ']', parse.TEnd, parse.TUntil:
			var matched bool
			stack, unclosed, matched = closeInnermost(stack, unclosed, tok.Type)
			if !matched && tok.Pos.Line <= errLine {
				// A stray closing token: the parser's own report of it
				// is the better one.
				return opener{}, false
			}
		}
	}
	unclosed = append(unclosed, stack...)
	var best opener
	for _, o := range unclosed {
		if o.line < errLine && o.line >= best.line {
			best = o
		}
	}
	return best, best.line > 0
}

// closeInnermost pops the innermost opener the token closes. Openers
// above it on the stack were never closed: they move to unclosed.
// matched is false for a closing token that matches nothing open.
func closeInnermost(stack, unclosed []opener, tokType int) (_, _ []opener, matched bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].closedBy(tokType) {
			return stack[:i], append(unclosed, stack[i+1:]...), true
		}
	}
	return stack, unclosed, false
}
