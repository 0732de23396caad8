package starlark

import (
	"fmt"
	"math/big"
	"sync"

	"go.starlark.net/starlark"
)

// Integers, bounded. go.starlark.net's big ints are math/big's, and three
// of their operations run long inside one uninterruptible Go call:
// parsing text in a base whose digits do not fill a machine word exactly
// (int(s) in base 10 took 32 s for 4,000,000 digits; bases 8 and 32 are
// as slow), writing one in decimal (str, repr, %d, a returned value, and
// every go.starlark.net error message that shows an int: 2.5 s for
// 16 million bits), and multiplying two huge ones. So, as CPython does
// since 3.11, converting between an int and text is refused past
// maxDecimalDigits digits either way, except in bases 2, 4 and 16, which
// go.starlark.net parses in linear time, and in which an int is still
// written by %x and %o; and no int that int(s, base) parses or a product
// x * y builds may have more than maxIntBits bits. Sums, shifts (at most
// 511 bits each) and products by a literal grow an int by a bounded
// number of bits per step, which the step budget and the deadline bound.

// maxDecimalDigits is CPython's default limit on integer string
// conversion (sys.get_int_max_str_digits).
const maxDecimalDigits = 4300

// maxIntBits bounds the ints int(s, base) and x * y build: 32 KiB, about
// 79,000 decimal digits. Two such ints multiply in a fraction of a
// millisecond, and go.starlark.net writes one in decimal (in an error
// message) in a few milliseconds.
const maxIntBits = 1 << 18

// decimalLimit is 10^maxDecimalDigits, the smallest magnitude with more
// digits than the limit allows; comparing with it reads no more words
// than the int has, and allocates nothing. Computed on first use, not at
// init: every hookhost process would pay for the power (a tenth of a
// millisecond), and only a script writing a big int in decimal needs it.
var decimalLimit = sync.OnceValue(func() starlark.Int {
	return starlark.MakeBigInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(maxDecimalDigits), nil))
})

// errDecimalText is the failure to write an int of more than
// maxDecimalDigits digits in decimal.
var errDecimalText = fmt.Errorf("an int of more than %d digits exceeds the limit for integer string conversion (\"%%x\" %% n writes it in hex)", maxDecimalDigits)

// checkDecimal fails when i has more than maxDecimalDigits decimal
// digits.
func checkDecimal(i starlark.Int) error {
	if _, small := i.Int64(); small {
		return nil
	}
	if i.Sign() < 0 {
		i = starlark.MakeInt(0).Sub(i)
	}
	if c, _ := i.Cmp(decimalLimit(), 0); c >= 0 {
		return errDecimalText
	}
	return nil
}

// checkProduct fails when x * y, two ints, would have more than
// maxIntBits bits.
func checkProduct(x, y starlark.Value) error {
	xi, ok1 := x.(starlark.Int)
	yi, ok2 := y.(starlark.Int)
	if !ok1 || !ok2 {
		return nil
	}
	_, xSmall := xi.Int64()
	_, ySmall := yi.Int64()
	if xSmall && ySmall {
		return nil
	}
	if n := intBits(xi) + intBits(yi); n > maxIntBits {
		return fmt.Errorf("int * int: the product would have about %d bits, more than the limit of %d", n, maxIntBits)
	}
	return nil
}

// intBuiltin is int(x, base), which refuses, before go.starlark.net parses
// it, text whose parse would run long or whose int would be too large.
func intBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	original := starlark.Universe["int"].(*starlark.Builtin)
	var x starlark.Value = starlark.MakeInt(0)
	var base starlark.Value
	if len(args) > 0 {
		x = args[0]
	}
	if _, isText := x.(starlark.String); !isText && len(kwargs) == 0 {
		return original.CallInternal(thread, args, kwargs)
	}
	if starlark.UnpackArgs("int", args, kwargs, "x", &x, "base?", &base) != nil {
		return original.CallInternal(thread, args, kwargs) // its own error
	}
	s, isText := x.(starlark.String)
	if !isText {
		return original.CallInternal(thread, args, kwargs)
	}
	given := 10
	if base != nil {
		var err error
		if given, err = starlark.AsInt32(base); err != nil || given != 0 && (given < 2 || given > 36) {
			return original.CallInternal(thread, args, kwargs)
		}
	}
	if err := checkIntText(thread, string(s), given); err != nil {
		return nil, err
	}
	return original.CallInternal(thread, args, kwargs)
}

// checkIntText refuses int(s, base) when go.starlark.net would parse
// more than maxDecimalDigits digits in a base other than 2, 4 or 16, or
// an int of more than maxIntBits bits; it charges the int's size to the
// call. Invalid text that is long fails here with go.starlark.net's
// message, since math/big only finds the invalid digit after parsing
// those before it.
func checkIntText(thread *starlark.Thread, s string, base int) error {
	digits, radix := intDigits(s, base)
	if len(digits) <= 64 { // fits: nothing to bound
		return nil
	}
	if !validDigits(digits, radix) {
		return fmt.Errorf("int: invalid literal with base %d: %s", base, s)
	}
	var bitsPerDigit int64
	switch radix {
	case 2:
		bitsPerDigit = 1
	case 4:
		bitsPerDigit = 2
	case 16:
		bitsPerDigit = 4
	default:
		if len(digits) > maxDecimalDigits {
			return fmt.Errorf("int: the text has %d digits in base %d: it exceeds the limit (%d digits) for integer string conversion", len(digits), radix, maxDecimalDigits)
		}
		return nil
	}
	bits := int64(len(digits)) * bitsPerDigit
	if bits > maxIntBits {
		return fmt.Errorf("int: the text has %d digits in base %d: the int would have %d bits, more than the limit of %d", len(digits), radix, bits, maxIntBits)
	}
	m := meterOf(thread)
	err := m.spend(bits / 8)
	if err == nil {
		err = m.flush()
	}
	if err != nil {
		return fmt.Errorf("int: %w", err)
	}
	return nil
}

// intDigits is the part of s that go.starlark.net's int(s, base) hands to
// math/big, and the base it parses it in: the text without its sign and
// without a prefix (0x, 0o, 0b) that base 0 reads, or that repeats the
// given base. Text that go.starlark.net settles without math/big (a sign
// left after the first, base 0 with a leading zero) gives no digits.
func intDigits(s string, base int) (string, int) {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if len(s) > 1 && s[0] == '0' {
		prefix := 0
		if len(s) > 2 {
			switch s[1] {
			case 'o', 'O':
				prefix = 8
			case 'x', 'X':
				prefix = 16
			case 'b', 'B':
				prefix = 2
			}
		}
		switch {
		case prefix != 0 && (base == 0 || base == prefix):
			base, s = prefix, s[2:]
		case prefix == 0 && base == 0:
			return "", 10
		}
	}
	if base == 0 {
		base = 10
	}
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return "", base
	}
	return s, base
}

// validDigits reports whether every byte of s is a digit in base radix
// (2 to 36), as math/big reads them when it is given the base.
func validDigits(s string, radix int) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d int
		switch {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case 'a' <= c && c <= 'z':
			d = int(c-'a') + 10
		case 'A' <= c && c <= 'Z':
			d = int(c-'A') + 10
		default:
			return false
		}
		if d >= radix {
			return false
		}
	}
	return true
}
