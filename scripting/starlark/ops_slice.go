package starlark

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Slices, charged. x[lo:hi:step] copies what it selects of a string,
// bytes, a list or a tuple, so one step of a loop that keeps big[:] or
// s[::-1] allocates as much as the value it copies, however large; the
// budget never saw it. The rewrite makes such a slice
// $slice(x, "lhs", lo, hi, step): the string names which of lo, hi and
// step the source has, and the hidden builtin, given the operands in the
// order the interpreter evaluates them, does what the interpreter's
// slice instruction does — the same index rules and the same errors —
// except that it first charges what the slice selects. A slice of a
// literal is bounded by the source and left as written, and a slice of a
// range (a new range, not a copy) costs nothing.

// opSlice is the hidden builtin of a charged slice.
const opSlice = "$slice"

// sliceOp is $slice(x, parts, indices…).
func sliceOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 {
		return nil, errors.New(opSlice + ": missing operands")
	}
	x := args[0]
	parts, _ := starlark.AsString(args[1])
	var index [3]starlark.Value // lo, hi, step; nil when absent
	rest := args[2:]
	for _, p := range parts {
		if len(rest) == 0 {
			return nil, errors.New(opSlice + ": missing index")
		}
		index[strings.IndexRune("lhs", p)] = rest[0]
		rest = rest[1:]
	}
	sl, ok := x.(starlark.Sliceable)
	if !ok {
		return nil, fmt.Errorf("invalid slice operand %s", x.Type())
	}
	start, end, step, err := sliceBounds(sl.Len(), index[0], index[1], index[2])
	if err != nil {
		return nil, err
	}
	if r, ok := x.(rangeValue); ok && r.sliceOverflows(start, end, step) {
		return nil, errors.New("range slice: the new range does not fit in 64-bit integers")
	}
	if c, ok := sliceCost(x, start, end, step); ok {
		if err := c.charge(thread); err != nil {
			return nil, err
		}
	}
	return sl.Slice(start, end, step), nil
}

// sliceBounds turns the indices of a slice of a sequence of n (nil or
// None when absent) into the start, end and step Sliceable.Slice takes,
// by the language's rules: negative indices count from the end, indices
// past either end are clamped, and the defaults depend on the step's
// sign. The errors are worded as the interpreter words them.
func sliceBounds(n int, lo, hi, stepValue starlark.Value) (start, end, step int, err error) {
	step = 1
	if present(stepValue) {
		if step, err = starlark.AsInt32(stepValue); err != nil {
			return 0, 0, 0, fmt.Errorf("invalid slice step: %s", err)
		}
		if step == 0 {
			return 0, 0, 0, errors.New("zero is not a valid slice step")
		}
	}
	if step > 0 {
		start, end = 0, n
	} else {
		start, end = n-1, -1
	}
	if start, err = sliceIndex(lo, n, start); err != nil {
		return 0, 0, 0, fmt.Errorf("invalid start index: %s", err)
	}
	if step > 0 {
		start = min(max(start, 0), n)
	} else {
		start = min(start, n-1)
	}
	if end, err = sliceIndex(hi, n, end); err != nil {
		return 0, 0, 0, fmt.Errorf("invalid end index: %s", err)
	}
	if step > 0 {
		end = max(min(max(end, 0), n), start) // an end before the start selects nothing
	} else {
		end = max(end, -1)
		start = max(start, end)
	}
	return start, end, step, nil
}

func present(v starlark.Value) bool { return v != nil && v != starlark.None }

// sliceIndex is the index v, counted from the end when negative, or
// absent when v is.
func sliceIndex(v starlark.Value, n, absent int) (int, error) {
	if !present(v) {
		return absent, nil
	}
	i, err := starlark.AsInt32(v)
	if err != nil {
		return 0, err
	}
	if i < 0 {
		i += n
	}
	return i, nil
}

// sliceCost is what x[start:end:step] allocates. A slice of a string,
// bytes or a tuple with step 1 is a view of the same memory, free; a
// list's is a copy of its slots. Any other step builds the result one
// element at a time, and the arrays it grows through add up to about
// five times the result (a string is then copied once more).
func sliceCost(x starlark.Value, start, end, step int) (opCost, bool) {
	var c opCost
	view := step == 1
	switch x.(type) {
	case starlark.String:
		c = opCost{what: "str slice", size: 1, unit: "bytes"}
	case starlark.Bytes:
		c = opCost{what: "bytes slice", size: 1, unit: "bytes"}
	case starlark.Tuple:
		c = opCost{what: "tuple slice", size: valueSize, unit: "elements"}
	case *starlark.List:
		c, view = opCost{what: "list slice", size: valueSize, unit: "elements"}, false
	default:
		return c, false
	}
	if view {
		return opCost{}, false
	}
	if step > 0 {
		c.n = int64((end - start + step - 1) / step)
	} else {
		c.n = int64((start - end - step - 1) / -step)
	}
	if step != 1 {
		c.size *= steppedSliceFactor
	}
	return c, true
}

// steppedSliceFactor is what a slice with a step other than 1 allocates
// for each element it selects, in elements: the growth of the array it
// is built in, and a string's final copy.
const steppedSliceFactor = 6

// rewriteSlice returns $slice(x, parts, indices…) for the slice s, or
// nil for a slice of a literal.
func (rw *rewriter) rewriteSlice(s *syntax.SliceExpr) *syntax.CallExpr {
	if _, lit := unparen(s.X).(*syntax.Literal); lit {
		return nil
	}
	parts := ""
	args := []syntax.Expr{s.X, nil}
	for i, e := range []syntax.Expr{s.Lo, s.Hi, s.Step} {
		if e != nil {
			parts += string("lhs"[i])
			args = append(args, e)
		}
	}
	at := rw.slicePos(s)
	args[1] = &syntax.Literal{Token: syntax.STRING, TokenPos: at, Raw: `"` + parts + `"`, Value: parts}
	start := rw.start(s.X)
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: opSlice}, Lparen: at, Args: args, Rparen: s.Rbrack}
}
