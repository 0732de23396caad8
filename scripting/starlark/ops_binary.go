package starlark

import (
	"fmt"
	"math"
	"math/bits"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The hidden builtins of +, * and %, and of their augmented forms. Each
// is called with exactly two arguments by the rewritten code.

// An opCost is what an operation is about to build: n units of size
// bytes, described for the error as "what operand: n unit" (the two
// parts are joined only then).
type opCost struct {
	what    string // the operation, as "list * int" or "str %"
	operand string // the type of its operand, when what does not say it
	n       int64
	size    int64
	unit    string // "bytes" or "elements"
}

// charge charges c to the call the thread serves, before the operation
// allocates; the error names the operation, its size and the limit.
func (c opCost) charge(thread *starlark.Thread) error {
	if c.n <= 0 {
		return nil
	}
	m := meterOf(thread)
	bytes := int64(math.MaxInt64 / 2)
	if c.n <= math.MaxInt64/4/c.size {
		bytes = c.n * c.size
	}
	err := m.spend(bytes)
	if err == nil {
		err = m.flush()
	}
	if err != nil {
		what := c.what
		if c.operand != "" {
			what += " " + c.operand
		}
		return fmt.Errorf("%s: %d %s: %w", what, c.n, c.unit, err)
	}
	return nil
}

func addOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	if err := addCost(x, y).charge(thread); err != nil {
		return nil, err
	}
	if err := checkTupleArith(thread, syntax.PLUS, x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.PLUS, x, y)
}

func mulOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	if err := checkProduct(x, y); err != nil {
		return nil, err
	}
	if err := mulCost(x, y).charge(thread); err != nil {
		return nil, err
	}
	if err := checkTupleArith(thread, syntax.STAR, x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.STAR, x, y)
}

func modOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	cost, err := modCost(thread, x, y)
	if err == nil {
		err = cost.charge(thread)
	}
	if err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.PERCENT, x, y)
}

// addIntoOp is x += y's check: it returns y once the growth is charged.
// A list grows in place by y's elements (a range charges its own as Go
// code takes them); anything else is x + y.
func addIntoOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := args[0], args[1]
	cost := addCost(x, y)
	if _, ok := x.(*starlark.List); ok {
		cost = extendCost("list +=", y)
	}
	if err := cost.charge(thread); err != nil {
		return nil, err
	}
	if err := checkTupleArith(thread, syntax.PLUS, x, y); err != nil {
		return nil, err
	}
	return forCall(thread, y), nil
}

func mulIntoOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if err := checkProduct(args[0], args[1]); err != nil {
		return nil, err
	}
	if err := mulCost(args[0], args[1]).charge(thread); err != nil {
		return nil, err
	}
	if err := checkTupleArith(thread, syntax.STAR, args[0], args[1]); err != nil {
		return nil, err
	}
	return args[1], nil
}

func modIntoOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	cost, err := modCost(thread, args[0], args[1])
	if err == nil {
		err = cost.charge(thread)
	}
	if err != nil {
		return nil, err
	}
	return args[1], nil
}

// addCost is the size of x + y: strings and bytes are copied, lists and
// tuples get a new array. Numbers cost nothing (a sum of ints grows by a
// bit at most).
func addCost(x, y starlark.Value) opCost {
	switch x := x.(type) {
	case starlark.Int, starlark.Float:
		return opCost{}
	case starlark.String:
		if y, ok := y.(starlark.String); ok {
			return bytesCost("str + str", len(x)+len(y))
		}
	case starlark.Bytes:
		if y, ok := y.(starlark.Bytes); ok {
			return bytesCost("bytes + bytes", len(x)+len(y))
		}
	case *starlark.List:
		if y, ok := y.(*starlark.List); ok {
			return elemsCost("list + list", int64(x.Len())+int64(y.Len()))
		}
	case starlark.Tuple:
		if y, ok := y.(starlark.Tuple); ok {
			return elemsCost("tuple + tuple", int64(len(x))+int64(len(y)))
		}
	}
	return opCost{}
}

