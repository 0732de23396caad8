package starlark

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
)

// The hidden builtins of the bounded methods. A rewritten call
// x.name(args…) arrives as $name(x.name, args…): the attribute was looked
// up by the interpreter, with its own errors. When it is the string (or
// list) method of that name, the size of its result is charged first;
// then the method is called as the interpreter would have called it, so
// a module function or a struct field called join passes through
// untouched.

// splitPieceSize is what split and splitlines allocate for each piece:
// the list's slot, the string header and its box.
const splitPieceSize = 3 * valueSize

// A methodCost is the size of one bounded method's result, given its
// receiver and arguments; it costs nothing when the receiver is not of
// the method's type.
type methodCost func(thread *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (opCost, error)

// methodCosts are the methods whose calls are rewritten, with their
// costs.
var methodCosts = map[string]methodCost{
	"join": joinCost, "replace": replaceCost, "format": formatCost,
	"split": splitCost, "rsplit": splitCost, "splitlines": splitlinesCost,
	"upper": caseCost, "lower": caseCost, "title": caseCost, "capitalize": caseCost,
	"extend": extendMethodCost, "index": searchCost, "remove": searchCost,
	"update": addEntriesCost, "union": addEntriesCost,
	"items": dictViewCost, "keys": dictViewCost, "values": dictViewCost, "popitem": dictViewCost,
	"intersection": setMethodCost, "difference": setMethodCost, "symmetric_difference": setMethodCost,
	"issubset": setMethodCost, "issuperset": setMethodCost,
	"append": growCost, "insert": growCost, "add": growCost, "setdefault": growCost,
}

// methodOp is the hidden builtin of a rewritten method call: args[0] is
// x.name, looked up by the interpreter. When it is the library's method
// of that name, its call is metered first (meterMethod); anything else
// (a module function or a struct field called join) is called as it is.
func methodOp(thread *starlark.Thread, hidden *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, errors.New(hidden.Name() + ": missing method")
	}
	name := strings.TrimPrefix(hidden.Name(), "$")
	if b, ok := args[0].(*starlark.Builtin); ok && b.Name() == name && b.Receiver() != nil {
		if err := meterMethod(thread, b, args[1:], kwargs); err != nil {
			return nil, err
		}
	}
	return starlark.Call(thread, args[0], args[1:], kwargs)
}

// meterMethod charges the cost of calling the library method m with
// args, refusing a call the library would crash on, and prepares its
// arguments (a range is metered as the method iterates it, forCall).
func meterMethod(thread *starlark.Thread, m *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if err := missingSetArgument(m, args, kwargs); err != nil {
		return err
	}
	c, err := methodCosts[m.Name()](thread, m.Name(), m.Receiver(), args, kwargs)
	if err == nil {
		err = c.charge(thread)
	}
	if err != nil {
		return err
	}
	if storesArguments[m.Name()] {
		return nil // a range it keeps is iterated later, by other calls
	}
	for i := range args {
		args[i] = forCall(thread, args[i])
	}
	return nil
}

