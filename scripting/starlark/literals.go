package starlark

import (
	"fmt"

	"github.com/hookhost/hookhost/scripting"
)

// Int literals, bounded before the file is parsed. go.starlark.net's
// scanner hands a decimal literal too long for 64 bits to math/big, whose
// decimal parse is quadratic (a literal of 1,000,000 digits took 1.9 s to
// compile, one of 4,000,000 half a minute) and runs before any timeout
// applies; and the int it makes could then be written in decimal by
// go.starlark.net's error messages ("key … not in dict"). As CPython
// does, a decimal literal is limited to maxDecimalDigits digits; a hex
// literal, which parses in linear time, to maxIntBits bits, like the
// ints a call builds (ints.go). Octal and binary literals past 64 bits
// are the scanner's own error.

// checkIntLiterals refuses an int literal of src past the limits, with
// an error at its line.
func checkIntLiterals(name string, src []byte) error {
	return scanIntLiterals(src, func(line int, raw []byte) error {
		if err := checkIntLiteral(raw); err != nil {
			return &scripting.Error{File: name, Line: line, Msg: err.Error()}
		}
		return nil
	})
}

// checkIntLiteral checks one int literal, as written.
func checkIntLiteral(raw []byte) error {
	if len(raw) > 2 && raw[0] == '0' && (raw[1] == 'x' || raw[1] == 'X') {
		digits := len(raw) - 2
		if bits := int64(digits) * 4; bits > maxIntBits {
			return fmt.Errorf("the int literal has %d hex digits: the int would have %d bits, more than the limit of %d", digits, bits, maxIntBits)
		}
		return nil
	}
	if isDecimal(raw[0]) && len(raw) > maxDecimalDigits && (len(raw) < 2 || raw[1] != 'o' && raw[1] != 'O' && raw[1] != 'b' && raw[1] != 'B') {
		return fmt.Errorf("the int literal has %d digits: it exceeds the limit (%d digits) for integer string conversion (write a huge int in hex)", len(raw), maxDecimalDigits)
	}
	return nil
}

// scanIntLiterals calls visit with each int literal (not a float) of src
// and its line, stopping at the first error visit returns.
func scanIntLiterals(src []byte, visit func(line int, raw []byte) error) error {
	return scanSource(src, visit, nil)
}

// scanSource reads src as go.starlark.net's scanner does only as far as
// telling numbers from names, strings and comments. It calls intLiteral
// (when not nil) with each int literal (not a float) and its line,
// stopping at the first error it returns, and other (when not nil) with
// every other byte outside names, numbers, strings and comments:
// operators and brackets.
func scanSource(src []byte, intLiteral func(line int, raw []byte) error, other func(line int, c byte)) error {
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case newlineAt(src, i) > 0:
			line++
			i += newlineAt(src, i)
		case c == 0: // the scanner's end of file, wherever it comes
			return nil
		case c == '#':
			for i < len(src) && src[i] != 0 && newlineAt(src, i) == 0 {
				i++
			}
		case c == '\'' || c == '"':
			i = skipString(src, i, &line)
		case isNameByte(c):
			j := i
			for j < len(src) && (isNameByte(src[j]) || isDecimal(src[j])) {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && isStringPrefix(string(src[i:j])) {
				j = skipString(src, j, &line)
			}
			i = j
		case isDecimal(c) || c == '.' && i+1 < len(src) && isDecimal(src[i+1]):
			end, isInt := numberEnd(src, i)
			if isInt && intLiteral != nil {
				if err := intLiteral(line, src[i:end]); err != nil {
					return err
				}
			}
			i = end
		default:
			if other != nil {
				other(line, c)
			}
			i++
		}
	}
	return nil
}

// numberEnd returns where the number literal at src[start:] ends, and
// whether it is an int (not a float), as the scanner reads it.
func numberEnd(src []byte, start int) (int, bool) {
	i := start
	if src[i] == '0' && i+1 < len(src) {
		radix := 0
		switch src[i+1] {
		case 'x', 'X':
			radix = 16
		case 'o', 'O':
			radix = 8
		case 'b', 'B':
			radix = 2
		}
		if radix != 0 {
			i += 2
			for i < len(src) && validDigits(string(src[i:i+1]), radix) {
				i++
			}
			return i, true
		}
	}
	for i < len(src) && isDecimal(src[i]) {
		i++
	}
	if i == len(src) || src[i] != '.' && src[i] != 'e' && src[i] != 'E' {
		return i, true
	}
	if src[i] == '.' {
		i++
		for i < len(src) && isDecimal(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		for i < len(src) && isDecimal(src[i]) {
			i++
		}
	}
	return i, false
}

// skipString returns the end of the string literal whose opening quote is
// at src[i], counting the lines it spans. A backslash always takes the
// byte after it, in raw strings too (where it still keeps a quote from
// closing the string); a single-quoted string ends at a newline, where
// the scanner reports it.
func skipString(src []byte, i int, line *int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(src) {
		switch c := src[i]; {
		case c == '\\':
			i++
			if n := newlineAt(src, i); n > 0 {
				*line++
				i += n
			} else {
				i++
			}
		case newlineAt(src, i) > 0:
			if !triple {
				return i
			}
			*line++
			i += newlineAt(src, i)
		case c == q && !triple:
			return i + 1
		case c == q && i+2 < len(src) && src[i+1] == q && src[i+2] == q:
			return i + 3
		default:
			i++
		}
	}
	return len(src)
}

// isStringPrefix reports whether p, just before a quote, makes the quote
// open a string (r"…", b'…', rb"…") rather than end a name.
func isStringPrefix(p string) bool {
	switch p {
	case "r", "R", "b", "B", "rb", "rB", "Rb", "RB", "br", "bR", "Br", "BR":
		return true
	}
	return false
}

// newlineAt is the length of the line break at src[i]: "\n", "\r\n" and
// a lone "\r" are one each, as the scanner reads them; 0 when there is
// none.
func newlineAt(src []byte, i int) int {
	switch {
	case i >= len(src):
		return 0
	case src[i] == '\n':
		return 1
	case src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n':
		return 2
	case src[i] == '\r':
		return 1
	}
	return 0
}

func isDecimal(c byte) bool { return '0' <= c && c <= '9' }

// isNameByte reports whether c can start a name: a letter, '_', or any
// byte of a non-ASCII character (the scanner reads those as letters or
// rejects them).
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}
