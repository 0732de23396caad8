package json

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookhost/hookhost/stdlib"
)

// A SyntaxError reports where a JSON text is wrong and what was found
// there.
type SyntaxError struct {
	Offset int    // byte offset of the problem in the text, from 0
	Line   int    // line of the problem, from 1
	Column int    // column of the problem in characters, from 1
	Msg    string // what was found and what was wanted
	Err    error  // the cause when there is a notable one (stdlib.ErrTooDeep), or nil
}

// Error reads "line L, column C: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Unwrap gives the notable cause, or nil.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Decode returns the neutral value the JSON text describes. A number
// written as an integer (no fraction, no exponent) that fits in int64
// becomes an int64; any other number a float64. Invalid UTF-8 in strings
// and unpaired surrogate escapes become U+FFFD. When a key appears twice
// in an object, the last one wins, as in most JSON decoders.
//
// Text after the value (other than white space), numbers out of float64
// range, nesting deeper than stdlib.MaxDepth and texts longer than
// MaxSize are errors. Syntax errors are *SyntaxError.
func Decode(text string) (any, error) {
	if len(text) > MaxSize {
		return nil, fmt.Errorf("text is %d bytes: %w", len(text), ErrTooLarge)
	}
	d := decoder{s: text}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.i < len(d.s) {
		return nil, d.errorf("found %s after the value, want the end of the text", d.found())
	}
	return v, nil
}

type decoder struct {
	s string
	i int // offset of the next byte to read
}

func (d *decoder) errorf(format string, args ...any) error {
	return d.errorAt(d.i, nil, format, args...)
}

func (d *decoder) errorAt(off int, cause error, format string, args ...any) error {
	line, col := d.lineCol(off)
	return &SyntaxError{Offset: off, Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// lineCol returns the line and column of offset off, both from 1. It is
// computed only for errors, so decoding does not count lines.
func (d *decoder) lineCol(off int) (line, col int) {
	before := d.s[:off]
	lineStart := strings.LastIndexByte(before, '\n') + 1
	return strings.Count(before, "\n") + 1, utf8.RuneCountInString(before[lineStart:]) + 1
}

// found describes what is at the read position, for error messages.
func (d *decoder) found() string {
	if d.i >= len(d.s) {
		return "end of text"
	}
	r, size := utf8.DecodeRuneInString(d.s[d.i:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte 0x%02x", d.s[d.i])
	}
	if r < utf8.RuneSelf && isLetter(byte(r)) {
		return fmt.Sprintf("%q", d.word())
	}
	return strconv.QuoteRune(r)
}

// word returns the run of ASCII letters at the read position, at most 16
// bytes: found() shows "nul" or "True" rather than just 'n' or 'T'.
func (d *decoder) word() string {
	j := d.i
	for j < len(d.s) && j-d.i < 16 && isLetter(d.s[j]) {
		j++
	}
	return d.s[d.i:j]
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
func isDigit(b byte) bool  { return b >= '0' && b <= '9' }

func (d *decoder) skipSpace() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value reads one value. depth is how many lists and maps enclose it.
func (d *decoder) value(depth int) (any, error) {
	d.skipSpace()
	if d.i >= len(d.s) {
		return nil, d.errorf("found end of text, want a value")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.list(depth)
	case c == '"':
		return d.string()
	case c == '-' || isDigit(c):
		return d.number()
	case strings.HasPrefix(d.s[d.i:], "true"):
		d.i += len("true")
		return true, nil
	case strings.HasPrefix(d.s[d.i:], "false"):
		d.i += len("false")
		return false, nil
	case strings.HasPrefix(d.s[d.i:], "null"):
		d.i += len("null")
		return nil, nil
	}
	return nil, d.errorf("found %s, want a value", d.found())
}

// open checks, before the decoder recurses into a list or map, that the
// nesting stays within stdlib.MaxDepth.
func (d *decoder) open(depth int) error {
	if depth >= stdlib.MaxDepth {
		return d.errorAt(d.i, stdlib.ErrTooDeep, "found %s nested deeper than %d levels", d.found(), stdlib.MaxDepth)
	}
	d.i++
	d.skipSpace()
	return nil
}

func (d *decoder) list(depth int) (any, error) {
	if err := d.open(depth); err != nil {
		return nil, err
	}
	l := []any{}
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return l, nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		more, err := d.next(']')
		if err != nil || !more {
			return l, err
		}
	}
}

// next reads what follows an element: ',' (more to come) or the closing
// byte.
func (d *decoder) next(closing byte) (bool, error) {
	d.skipSpace()
	if d.i < len(d.s) {
		switch d.s[d.i] {
		case ',':
			d.i++
			return true, nil
		case closing:
			d.i++
			return false, nil
		}
	}
	return false, d.errorf("found %s, want ',' or '%c'", d.found(), closing)
}

func (d *decoder) object(depth int) (any, error) {
	if err := d.open(depth); err != nil {
		return nil, err
	}
	m := map[string]any{}
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return m, nil
	}
	for {
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[k] = v
		more, err := d.next('}')
		if err != nil || !more {
			return m, err
		}
	}
}

// key reads a map key and the ':' after it.
func (d *decoder) key() (string, error) {
	d.skipSpace()
	if d.i >= len(d.s) || d.s[d.i] != '"' {
		return "", d.errorf("found %s, want a string key", d.found())
	}
	k, err := d.string()
	if err != nil {
		return "", err
	}
	d.skipSpace()
	if d.i >= len(d.s) || d.s[d.i] != ':' {
		return "", d.errorf("found %s, want ':' after the key", d.found())
	}
	d.i++
	return k, nil
}

// string reads a quoted string. The common case, with no escapes and
// valid UTF-8, is one scan and one copy; the copy keeps a small result
// from holding on to a large text.
func (d *decoder) string() (string, error) {
	start := d.i
	d.i++
	for j := d.i; j < len(d.s); j++ {
		switch b := d.s[j]; {
		case b == '"':
			s := d.s[d.i:j]
			if !utf8.ValidString(s) {
				return d.slowString(start)
			}
			d.i = j + 1
			return strings.Clone(s), nil
		case b == '\\' || b < 0x20:
			return d.slowString(start)
		}
	}
	return d.slowString(start)
}

// slowString reads the string that begins at start, decoding escapes and
// replacing invalid UTF-8.
func (d *decoder) slowString(start int) (string, error) {
	var b strings.Builder
	d.i = start + 1
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String(), nil
		case c == '\\':
			if err := d.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", d.errorf("found %s in a string, want it escaped", strconv.QuoteRune(rune(c)))
		default:
			r, size := utf8.DecodeRuneInString(d.s[d.i:])
			b.WriteRune(r) // RuneError for an invalid byte: U+FFFD
			d.i += size
		}
	}
	line, col := d.lineCol(start)
	return "", d.errorf("found end of text, want '\"' to close the string begun at line %d, column %d", line, col)
}

