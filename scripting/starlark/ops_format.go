package starlark

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

// Bounds on the text of format % args and format.format(args): the
// format's own length plus, for each conversion, at least what
// go.starlark.net writes for its argument. A format the interpreter
// rejects is measured only up to the problem; the operation then fails
// with the interpreter's error. A list, dict, tuple, set or other
// composite argument is measured by writing it with hookhost's bounded
// printer (the text str() gives), so one nested too deeply or written at
// more than Limits.MaxStringSize fails here, before the interpreter's
// unbounded writer starts.

// floatTextMax bounds the text of a float in any conversion: %f of
// 1e308 writes 316 characters.
const floatTextMax = 330

// floatIntTextMax bounds a float written as an integer: %o of 1e308 has
// 342 digits.
const floatIntTextMax = 400

// interpolateSize bounds the length of format % x, reading the format
// the way go.starlark.net's interpolation does.
func interpolateSize(thread *starlark.Thread, format string, x starlark.Value) (int64, error) {
	size := int64(len(format))
	args, isTuple := x.(starlark.Tuple)
	if !isTuple {
		args = starlark.Tuple{x}
	}
	index := 0
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 || i+1 >= len(format) {
			return size, nil
		}
		format = format[i+1:]
		if format[0] == '%' {
			format = format[1:]
			continue
		}
		var arg starlark.Value
		if format[0] == '(' {
			key, rest, ok := strings.Cut(format[1:], ")")
			m, isMapping := x.(starlark.Mapping)
			if !ok || !isMapping {
				return size, nil
			}
			v, found, err := m.Get(starlark.String(key))
			if err != nil || !found {
				return size, nil
			}
			arg, format = v, rest
		} else {
			if index >= len(args) {
				return size, nil
			}
			arg = args[index]
		}
		if format == "" {
			return size, nil
		}
		n, err := conversionSize(thread, format[0], arg)
		if err != nil {
			return 0, err
		}
		size += n
		format = format[1:]
		index++
	}
}

// conversionSize bounds what one %-conversion writes for arg.
func conversionSize(thread *starlark.Thread, conv byte, arg starlark.Value) (int64, error) {
	switch conv {
	case 's':
		return textSize(thread, arg, false)
	case 'r':
		return textSize(thread, arg, true)
	case 'd', 'i', 'o', 'x', 'X':
		if i, ok := arg.(starlark.Int); ok {
			if conv == 'd' || conv == 'i' {
				if err := checkDecimal(i); err != nil {
					return 0, err
				}
			}
			return intBits(i)/3 + 2, nil // octal is the longest: 3 bits a digit, and a sign
		}
		return floatIntTextMax, nil
	case 'e', 'f', 'g', 'E', 'F', 'G':
		return floatTextMax, nil
	case 'c':
		return 4, nil
	}
	return 0, nil
}

// textSize bounds the length of str(x), or of repr(x) when quoted.
func textSize(thread *starlark.Thread, x starlark.Value, quoted bool) (int64, error) {
	switch x := x.(type) {
	case starlark.String:
		if !quoted {
			return int64(len(x)), nil
		}
		return quotedSize(string(x)), nil
	case starlark.Bytes:
		return quotedSize(string(x)) + 1, nil // b"…"
	case starlark.Int:
		return intBits(x)/3 + 2, checkDecimal(x)
	case starlark.Float:
		return floatTextMax, nil
	case starlark.Bool, starlark.NoneType:
		return 5, nil
	}
	return printedSize(thread, x)
}

// quotedSize bounds the length of a quoted string: an escape takes at
// most four bytes for each byte it replaces (\xff; \U0001f600 is ten for
// four).
func quotedSize(s string) int64 {
	n := int64(2)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\t' || c == '\r':
			n += 2
		case c >= 0x20 && c < 0x7f:
			n++
		default:
			n += 4
		}
	}
	return n
}

// printedSize writes x with the bounded printer and returns the length.
func printedSize(thread *starlark.Thread, x starlark.Value) (int64, error) {
	p := newPrinter(thread, 0)
	if err := p.value(x); err != nil {
		if errors.Is(err, errReprTooLong) {
			err = fmt.Errorf("%w (more than %s)", err, scripting.FormatBytes(int64(p.max)))
		}
		return 0, err
	}
	return int64(p.out.Len()), nil
}

// formatSize bounds the length of format.format(*args, **kwargs),
// reading the format the way go.starlark.net's str.format does.
func formatSize(thread *starlark.Thread, format string, args starlark.Tuple, kwargs []starlark.Tuple) (int64, error) {
	size := int64(len(format))
	auto := 0
	for {
		i := strings.IndexByte(format, '{')
		if i < 0 || i+1 >= len(format) {
			return size, nil
		}
		if format[i+1] == '{' {
			format = format[i+2:]
			continue
		}
		field, rest, ok := strings.Cut(format[i+1:], "}")
		if !ok {
			return size, nil
		}
		format = rest
		name, conv := fieldParts(field)
		arg := formatArg(name, &auto, args, kwargs)
		if arg == nil {
			return size, nil
		}
		n, err := textSize(thread, arg, conv == "r")
		if err != nil {
			return 0, err
		}
		size += n
	}
}

// fieldParts splits a replacement field "name:spec", "name!conv" or
// "name!conv:spec" into its name and conversion.
func fieldParts(field string) (name, conv string) {
	name, conv, found := strings.Cut(field, "!")
	if !found {
		name, _, _ = strings.Cut(field, ":")
		return name, ""
	}
	conv, _, _ = strings.Cut(conv, ":")
	return name, conv
}

// formatArg is the argument a replacement field names: the next
// positional one for "{}", the n-th for "{n}", a keyword one by name;
// nil when there is none (the format then fails).
func formatArg(name string, auto *int, args starlark.Tuple, kwargs []starlark.Tuple) starlark.Value {
	if name == "" {
		if *auto >= len(args) {
			return nil
		}
		*auto++
		return args[*auto-1]
	}
	if n, ok := decimalIndex(name); ok {
		if n >= len(args) {
			return nil
		}
		return args[n]
	}
	for _, kv := range kwargs {
		if k, ok := kv[0].(starlark.String); ok && string(k) == name {
			return kv[1]
		}
	}
	return nil
}

// decimalIndex parses a field name made only of decimal digits.
func decimalIndex(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || n > 1<<30 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, s != ""
}
