package starlark

import (
	"fmt"
	"sort"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The metered builtins that compare, pair or key their elements: min,
// max, sorted, zip and dict.

func minmax(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	name := b.Name()
	if len(args) == 0 {
		return nil, fmt.Errorf("%s requires at least one positional argument", name)
	}
	var key starlark.Callable
	if err := starlark.UnpackArgs(name, nil, kwargs, "key?", &key); err != nil {
		return nil, err
	}
	op := syntax.LT
	if name == "max" {
		op = syntax.GT
	}
	var seq starlark.Value = args
	if len(args) == 1 {
		seq = args[0]
	}
	it, ok := seq.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s: %s value is not iterable", name, seq.Type())
	}
	var best, bestKey starlark.Value
	err := each(thread, name, it, func(x starlark.Value) (bool, error) {
		k, err := keyOf(thread, key, x)
		if err != nil {
			return false, err
		}
		if best == nil {
			best, bestKey = x, k
			return true, nil
		}
		better, err := compareValues(thread, op, k, bestKey)
		if err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
		if better {
			best, bestKey = x, k
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if best == nil {
		return nil, fmt.Errorf("%s: argument is an empty sequence", name)
	}
	return best, nil
}

// keyOf applies the key function, if any. Its error is returned as is,
// to keep the script's backtrace.
func keyOf(thread *starlark.Thread, key starlark.Callable, x starlark.Value) (starlark.Value, error) {
	if key == nil {
		return x, nil
	}
	return starlark.Call(thread, key, starlark.Tuple{x}, nil)
}

func sorted(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	var key starlark.Callable
	var reverse bool
	if err := starlark.UnpackArgs("sorted", args, kwargs, "iterable", &it, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	m := meterOf(thread)
	perElem := int64(valueSize)
	if key != nil {
		perElem *= 2
	}
	values, err := collect(thread, &m, "sorted", it, perElem)
	if err != nil {
		return nil, err
	}
	s := &sortable{values: values, keys: values, meter: m, thread: thread}
	if key != nil {
		s.keyed = true
		s.keys = make([]starlark.Value, len(values))
		for i, v := range values {
			if s.keys[i], err = keyOf(thread, key, v); err != nil {
				return nil, err
			}
		}
	}
	if err := s.sort(reverse); err != nil {
		return nil, err
	}
	return starlark.NewList(s.values), s.meter.flush()
}

// sortable sorts values by keys (the values themselves when there is no
// key function), stably, like go.starlark.net's sorted, and stops at the
// first failed comparison or at the call's interrupt.
type sortable struct {
	values, keys []starlark.Value
	keyed        bool // keys is a slice of its own
	meter        meter
	thread       *starlark.Thread
}

// sortStop carries an error out of sort.Stable, which has no way to stop.
type sortStop struct{ err error }

func (s *sortable) sort(reverse bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(sortStop)
			if !ok {
				panic(r)
			}
			err = stop.err
		}
	}()
	var data sort.Interface = s
	if reverse {
		data = sort.Reverse(s)
	}
	sort.Stable(data)
	return nil
}

// Len implements sort.Interface.
func (s *sortable) Len() int { return len(s.values) }

// Less implements sort.Interface with Starlark's <, on the keys when
// sorted has a key function; the interrupt is checked every tickEvery
// comparisons, and an error stops the sort by panicking with sortStop.
func (s *sortable) Less(i, j int) bool {
	s.meter.ticks++
	if s.meter.ticks >= tickEvery { // comparisons check the interrupt, but are not steps
		s.meter.ticks = 0
		if err := s.meter.flush(); err != nil {
			panic(sortStop{fmt.Errorf("sorted: %w", err)})
		}
	}
	less, err := compareValues(s.thread, syntax.LT, s.keys[i], s.keys[j])
	if err != nil {
		panic(sortStop{err})
	}
	return less
}

// Swap implements sort.Interface, moving a value's key with it.
func (s *sortable) Swap(i, j int) {
	s.values[i], s.values[j] = s.values[j], s.values[i]
	if s.keyed {
		s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	}
}

func zip(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("zip does not accept keyword arguments")
	}
	iters := make([]starlark.Iterator, len(args))
	defer func() {
		for _, it := range iters {
			if it != nil {
				it.Done()
			}
		}
	}()
	rows := -1
	for i, seq := range args {
		if it, ok := seq.(starlark.Iterable); ok {
			iters[i] = iterate(it)
		}
		if iters[i] == nil {
			return nil, fmt.Errorf("zip: argument #%d is not iterable: %s", i+1, seq.Type())
		}
		if n := starlark.Len(seq); i == 0 || n < rows {
			rows = n
		}
	}
	m := meterOf(thread)
	w := weigherOf(thread)
	rowSize := int64(valueSize + sliceSize + valueSize*len(args))
	if err := m.spendN(rows, rowSize); err != nil {
		return nil, fmt.Errorf("zip: %d rows: %w", rows, err)
	}
	var result []starlark.Value
	if rows >= 0 {
		result = make([]starlark.Value, 0, rows)
	}
	for len(args) > 0 && (rows < 0 || len(result) < rows) {
		if err := m.tick(thread); err != nil {
			return nil, fmt.Errorf("zip: %w", err)
		}
		row, ok := zipRow(iters)
		if !ok {
			break
		}
		if err := w.checkTuple("zip", row); err != nil {
			return nil, err
		}
		if rows < 0 {
			if err := m.spend(rowSize); err != nil {
				return nil, fmt.Errorf("zip: %w", err)
			}
		}
		result = append(result, row)
	}
	return starlark.NewList(result), m.flush()
}

// zipRow takes the next element of every iterator, or reports false when
// one is exhausted.
func zipRow(iters []starlark.Iterator) (starlark.Tuple, bool) {
	row := make(starlark.Tuple, len(iters))
	for i, it := range iters {
		if !it.Next(&row[i]) {
			return nil, false
		}
	}
	return row, true
}

func dict(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, fmt.Errorf("dict: got %d arguments, want at most 1", len(args))
	}
	m := meterOf(thread)
	if err := m.spendN(len(kwargs), entrySize); err != nil {
		return nil, fmt.Errorf("dict: %w", err)
	}
	d := new(starlark.Dict)
	if len(args) == 1 {
		if err := dictUpdate(thread, &m, d, args[0]); err != nil {
			return nil, err
		}
	}
	before := d.Len()
	for _, kv := range kwargs {
		if err := d.SetKey(kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("dict: %w", err)
		}
	}
	if d.Len() < before+len(kwargs) { // a keyword replaced an entry: was it repeated?
		if err := repeatedKeyword(kwargs); err != nil {
			return nil, err
		}
	}
	return d, m.flush()
}