// joinCost is the length of sep.join(it): every string of it and a
// separator between two. It iterates it once beforehand (metered, so a
// long iterable answers the interrupt), stopping at the first element
// that is not a string, where join itself fails.
func joinCost(thread *starlark.Thread, _ string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (opCost, error) {
	sep, ok := recv.(starlark.String)
	if !ok || len(args) != 1 || len(kwargs) != 0 {
		return opCost{}, nil
	}
	it, ok := args[0].(starlark.Iterable)
	if !ok {
		return opCost{}, nil
	}
	m := meterOf(thread)
	iter := iterate(it)
	defer iter.Done()
	var total, n int64
	var x starlark.Value
	for iter.Next(&x) {
		if err := m.tick(thread); err != nil {
			return opCost{}, fmt.Errorf("join: %w", err)
		}
		s, ok := starlark.AsString(x)
		if !ok {
			break
		}
		total += int64(len(s))
		n++
	}
	if n > 1 {
		total += (n - 1) * int64(len(sep))
	}
	return opCost{what: "join", n: total, size: 1, unit: "bytes"}, nil
}

// replaceCost is the length of s.replace(old, new, count): each
// replacement (the empty string matches before every character and at
// the end) changes the length by len(new) - len(old).
func replaceCost(_ *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (opCost, error) {
	s, ok := recv.(starlark.String)
	if !ok {
		return opCost{}, nil
	}
	var old, new string
	count := -1
	if starlark.UnpackPositionalArgs(name, args, kwargs, 2, &old, &new, &count) != nil || old == new || count == 0 {
		return opCost{}, nil
	}
	k := int64(strings.Count(string(s), old))
	if count > 0 && int64(count) < k {
		k = int64(count)
	}
	if k == 0 {
		return opCost{}, nil
	}
	return bytesCost("replace", int(int64(len(s))+k*int64(len(new)-len(old)))), nil
}

func formatCost(thread *starlark.Thread, _ string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (opCost, error) {
	s, ok := recv.(starlark.String)
	if !ok {
		return opCost{}, nil
	}
	n, err := formatSize(thread, string(s), args, kwargs)
	if err != nil {
		return opCost{}, fmt.Errorf("format: %w", err)
	}
	return bytesCost("format", int(n)), nil
}

// splitCost is the number of pieces s.split(sep, maxsplit) (or rsplit)
// makes, each a list slot and a string.
func splitCost(_ *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (opCost, error) {
	s, ok := recv.(starlark.String)
	if !ok {
		return opCost{}, nil
	}
	var sep starlark.Value
	maxsplit := -1
	if starlark.UnpackPositionalArgs(name, args, kwargs, 0, &sep, &maxsplit) != nil {
		return opCost{}, nil
	}
	var pieces int64
	switch sep := sep.(type) {
	case nil, starlark.NoneType:
		pieces = fieldCount(string(s))
	case starlark.String:
		if sep == "" {
			return opCost{}, nil
		}
		pieces = int64(strings.Count(string(s), string(sep))) + 1
	default:
		return opCost{}, nil
	}
	if maxsplit >= 0 && int64(maxsplit)+1 < pieces {
		pieces = int64(maxsplit) + 1
	}
	return opCost{what: name, n: pieces, size: splitPieceSize, unit: "elements"}, nil
}

// fieldCount is the number of runs of non-space characters in s.
func fieldCount(s string) int64 {
	var n int64
	inField := false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		space := unicode.IsSpace(r)
		if !space && !inField {
			n++
		}
		inField = !space
		i += size
	}
	return n
}

func splitlinesCost(_ *starlark.Thread, name string, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	s, ok := recv.(starlark.String)
	if !ok {
		return opCost{}, nil
	}
	return opCost{what: name, n: int64(strings.Count(string(s), "\n")) + 1, size: splitPieceSize, unit: "elements"}, nil
}

// addEntriesCost is what d.update(…), s.update(…) and s.union(…) may add:
// an entry for every element of their arguments (a range charges its
// own) and every keyword argument; a union also copies the receiver.
func addEntriesCost(thread *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (opCost, error) {
	var what string
	switch recv.(type) {
	case *starlark.Dict:
		if len(args) > 1 { // update's own error follows
			return opCost{}, nil
		}
		what = "dict." + name
	case *starlark.Set:
		what = "set." + name
	default:
		return opCost{}, nil
	}
	n := int64(len(kwargs))
	if s, ok := recv.(*starlark.Set); ok && name == "union" { // a copy of the receiver, then the arguments
		n += int64(s.Len())
	}
	for _, arg := range args {
		if _, ok := arg.(rangeValue); !ok {
			n += int64(max(starlark.Len(arg), 0))
		}
	}
	if err := weighElements(thread, what, args...); err != nil {
		return opCost{}, err
	}
	return opCost{what: what, n: n, size: entrySize, unit: "entries"}, nil
}

func extendMethodCost(_ *starlark.Thread, _ string, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	if _, ok := recv.(*starlark.List); !ok || len(args) != 1 {
		return opCost{}, nil
	}
	return extendCost("list.extend of", args[0]), nil
}

// storesArguments are the metered methods that keep an argument rather
// than consume it: a range given to them is stored as it is, never
// charged to the call that stores it (forCall), since the calls that
// iterate it later are charged then.
var storesArguments = map[string]bool{"append": true, "insert": true, "add": true, "setdefault": true}

// appendSize is what one append costs a list in all: appended one at a
// time, a long list grows by a quarter each time it is full, so the
// arrays it has had add up to about five times its final slots.
const appendSize = 5 * valueSize

// growCost is what a method that adds one element or entry costs: a list
// slot (appendSize), or a set or dict entry, unless the key is there
// already. A loop of appends is metered like one extend of as many
// elements, instead of only by its steps.
func growCost(_ *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	switch r := recv.(type) {
	case *starlark.List:
		if name == "append" || name == "insert" {
			return opCost{what: "list." + name, n: 1, size: appendSize, unit: "elements"}, nil
		}
	case *starlark.Set:
		if name == "add" && len(args) == 1 {
			if has, err := r.Has(args[0]); err == nil && has {
				return opCost{}, nil
			}
			return opCost{what: "set.add", n: 1, size: entrySize, unit: "entries"}, nil
		}
	case *starlark.Dict:
		if name == "setdefault" && len(args) >= 1 {
			if _, found, err := r.Get(args[0]); err == nil && found {
				return opCost{}, nil
			}
			return opCost{what: "dict.setdefault", n: 1, size: entrySize, unit: "entries"}, nil
		}
	}
	return opCost{}, nil
}

// opMethodValue is the hidden builtin of a rewritten method value: x.name
// read but not called there (f = d.items, then f()) becomes
// $methodValue(x.name).
const opMethodValue = "$methodValue"

// methodValueOp returns a metered method for a library method the
// rewrite meters, and anything else as it is.
func methodValueOp(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return meteredMethodValue(args[0]), nil
}

// meteredMethodValue wraps a bound library method that the rewrite
// meters when called directly, so that calling it later is metered too:
// same name and receiver (so it prints, compares and hashes as the
// library's), and the library's own call once the cost is charged.
func meteredMethodValue(v starlark.Value) starlark.Value {
	m, ok := v.(*starlark.Builtin)
	if !ok || m.Receiver() == nil || methodCosts[m.Name()] == nil {
		return v
	}
	return starlark.NewBuiltin(m.Name(), func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := meterMethod(thread, m, args, kwargs); err != nil {
			return nil, err
		}
		return m.CallInternal(thread, args, kwargs)
	}).BindReceiver(m.Receiver())
}

// getattrOf is getattr(x, name[, default]), whose result is a metered
// method as x.name would be.
func getattrOf(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Universe["getattr"].(*starlark.Builtin).CallInternal(thread, args, kwargs)
	if err != nil {
		return nil, err
	}
	return meteredMethodValue(v), nil
}
