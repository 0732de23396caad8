package starlark

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// range, metered. A range is the one cheap way to make a huge iterable,
// and go.starlark.net's own Go code consumes iterables without looking at
// the deadline: l.extend(range(1 << 62)), l += range(…), set.update,
// set.union and f(*range(…)) would append until memory runs out. A
// hookhost range behaves like go.starlark.net's, but its iterator tells
// a Starlark for loop (which executes instructions between two elements,
// so the interpreter's step budget and deadline already apply) from Go
// code consuming it in a tight loop (no instruction in between): each
// element it gives to Go code is charged to the call's memory budget as
// one list slot and its share of the list's growth (two values), and
// every tickEvery elements it checks the interrupt.
// Past the budget or at the interrupt it stops and cancels the thread,
// so the script fails at its next instruction with the reason. hookhost's
// own builtins iterate ranges by index and meter them themselves.
//
// A range made while a file's top level runs (a global), or found in a
// frozen value, belongs to no call: many calls may iterate it at once,
// and its iterator cannot tell which thread asks. So the places that hand
// an iterable to go.starlark.net's Go code with the thread in hand (the
// hidden builtins of l.extend(x), l += x, the set and dict methods) give
// it forCall(thread, x) instead: a copy owned by the call
// the thread serves, metered as the call's own ranges are. The copy only
// lives while that Go code runs.

type rangeValue struct {
	start, stop, step, len int
	owner                  *callThread     // the thread of the call that made it; nil for a global
	call                   *scripting.Call // that call
}

var (
	_ starlark.Indexable  = rangeValue{}
	_ starlark.Sequence   = rangeValue{}
	_ starlark.Sliceable  = rangeValue{}
	_ starlark.Comparable = rangeValue{}
	_ starlark.Container  = rangeValue{}
)

func rangeBuiltin(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var start, stop, step int
	step = 1
	if err := starlark.UnpackPositionalArgs("range", args, kwargs, 1, &start, &stop, &step); err != nil {
		return nil, err
	}
	if len(args) == 1 {
		start, stop = 0, start
	}
	if step == 0 {
		return nil, fmt.Errorf("range: step argument must not be zero")
	}
	n, ok := rangeLen(start, stop, step)
	if !ok {
		return nil, errRangeTooLong
	}
	r := rangeValue{start: start, stop: stop, step: step, len: n}
	if ct := callThreadOf(thread); ct != nil && !ct.topLevel {
		r.owner, r.call = ct, ct.call
	}
	return r, nil
}

// forCall returns x, or, when x is a range the call the thread serves did
// not make, a copy of it owned by that call (see above).
func forCall(thread *starlark.Thread, x starlark.Value) starlark.Value {
	r, ok := x.(rangeValue)
	if !ok {
		return x
	}
	ct := callThreadOf(thread)
	if ct == nil || ct.call == nil || r.owner == ct && r.call == ct.call {
		return x
	}
	r.owner, r.call = ct, ct.call
	return r
}

// prepaid returns x, or, when x is a range, a copy whose iterator charges
// nothing: for Go code whose caller has charged every element already.
func prepaid(x starlark.Value) starlark.Value {
	if r, ok := x.(rangeValue); ok {
		r.owner, r.call = nil, nil
		return r
	}
	return x
}

// rangeLen is the number of elements of range(start, stop, step), step
// != 0; ok is false when it does not fit in an int (range(-(1 << 62),
// 1 << 62) spans more). The distance between the bounds is computed in
// uint64, where it cannot overflow.
func rangeLen(start, stop, step int) (n int, ok bool) {
	var dist, stride uint64
	switch {
	case step > 0 && stop > start:
		dist, stride = uint64(stop)-uint64(start), uint64(step)
	case step < 0 && start > stop:
		dist, stride = uint64(start)-uint64(stop), -uint64(step)
	default:
		return 0, true
	}
	count := (dist-1)/stride + 1
	if count > math.MaxInt {
		return 0, false
	}
	return int(count), true
}

// errRangeTooLong is the error of a range whose length does not fit in
// an int.
var errRangeTooLong = fmt.Errorf("range: more than %d elements", math.MaxInt)

// Len implements starlark.Sequence.
func (r rangeValue) Len() int { return r.len }

// Index implements starlark.Indexable: the i-th element, computed.
func (r rangeValue) Index(i int) starlark.Value { return starlark.MakeInt(r.start + i*r.step) }

// Freeze implements starlark.Value: a range is immutable.
func (r rangeValue) Freeze() {}

// Type implements starlark.Value: "range".
func (r rangeValue) Type() string { return "range" }