func repeatedKeyword(kwargs []starlark.Tuple) error {
	seen := make(map[starlark.String]bool, len(kwargs))
	for _, kv := range kwargs {
		k := kv[0].(starlark.String)
		if seen[k] {
			return fmt.Errorf("dict: duplicate keyword arg: %v", k)
		}
		seen[k] = true
	}
	return nil
}

// dictUpdate adds the entries of a mapping, or of an iterable of pairs.
// Its errors start with "dict: ".
func dictUpdate(thread *starlark.Thread, m *meter, d *starlark.Dict, src starlark.Value) error {
	n := starlark.Len(src)
	if err := m.spendN(n, entrySize+sliceSize+2*valueSize); err != nil {
		return fmt.Errorf("dict: %d entries: %w", n, err)
	}
	if err := weighElements(thread, "dict", src); err != nil {
		return err
	}
	if mapping, ok := src.(starlark.IterableMapping); ok {
		for _, item := range mapping.Items() {
			if err := m.tick(thread); err != nil {
				return fmt.Errorf("dict: %w", err)
			}
			if err := d.SetKey(item[0], item[1]); err != nil {
				return fmt.Errorf("dict: %w", err)
			}
		}
		return nil
	}
	it, ok := src.(starlark.Iterable)
	if !ok {
		return fmt.Errorf("dict: got %s, want iterable", src.Type())
	}
	i := 0
	return each(thread, "dict", it, func(pair starlark.Value) (bool, error) {
		if n < 0 {
			if err := m.spend(entrySize); err != nil {
				return false, fmt.Errorf("dict: %w", err)
			}
		}
		if err := dictPair(d, i, pair); err != nil {
			return false, fmt.Errorf("dict: %w", err)
		}
		i++
		return true, nil
	})
}

// dictPair adds one element of an iterable of pairs.
func dictPair(d *starlark.Dict, i int, pair starlark.Value) error {
	it := starlark.Iterate(pair)
	if it == nil {
		return fmt.Errorf("dictionary update sequence element #%d is not iterable (%s)", i, pair.Type())
	}
	defer it.Done()
	switch n := starlark.Len(pair); {
	case n < 0:
		return fmt.Errorf("dictionary update sequence element #%d has unknown length (%s)", i, pair.Type())
	case n != 2:
		return fmt.Errorf("dictionary update sequence element #%d has length %d, want 2", i, n)
	}
	var k, v starlark.Value
	it.Next(&k)
	it.Next(&v)
	return d.SetKey(k, v)
}
