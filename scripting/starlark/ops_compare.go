package starlark

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Comparisons, metered. go.starlark.net compares lists, tuples and dicts
// element by element, in Go, without looking at the thread: it stops
// ten levels down, but not across, so a list that holds the same
// thousand-element list at each of ten levels (built with ten
// repetitions, a few kilobytes) makes l == m, l < m, l in [m], m.index(l)
// or sorted([l, m]) visit 1000^10 elements in one instruction. Comparing
// lists, tuples and dicts is therefore hookhost's own here: the same
// walk, in the same order, with the same results and errors, that counts
// every element it visits as an execution step and checks the call's
// interrupt as it goes. Other values (strings, numbers, sets…) are
// compared by go.starlark.net; set elements are hashed, so a set
// comparison is weighed first (ops_tuples.go). The rewrite turns x == y
// (and !=, <, <=, >, >=, in, not in) into a hidden builtin unless an
// operand is a literal or a number; sorted, min, max and list.index and
// list.remove use the same comparison.

// errCompareDepth is go.starlark.net's error past the depth limit.
var errCompareDepth = errors.New("comparison exceeded maximum recursion depth")

// A comparer compares values for one call, metering its walk.
type comparer struct {
	thread *starlark.Thread
	meter  meter
	w      weigher
	visits int64 // elements visited so far
}

func newComparer(thread *starlark.Thread) comparer {
	return comparer{thread: thread, meter: meterOf(thread), w: weigherOf(thread)}
}

// recursive reports whether comparing v with a value of its type may
// walk elements: lists, tuples, dicts and sets do.
func recursive(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
		return true
	}
	return false
}

// searchedWithMeter reports whether looking for x among many elements
// needs the metered walk: x is a container, or a string long enough that
// comparing it with many equal ones costs more than the elements' own
// size.
func searchedWithMeter(x starlark.Value) bool {
	switch x := x.(type) {
	case starlark.String:
		return len(x) > stringWeightBytes
	case starlark.Bytes:
		return len(x) > stringWeightBytes
	}
	return recursive(x)
}

// compare is starlark.CompareDepth(op, x, y, depth), metered.
func (c *comparer) compare(op syntax.Token, x, y starlark.Value, depth int) (bool, error) {
	if depth < 1 {
		return false, errCompareDepth
	}
	if err := c.visit(1); err != nil {
		return false, err
	}
	switch x := x.(type) {
	case *starlark.List:
		if y, ok := y.(*starlark.List); ok {
			return c.sequences(op, x, y, depth)
		}
	case starlark.Tuple:
		if y, ok := y.(starlark.Tuple); ok {
			return c.sequences(op, x, y, depth)
		}
	case *starlark.Dict:
		if y, ok := y.(*starlark.Dict); ok && (op == syntax.EQL || op == syntax.NEQ) {
			eq, err := c.dicts(x, y, depth)
			return eq == (op == syntax.EQL), err
		}
	case *starlark.Set:
		if y, ok := y.(*starlark.Set); ok {
			if err := c.weighSets(x, y); err != nil {
				return false, err
			}
		}
	case starlark.String:
		if err := c.visit(int64(len(x)) / stringWeightBytes); err != nil {
			return false, err
		}
	case starlark.Bytes:
		if err := c.visit(int64(len(x)) / stringWeightBytes); err != nil {
			return false, err
		}
	}
	return starlark.CompareDepth(op, x, y, depth)
}

// visit counts n elements visited, checking the call every tickEvery.
func (c *comparer) visit(n int64) error {
	c.visits += n
	c.meter.ticks += int(n)
	if c.meter.ticks < tickEvery {
		return nil
	}
	c.meter.ticks = tickEvery - 1
	if err := c.meter.tick(c.thread); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	return nil
}

// sequences compares two lists or two tuples as go.starlark.net's
// sliceCompare does: the first pair of elements that differ decides.
func (c *comparer) sequences(op syntax.Token, x, y starlark.Indexable, depth int) (bool, error) {
	nx, ny := x.Len(), y.Len()
	if nx != ny && (op == syntax.EQL || op == syntax.NEQ) {
		return op == syntax.NEQ, nil
	}
	for i := 0; i < nx && i < ny; i++ {
		eq, err := c.compare(syntax.EQL, x.Index(i), y.Index(i), depth-1)
		if err != nil {
			return false, err
		}
		if !eq {
			switch op {
			case syntax.EQL:
				return false, nil
			case syntax.NEQ:
				return true, nil
			}
			return c.compare(op, x.Index(i), y.Index(i), depth-1)
		}
	}
	return threeway(op, nx-ny), nil
}

