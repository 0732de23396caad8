package json

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookhost/hookhost/stdlib"
)

// ErrTooLarge is returned (wrapped) for a text longer than MaxSize, given
// to Decode or produced by Encode.
var ErrTooLarge = fmt.Errorf("JSON text longer than %d bytes", MaxSize)

// Encode returns the JSON text of the neutral value v. Map keys are
// sorted in byte order, so equal values always give the same text. With
// indent 0 the text is compact; otherwise each element goes on a line of
// its own, indented by indent spaces per level. Strings are written as
// UTF-8, with invalid bytes replaced by U+FFFD; <, > and & are not
// escaped.
//
// Encode refuses NaN and infinities, values nested deeper than
// stdlib.MaxDepth (which is also how it refuses a map that contains
// itself), anything that is not a neutral value, and output longer than
// MaxSize.
func Encode(v any, indent int) (string, error) {
	e := encoder{indent: indent}
	if err := e.value(v, 0); err != nil {
		// The encoder stops at the first problem without tracking where it
		// is; Check finds the same problem again and names its path.
		if !errors.Is(err, ErrTooLarge) {
			if cerr := stdlib.Check(v); cerr != nil {
				return "", cerr
			}
		}
		return "", err
	}
	if len(e.buf) > MaxSize {
		return "", ErrTooLarge
	}
	return string(e.buf), nil
}

type encoder struct {
	buf    []byte
	indent int
}

// errNotNeutral is a placeholder: Encode replaces it with Check's error,
// which names the offending element.
var errNotNeutral = errors.New("not a neutral value")

func (e *encoder) value(v any, depth int) error {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case int64:
		e.buf = strconv.AppendInt(e.buf, v, 10)
	case float64:
		return e.float(v)
	case string:
		return e.string(v)
	case []any:
		return e.list(v, depth)
	case map[string]any:
		return e.object(v, depth)
	default:
		return errNotNeutral
	}
	return nil
}

// float writes f as Starlark's json.encode does: the shortest text that
// reads back as f, always with a '.' or an exponent, so that decode gives
// back a float rather than an integer.
func (e *encoder) float(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return errNotNeutral
	}
	start := len(e.buf)
	e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
	if !strings.ContainsAny(string(e.buf[start:]), ".e") {
		e.buf = append(e.buf, ".0"...)
	}
	return nil
}

func (e *encoder) list(l []any, depth int) error {
	if depth >= stdlib.MaxDepth {
		return stdlib.ErrTooDeep
	}
	if len(l) == 0 {
		e.buf = append(e.buf, "[]"...)
		return nil
	}
	e.buf = append(e.buf, '[')
	for i, x := range l {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.newline(depth + 1)
		if err := e.value(x, depth+1); err != nil {
			return err
		}
		if len(e.buf) > MaxSize {
			return ErrTooLarge
		}
	}
	e.newline(depth)
	e.buf = append(e.buf, ']')
	return nil
}

func (e *encoder) object(m map[string]any, depth int) error {
	if depth >= stdlib.MaxDepth {
		return stdlib.ErrTooDeep
	}
	if len(m) == 0 {
		e.buf = append(e.buf, "{}"...)
		return nil
	}
	e.buf = append(e.buf, '{')
	for i, k := range stdlib.SortedKeys(m) {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.newline(depth + 1)
		if err := e.string(k); err != nil {
			return err
		}
		e.buf = append(e.buf, ':')
		if e.indent > 0 {
			e.buf = append(e.buf, ' ')
		}
		if err := e.value(m[k], depth+1); err != nil {
			return err
		}
		if len(e.buf) > MaxSize {
			return ErrTooLarge
		}
	}
	e.newline(depth)
	e.buf = append(e.buf, '}')
	return nil
}

// newline starts a new line indented for depth, when indenting.
func (e *encoder) newline(depth int) {
	if e.indent == 0 {
		return
	}
	e.buf = append(e.buf, '\n')
	for range depth * e.indent {
		e.buf = append(e.buf, ' ')
	}
}

const hexDigits = "0123456789abcdef"

// string writes s quoted. Besides what JSON requires, it escapes U+2028
// and U+2029, which end a line in JavaScript, so the text can be pasted
// into a script safely.
func (e *encoder) string(s string) error {
	// Escaping at most sextuples a byte; refuse before growing the buffer
	// past all reason.
	if len(e.buf)+len(s) > MaxSize {
		return ErrTooLarge
	}
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b >= 0x20 && b != '"' && b != '\\' && b < utf8.RuneSelf {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			e.buf = append(e.buf, s[start:i]...)
			e.escapeByte(b)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			e.buf = append(e.buf, s[start:i]...)
			e.escapeRune(r)
			i += size
			start = i
			continue
		}
		i += size
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
	return nil
}

func (e *encoder) escapeByte(b byte) {
	switch b {
	case '"', '\\':
		e.buf = append(e.buf, '\\', b)
	case '\n':
		e.buf = append(e.buf, '\\', 'n')
	case '\r':
		e.buf = append(e.buf, '\\', 'r')
	case '\t':
		e.buf = append(e.buf, '\\', 't')
	case '\b':
		e.buf = append(e.buf, '\\', 'b')
	case '\f':
		e.buf = append(e.buf, '\\', 'f')
	default:
		e.escapeRune(rune(b))
	}
}

// escapeRune writes r as \uXXXX; r is below U+10000.
func (e *encoder) escapeRune(r rune) {
	e.buf = append(e.buf, '\\', 'u',
		hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}