// extendCost is what extending a list by it adds: each element a slot
// and its share of the list's growth. A range's elements are charged by
// the range itself; an iterable of unknown length is not charged.
func extendCost(what string, it starlark.Value) opCost {
	if _, ok := it.(rangeValue); ok {
		return opCost{}
	}
	n := starlark.Len(it)
	if n <= 0 {
		return opCost{}
	}
	return opCost{what: what, operand: it.Type(), n: int64(n), size: 2 * valueSize, unit: "elements"}
}

// mulCost is the size of x * y: a repetition's result, or the product of
// two ints at least one of which does not fit in 64 bits.
func mulCost(x, y starlark.Value) opCost {
	switch x := x.(type) {
	case starlark.Int:
		switch y := y.(type) {
		case starlark.Int:
			return intMulCost(x, y)
		case starlark.String, starlark.Bytes, *starlark.List, starlark.Tuple:
			return repeatCost(y, x)
		}
	case starlark.Float:
		return opCost{}
	case starlark.String, starlark.Bytes, *starlark.List, starlark.Tuple:
		if n, ok := y.(starlark.Int); ok {
			return repeatCost(x, n)
		}
	}
	return opCost{}
}

// repeatCost is the size of seq * n. A count go.starlark.net refuses
// (past 32 bits, or a result of 2^30 elements or more) costs nothing:
// the operation then fails with the interpreter's own error.
func repeatCost(seq starlark.Value, n starlark.Int) opCost {
	count, err := starlark.AsInt32(n)
	if err != nil || count < 1 {
		return opCost{}
	}
	length := starlark.Len(seq)
	hi, total := bits.Mul64(uint64(length), uint64(count))
	if hi != 0 || total >= 1<<30 {
		return opCost{}
	}
	switch seq.(type) {
	case starlark.String:
		return bytesCost("string * int", int(total))
	case starlark.Bytes:
		return bytesCost("bytes * int", int(total))
	case *starlark.List:
		return elemsCost("list * int", int64(total))
	}
	return elemsCost("tuple * int", int64(total))
}

// intMulCost is the size of a product of big ints: the sum of the
// operands' sizes.
func intMulCost(x, y starlark.Int) opCost {
	_, xSmall := x.Int64()
	_, ySmall := y.Int64()
	if xSmall && ySmall {
		return opCost{}
	}
	n := (intBits(x) + intBits(y)) / 8
	return bytesCost("int * int", int(n))
}

func intBits(i starlark.Int) int64 {
	if v, ok := i.Int64(); ok {
		if v < 0 {
			v = -v
		}
		return int64(bits.Len64(uint64(v)))
	}
	return int64(i.BigInt().BitLen())
}

func bytesCost(what string, n int) opCost {
	return opCost{what: what, n: int64(n), size: 1, unit: "bytes"}
}

func elemsCost(what string, n int64) opCost {
	return opCost{what: what, n: n, size: valueSize, unit: "elements"}
}

// modCost is the size of format % args; other operands cost nothing.
func modCost(thread *starlark.Thread, x, y starlark.Value) (opCost, error) {
	format, ok := x.(starlark.String)
	if !ok {
		return opCost{}, nil
	}
	n, err := interpolateSize(thread, string(format), y)
	if err != nil {
		return opCost{}, fmt.Errorf("str %% %s: %w", y.Type(), err)
	}
	c := bytesCost("str %", int(n))
	c.operand = y.Type()
	return c, nil
}

// argsOp is f(*x)'s check: the call copies every element of x into its
// arguments. A range is charged here too, whoever made it, and its
// iterator then charges nothing: charged as it went, it would stop the
// call only in the callee.
func argsOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x := args[0]
	if n := starlark.Len(x); n > 0 {
		if err := elemsCost("*args", int64(n)).charge(thread); err != nil {
			return nil, err
		}
	}
	return prepaid(x), nil
}

// kwargsOp is f(**d)'s check: the call makes a name and value pair of
// every entry of d.
func kwargsOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x := args[0]
	if n := starlark.Len(x); n > 0 {
		c := opCost{what: "**kwargs", n: int64(n), size: entrySize, unit: "entries"}
		if err := c.charge(thread); err != nil {
			return nil, err
		}
	}
	return x, nil
}