// dicts reports whether two dicts are equal as go.starlark.net's
// dictsEqual does: the same keys (looked up, so hashed: each key's
// weight is counted) with equal values.
func (c *comparer) dicts(x, y *starlark.Dict, depth int) (bool, error) {
	if x.Len() != y.Len() {
		return false, nil
	}
	for k, xv := range x.Entries() {
		if err := c.visit(c.weight(k)); err != nil {
			return false, err
		}
		yv, found, _ := y.Get(k)
		if !found {
			return false, nil
		}
		if eq, err := c.compare(syntax.EQL, xv, yv, depth-1); err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

func (c *comparer) weight(v starlark.Value) int64 {
	if c.w.ct == nil {
		return 1
	}
	return c.w.weight(v)
}

// weighSets counts what comparing two sets hashes: every element of
// both, at its weight. go.starlark.net then compares them in one go, so
// a comparison heavier than the tuple limit is refused before it starts.
func (c *comparer) weighSets(x, y *starlark.Set) error {
	var total int64
	for _, s := range [2]*starlark.Set{x, y} {
		for e := range s.Elements() {
			n := c.weight(e)
			total += n
			if err := c.visit(n); err != nil {
				return err
			}
		}
	}
	if c.w.ct != nil && total > c.w.limit {
		return fmt.Errorf("comparing these sets would hash more than %d elements, the limit of one step", c.w.limit)
	}
	return nil
}

// threeway interprets a three-way comparison as go.starlark.net does.
func threeway(op syntax.Token, cmp int) bool {
	switch op {
	case syntax.EQL:
		return cmp == 0
	case syntax.NEQ:
		return cmp != 0
	case syntax.LE:
		return cmp <= 0
	case syntax.LT:
		return cmp < 0
	case syntax.GE:
		return cmp >= 0
	}
	return cmp > 0
}

// compareValues is starlark.Compare(op, x, y), metered when both are
// containers.
func compareValues(thread *starlark.Thread, op syntax.Token, x, y starlark.Value) (bool, error) {
	if !recursive(x) || !recursive(y) {
		return starlark.Compare(op, x, y)
	}
	c := newComparer(thread)
	return c.compare(op, x, y, starlark.CompareLimit)
}

// compareOp returns the hidden builtin of x op y.
func compareOp(op syntax.Token) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		ok, err := compareValues(thread, op, args[0], args[1])
		if err != nil {
			return nil, err
		}
		return starlark.Bool(ok), nil
	}
}

// The hidden builtins of x in y and x not in y.
const (
	opIn    = "$in"
	opNotIn = "$notin"
)

// inOp is x in y, or x not in y: a list or tuple y is searched with the
// metered comparison when x is a container or a long string; anything
// else is go.starlark.net's.
func inOp(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	found, err := contains(thread, args[0], args[1])
	if err != nil {
		return nil, err
	}
	return starlark.Bool(found == (b.Name() == opIn)), nil
}

func contains(thread *starlark.Thread, x, y starlark.Value) (bool, error) {
	seq, ok := y.(starlark.Indexable)
	_, isList := y.(*starlark.List)
	_, isTuple := y.(starlark.Tuple)
	if !ok || !(isList || isTuple) || !searchedWithMeter(x) {
		z, err := starlark.Binary(syntax.IN, x, y)
		if err != nil {
			return false, err
		}
		return bool(z.Truth()), nil
	}
	c := newComparer(thread)
	for i := 0; i < seq.Len(); i++ {
		eq, err := c.compare(syntax.EQL, seq.Index(i), x, starlark.CompareLimit)
		if err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// searchCost is that of l.index(x, …) and l.remove(x): the search is walked
// once with the metered comparison, over every element, and refused
// when it would visit more than the tuple limit; then the method runs
// (go.starlark.net's, which then visits no more than that).
func searchCost(thread *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	l, ok := recv.(*starlark.List)
	if !ok || len(args) == 0 || !searchedWithMeter(args[0]) {
		return opCost{}, nil
	}
	c := newComparer(thread)
	for i := 0; i < l.Len(); i++ {
		if _, err := c.compare(syntax.EQL, l.Index(i), args[0], starlark.CompareLimit); errors.Is(err, errCompareDepth) {
			continue // go.starlark.net stops there too
		} else if err != nil {
			return opCost{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	if c.w.ct != nil && c.visits > c.w.limit {
		return opCost{}, fmt.Errorf("%s: the search would compare more than %d elements, the limit of one step", name, c.w.limit)
	}
	return opCost{}, nil
}

// compareBySource reports whether the source bounds what comparing x
// with y (x op y, or x in y) walks: an operand that is a literal, a
// number or None, True or False (unless the file binds those names) is
// compared without recursion; so is x in y when y is a string literal
// or a display of such operands.
func (rw *rewriter) compareBySource(op syntax.Token, x, y syntax.Expr) bool {
	if op != syntax.IN && op != syntax.NOT_IN {
		return rw.leafOperand(x) || rw.leafOperand(y)
	}
	if rw.leafOperand(x) || literalToken(y) == syntax.STRING {
		return true
	}
	var elems []syntax.Expr
	switch y := unparen(y).(type) {
	case *syntax.TupleExpr:
		elems = y.List
	case *syntax.ListExpr:
		elems = y.List
	default:
		return false
	}
	for _, e := range elems {
		if !rw.leafOperand(e) {
			return false
		}
	}
	return true
}

func (rw *rewriter) leafOperand(x syntax.Expr) bool {
	if literalToken(x) != syntax.ILLEGAL || rw.nums.numeric(x) {
		return true
	}
	id, ok := unparen(x).(*syntax.Ident)
	return ok && (id.Name == "None" || id.Name == "True" || id.Name == "False") && !rw.nums.bound[id.Name]
}