// escape reads the escape sequence at the read position.
func (d *decoder) escape(b *strings.Builder) error {
	d.i++ // the backslash
	if d.i >= len(d.s) {
		return d.errorf("found end of text, want an escape sequence")
	}
	c := d.s[d.i]
	if r, ok := simpleEscape(c); ok {
		b.WriteByte(r)
		d.i++
		return nil
	}
	if c != 'u' {
		return d.errorf("found %s after '\\', want one of \" \\ / b f n r t u", d.found())
	}
	r, err := d.hex4()
	if err != nil {
		return err
	}
	if utf16.IsSurrogate(r) {
		r = d.lowSurrogate(r)
	}
	b.WriteRune(r) // an unpaired surrogate is not a rune: U+FFFD
	return nil
}

func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// hex4 reads the XXXX of \uXXXX; the read position is at the 'u'.
func (d *decoder) hex4() (rune, error) {
	d.i++
	var r rune
	for range 4 {
		if d.i >= len(d.s) {
			return 0, d.errorf("found end of text, want a hex digit")
		}
		n, ok := hexValue(d.s[d.i])
		if !ok {
			return 0, d.errorf("found %s in \\u escape, want a hex digit", d.found())
		}
		r = r<<4 | n
		d.i++
	}
	return r, nil
}

// lowSurrogate combines the high surrogate hi with a following \uXXXX low
// surrogate, when there is one; otherwise it returns U+FFFD and leaves the
// read position alone.
func (d *decoder) lowSurrogate(hi rune) rune {
	if !strings.HasPrefix(d.s[d.i:], `\u`) {
		return utf8.RuneError
	}
	save := d.i
	d.i++ // at the 'u'
	lo, err := d.hex4()
	r := utf16.DecodeRune(hi, lo)
	if err != nil || r == utf8.RuneError {
		d.i = save
		return utf8.RuneError
	}
	return r
}

func hexValue(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10), true
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}

// number reads a number as JSON writes it:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) number() (any, error) {
	start := d.i
	d.skip('-')
	if err := d.intPart(); err != nil {
		return nil, err
	}
	isFloat := false
	if d.skip('.') {
		isFloat = true
		if err := d.digits(); err != nil {
			return nil, err
		}
	}
	if d.skip('e') || d.skip('E') {
		isFloat = true
		_ = d.skip('+') || d.skip('-')
		if err := d.digits(); err != nil {
			return nil, err
		}
	}
	text := d.s[start:d.i]
	if !isFloat {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
		// Too large for int64: read it as a float, as JavaScript would.
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, d.errorAt(start, nil, "number %s is out of range", stdlib.Abbreviate(text))
	}
	return f, nil
}

// skip consumes b if it is at the read position.
func (d *decoder) skip(b byte) bool {
	if d.i < len(d.s) && d.s[d.i] == b {
		d.i++
		return true
	}
	return false
}

func (d *decoder) intPart() error {
	if !d.skip('0') {
		return d.digits()
	}
	if d.i < len(d.s) && isDigit(d.s[d.i]) {
		return d.errorf("found %s after a leading 0, want '.', 'e' or the end of the number", d.found())
	}
	return nil
}

// digits reads one or more decimal digits.
func (d *decoder) digits() error {
	start := d.i
	for d.i < len(d.s) && isDigit(d.s[d.i]) {
		d.i++
	}
	if d.i == start {
		return d.errorf("found %s, want a digit", d.found())
	}
	return nil
}