// Truth implements starlark.Value: a range is true when not empty.
func (r rangeValue) Truth() starlark.Bool { return r.len > 0 }

// Hash implements starlark.Value: a range is not hashable, as in
// go.starlark.net.
func (r rangeValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: range") }

// String implements starlark.Value as go.starlark.net writes a range:
// range(stop), range(start, stop) or range(start, stop, step).
func (r rangeValue) String() string {
	switch {
	case r.step != 1:
		return fmt.Sprintf("range(%d, %d, %d)", r.start, r.stop, r.step)
	case r.start != 0:
		return fmt.Sprintf("range(%d, %d)", r.start, r.stop)
	default:
		return fmt.Sprintf("range(%d)", r.stop)
	}
}

// sliceOverflows reports whether r.Slice(start, end, step) would leave
// 64-bit integers: a range may span them (range(-(1 << 62), 1 << 62)),
// and a slice multiplies its step.
func (r rangeValue) sliceOverflows(start, end, step int) bool {
	mulOverflows := func(a, b int) bool {
		if a == 0 || b == 0 {
			return false
		}
		return a*b/b != a || a == -1 && b == math.MinInt || b == -1 && a == math.MinInt
	}
	addOverflows := func(a, b int) bool { return (a+b > a) != (b > 0) }
	return mulOverflows(r.step, step) || mulOverflows(r.step, start) || mulOverflows(r.step, end) ||
		addOverflows(r.start, r.step*start) || addOverflows(r.start, r.step*end)
}

// Slice implements starlark.Sliceable: a slice of a range is a range,
// owned by the same call.
func (r rangeValue) Slice(start, end, step int) starlark.Value {
	s := r
	s.start, s.stop, s.step = r.start+r.step*start, r.start+r.step*end, r.step*step
	s.len, _ = rangeLen(s.start, s.stop, s.step) // a slice of a range is no longer than it
	return s
}

// CompareSameType implements starlark.Comparable: ranges compare equal
// or not, and have no order.
func (r rangeValue) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(rangeValue)
	// Two ranges are equal when they denote the same sequence.
	eq := r.len == o.len && (r.len == 0 || r.start == o.start && (r.len == 1 || r.step == o.step))
	switch op {
	case syntax.EQL:
		return eq, nil
	case syntax.NEQ:
		return !eq, nil
	}
	return false, fmt.Errorf("%s %s %s not implemented", r.Type(), op, o.Type())
}

// Has implements starlark.Container ("x in r") by arithmetic, without
// iterating.
func (r rangeValue) Has(y starlark.Value) (bool, error) {
	i, err := starlark.NumberToInt(y)
	if err != nil {
		return false, fmt.Errorf("'in <range>' requires integer as left operand, not %s", y.Type())
	}
	x, ok := i.Int64()
	if !ok {
		return false, nil
	}
	delta := int(x) - r.start
	return delta%r.step == 0 && delta/r.step >= 0 && delta/r.step < r.len, nil
}

// Iterate implements starlark.Iterable: the iterator charges the owning
// call for each element Go code consumes (see charge).
func (r rangeValue) Iterate() starlark.Iterator {
	it := &rangeIter{r: r, lastSteps: ^uint64(0)}
	if r.owner != nil {
		it.meter = meterFor(r.call, r.owner.limits)
	}
	return it
}

type rangeIter struct {
	r         rangeValue
	i         int
	meter     meter
	lastSteps uint64 // the thread's steps at the last Next
}

// Next implements starlark.Iterator; it ends early, with the thread
// cancelled, when the call runs out of budget.
func (it *rangeIter) Next(p *starlark.Value) bool {
	if it.i >= it.r.len {
		return false
	}
	if owner := it.r.owner; owner != nil && owner.call == it.r.call && !it.charge(&owner.thread) {
		return false
	}
	*p = it.r.Index(it.i)
	it.i++
	return true
}

// charge meters one element given to Go code; it reports false, having
// cancelled the thread, when the call must stop.
func (it *rangeIter) charge(thread *starlark.Thread) bool {
	steps := thread.Steps
	consumedByGo := steps == it.lastSteps
	it.lastSteps = steps
	if !consumedByGo {
		return true
	}
	err := it.meter.spend(2 * valueSize)
	if err == nil {
		err = it.meter.tick(nil)
	}
	if err != nil {
		thread.Cancel(fmt.Sprintf("iterating range: %v", err))
		return false
	}
	return true
}

// Done implements starlark.Iterator: a range iterator holds nothing.
func (it *rangeIter) Done() {}
