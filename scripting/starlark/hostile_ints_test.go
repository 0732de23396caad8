package starlark

import (
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// Huge ints: parsing decimal text and writing an int in decimal are
// quadratic in go.starlark.net (math/big) and cannot be interrupted, and
// a product of two huge ints runs long too. int("9" * 4000000) held a
// 300 ms hook for 32 s, a 2 MB digit string in the payload for 7.8 s, and
// str() of a 16-million-bit int for 2.5 s. Each case must fail at once,
// naming the file, the line and the hook.
func TestHostileInts(t *testing.T) {
	requireMeteredBuiltins(t)
	runCapped(t, func(t *testing.T) {
		const (
			digits  = "exceeds the limit (4300 digits) for integer string conversion"
			toText  = "an int of more than 4300 digits exceeds the limit for integer string conversion"
			bigX    = `X = int("f" * 4000, 16)` // 16,000 bits: 4,817 decimal digits
			product = "more than the limit of 262144"
		)
		for _, tc := range []hostileCase{
			{name: "int of 4,000,000 digits", body: `return hook.respond(int("9" * 4000000))`, want: "int: the text has 4000000 digits in base 10: it " + digits, line: 4},
			{name: "int of a payload field", body: `n = int(fields["s"])`, payload: map[string]any{"s": strings.Repeat("7", 2<<20)}, want: "int: the text has 2097152 digits in base 10", line: 4},
			{name: "int of a signed payload field", body: `return hook.respond(int(fields["s"], 10))`, payload: map[string]any{"s": "-" + strings.Repeat("7", 2<<20)}, want: digits, line: 4},
			{name: "int with base 0 of decimal text", body: `return hook.respond(int("1" * 4000000, 0))`, want: "int: the text has 4000000 digits in base 10", line: 4},
			{name: "int of octal text", body: `return hook.respond(int("7" * 4000000, 8))`, want: "int: the text has 4000000 digits in base 8", line: 4},
			{name: "int of octal text with base 0", body: `return hook.respond(int("0o" + "7" * 4000000, 0))`, want: "in base 8", line: 4},
			{name: "int of base 36 text", body: `return hook.respond(int("z" * 4000000, 36))`, want: "in base 36", line: 4},
			{name: "int of decimal text one past the limit", body: `return hook.respond(int("9" * 4301))`, want: "int: the text has 4301 digits in base 10", line: 4},
			{name: "int of long invalid text", body: `return hook.respond(int("9" * 4000000 + "x"))`, want: "int: invalid literal with base 10: 9999", line: 4},
			{name: "int of hex text past the bits limit", body: `return hook.respond(int("f" * 4000000, 16))`, want: "int: the text has 4000000 digits in base 16: the int would have 16000000 bits, " + product, line: 4},
			{name: "int of binary text past the bits limit", body: `return hook.respond(int("0b" + "1" * 300000, 0))`, want: "the int would have 300000 bits", line: 4},
			{name: "str of a big int", prelude: bigX, body: "return hook.respond(str(X))", want: "str: " + toText, line: 4},
			{name: "repr of a big int", prelude: bigX, body: "return hook.respond(repr(-X))", want: "repr: " + toText, line: 4},
			{name: "str of a list with a big int", prelude: bigX, body: "return hook.respond(str([1, (X,)]))", want: "str: " + toText, line: 4},
			{name: "print of a big int", prelude: bigX, body: "print('x', X)", want: "print: " + toText, line: 4},
			{name: "fail with a big int", prelude: bigX, body: "fail(X)", want: "fail: " + toText, line: 4},
			{name: "%d of a big int", prelude: bigX, body: `return hook.respond("%d" % X)`, want: "str % int: " + toText, line: 4},
			{name: "%s of a big int in a tuple", prelude: bigX, body: `return hook.respond("%s" % (X,))`, want: toText, line: 4},
			{name: "%d of a big int in a local", body: "x = int(\"f\" * 4000, 16)\nreturn hook.respond(\"%i\" % x)", want: toText, line: 5},
			{name: "%d= of a big int", body: "x = int(\"f\" * 4000, 16)\ns = \"%d\"\ns %= x", want: toText, line: 6},
			{name: "format of a big int", prelude: bigX, body: `return hook.respond("{}".format(X))`, want: "format: " + toText, line: 4},
			{name: "format !r of a big int", prelude: bigX, body: `return hook.respond("{0!r}".format(X))`, want: toText, line: 4},
			{name: "json.encode of a big int", prelude: bigX, body: "return hook.respond(json.encode(X))", want: "an integer of 16000 bits is too large", line: 4},
			{name: "a big int returned through hook.modify", prelude: bigX, body: `return hook.modify({"params": {"n": X}})`, want: "params.n: an integer of 16000 bits is too large", line: 4},
			{name: "a big int returned in a dict", prelude: bigX, body: `return {"action": "respond", "result": [X]}`, want: "an integer of 16000 bits is too large"},
			{name: "a product past the bits limit", body: "x = int(\"f\" * 40000, 16)\nreturn hook.respond(len(\"%x\" % (x * x)))", want: "int * int: the product would have about 320000 bits, " + product, line: 5},
			{name: "squaring in a loop", body: "x = 10\nfor _ in range(64):\n    x = x * x", want: "int * int: the product would have about", line: 6},
			{name: "*= squaring in a loop", body: "x = 10\nfor _ in range(64):\n    x *= x", want: "int * int: the product would have about", line: 6},
			{name: "a product by a huge literal in a loop", body: "x = 3\nfor _ in range(1000):\n    x = x * 0x" + strings.Repeat("f", 60000), want: "int * int: the product would have about", line: 6},
			{name: "*= squaring through a held address", body: "d = {\"k\": 10}\nk = lambda: \"k\"\nfor _ in range(64):\n    d[k()] *= d[\"k\"]", want: "int * int: the product would have about", line: 7},
		} {
			// A limit, not the deadline, must stop these, and each case
			// wants the limit's own error, so a limit that failed still
			// fails the case; a short deadline would only race the
			// limit on a loaded machine under -race (scanning 4 MB of
			// digits for the "x" took more than 300 ms there).
			if tc.timeout == 0 {
				tc.timeout = time.Minute
			}
			t.Run(tc.name, tc.run)
		}
		// What stays as it was: power-of-two text and output, numbers
		// within the limits, floats of long text.
		for _, tc := range []hostileCase{
			{name: "int of decimal text at the limit", body: `return hook.respond(len(str(int("9" * 4300))))`},
			{name: "hex of a big int", prelude: bigX, body: `return hook.respond(len("%x %o %X" % (X, X, X)))`},
			{name: "int of hex text within the bits limit", body: `return hook.respond(len("%x" % int("0x" + "f" * 65536, 0)))`},
			{name: "a product within the bits limit", body: "x = int(\"f\" * 30000, 16)\nreturn hook.respond(len(\"%x\" % (x * x)))"},
			{name: "float of a long string", body: `return hook.respond(float("0." + "9" * 4000000))`},
			{name: "float of a long string too large", body: `return hook.respond(float("9" * 4000000))`, want: "floating-point number too large"},
		} {
			if tc.timeout == 0 {
				tc.timeout = time.Minute
			}
			t.Run(tc.name, tc.run)
		}
	})
}

// The charge for hex text: int(s, 16) counts the int it builds against
// the call's budget.
func TestIntOfHexTextIsCharged(t *testing.T) {
	src := hookSrc("", "keep = []\nfor _ in range(100):\n    keep.append(int(fields[\"s\"], 16))")
	_, err := hostileCall(t, src, map[string]any{"s": strings.Repeat("f", 60000)}, time.Minute, scripting.Limits{MaxCallMemory: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "int: memory limit exceeded: this call would allocate more than 1MiB") {
		t.Fatalf("want the memory limit, got %v", err)
	}
}

// TestIntMatchesTheOriginal runs int() and the decimal writers on
// ordinary input through hookhost's builtins and go.starlark.net's.
func TestIntMatchesTheOriginal(t *testing.T) {
	ours := predeclared(hookModule(&scripting.Env{}))
	for _, expr := range []string{
		`int("42")`, `int("-0x1f", 16)`, `int("0x1f", 0)`, `int("0X1F", 16)`, `int("0b101", 0)`, `int("0o17", 0)`, `int("0o17", 8)`, `int("0b1", 16)`,
		`int("0755", 0)`, `int("000", 0)`, `int("0", 0)`, `int("12", base = 3)`, `int(x = "7")`, `int(x = "7", base = 8)`, `int("z", 36)`, `int("Zz", 36)`,
		`int("1_000")`, `int("1_000", 0)`, `int("")`, `int("+-1")`, `int("-")`, `int(" 1")`, `int("1 ")`, `int("0x", 16)`, `int("0x", 0)`, `int("12", 2)`,
		`len(str(int("9" * 4300)))`, `int("f" * 64, 16)`, `int("-" + "1" * 100, 2)`, `int("9" * 100) % 1000`, `int("9" * 80 + "x")`, `int("0x" + "g" * 80, 0)`,
		`int(1.9)`, `int(-2.5)`, `int(True)`, `int()`, `int("1", 1)`, `int("1", 37)`, `int(1, 10)`, `int("1", "x")`, `int([])`, `int(1e400)`, `int(float("nan"))`,
		`int("1", 10, 3)`, `int(y = 1)`, `int("1", base = 0)`, `int(b"1")`,
		`str(1 << 300)`, `repr(-(1 << 300))`, `str([1 << 100, -(1 << 64)])`, `str(int("9" * 4300))[:5]`, `print(1 << 200)`, `fail(1 << 70)`,
	} {
		want, wantErr := evalWith(t, nil, expr)
		got, gotErr := evalWith(t, ours, expr)
		if got != want || gotErr != wantErr {
			t.Errorf("%s:\n got  %q, error %q\n want %q, error %q", expr, got, gotErr, want, wantErr)
		}
	}
}
