package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ansiC decodes the body of a $'…' string as bash does: \n, \t, \xHH,
// \uHHHH, \nnn (octal), \cX and friends. Like bash, it stops at a NUL
// byte, which cannot be part of an argument.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		i += ansiEscape(&b, s[i:]) - 1
	}
	out, _, _ := strings.Cut(b.String(), "\x00")
	return out
}

// simpleEscapes maps the one-letter escapes of $'…' to their bytes.
var simpleEscapes = map[byte]byte{
	'a': '\a', 'b': '\b', 'e': 0x1b, 'E': 0x1b, 'f': '\f', 'n': '\n',
	'r': '\r', 't': '\t', 'v': '\v', '\\': '\\', '\'': '\'', '"': '"', '?': '?',
}

// ansiEscape writes the escape that s (the text after a backslash)
// starts with and returns how many bytes of s it used.
func ansiEscape(b *strings.Builder, s string) int {
	c := s[0]
	if v, ok := simpleEscapes[c]; ok {
		b.WriteByte(v)
		return 1
	}
	switch c {
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n := digits(s, 0, 3, 8)
		v, _ := strconv.ParseUint(s[:n], 8, 16)
		b.WriteByte(byte(v))
		return n
	case 'x', 'u', 'U':
		n := digits(s, 1, hexWidth(c), 16)
		if n == 1 {
			break // no digits: the escape stays as written
		}
		v, _ := strconv.ParseUint(s[1:n], 16, 32)
		if c == 'x' {
			b.WriteByte(byte(v))
		} else if r := rune(v); utf8.ValidRune(r) {
			b.WriteRune(r)
		}
		return n
	case 'c':
		if len(s) > 1 {
			b.WriteByte(s[1] & 0x1f)
			return 2
		}
	}
	b.WriteByte('\\')
	b.WriteByte(c)
	return 1
}

// hexWidth is how many hex digits \x, \u and \U take at most.
func hexWidth(c byte) int {
	switch c {
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return 2
}

// digits returns the end of the run of up to max digits of the given
// base in s that starts at from.
func digits(s string, from, max, base int) int {
	i := from
	for i < len(s) && i-from < max {
		if _, err := strconv.ParseUint(s[i:i+1], base, 8); err != nil {
			break
		}
		i++
	}
	return i
}
