package starlark

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// The predeclared environment of hook files: the hook module, and
// hookhost's own versions of the universal builtins that loop or build
// without bound in go.starlark.net (which never looks at Thread.Cancel
// inside a builtin, so min(range(1 << 62)) would never return). Each
// replacement behaves like the original on ordinary input, and in
// addition checks the call's interrupt every tickEvery iterations,
// counts its iterations as execution steps, charges what it allocates to
// the call's memory budget, and refuses a size past the budget before it
// starts. The originals stay in starlark.Universe; predeclared names
// shadow them.

// predeclared returns the names every hook file sees besides
// starlark.Universe.
func predeclared(hookMod *starlarkstruct.Module) starlark.StringDict {
	env := starlark.StringDict{"hook": hookMod}
	for name, fn := range map[string]func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error){
		"all":       all,
		"any":       anyOf,
		"bytes":     bytesOf,
		"dict":      dict,
		"enumerate": enumerate,
		"fail":      fail,
		"int":       intBuiltin,
		"getattr":   getattrOf,
		"list":      list,
		"max":       minmax,
		"min":       minmax,
		"print":     printValues,
		"range":     rangeBuiltin,
		"repr":      repr,
		"reversed":  reversed,
		"set":       set,
		"sorted":    sorted,
		"str":       str,
		"tuple":     tuple,
		"zip":       zip,
	} {
		env[name] = starlark.NewBuiltin(name, fn)
	}
	addOpBuiltins(env)
	return env
}

// collect gathers the elements of an iterable. When the length is known
// it charges every element (each elemSize bytes) before allocating, so an
// iterable too large for the budget fails at once; otherwise it charges
// as it goes.
func collect(thread *starlark.Thread, m *meter, name string, it starlark.Iterable, elemSize int64) ([]starlark.Value, error) {
	n := starlark.Len(it)
	var elems []starlark.Value
	if n >= 0 {
		if err := m.spendN(n, elemSize); err != nil {
			return nil, fmt.Errorf("%s: %d elements: %w", name, n, err)
		}
		elems = make([]starlark.Value, 0, n)
	}
	iter := iterate(it)
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if n < 0 {
			if err := m.spend(elemSize); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		if err := m.tick(thread); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		elems = append(elems, x)
	}
	return elems, nil
}

// iterate returns an iterator over it for a builtin that meters its own
// loop: a range's elements are then not charged a second time.
func iterate(it starlark.Iterable) starlark.Iterator {
	if r, ok := it.(rangeValue); ok {
		return &rangeIter{r: r}
	}
	return it.Iterate()
}

// each calls fn for every element of it, checking the call as it goes.
// fn returns false to stop.
func each(thread *starlark.Thread, name string, it starlark.Iterable, fn func(starlark.Value) (bool, error)) error {
	m := meterOf(thread)
	iter := iterate(it)
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if err := m.tick(thread); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		more, err := fn(x)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

func list(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	if err := starlark.UnpackPositionalArgs("list", args, kwargs, 0, &it); err != nil {
		return nil, err
	}
	if it == nil {
		return starlark.NewList(nil), nil
	}
	m := meterOf(thread)
	elems, err := collect(thread, &m, "list", it, valueSize)
	if err != nil {
		return nil, err
	}
	return starlark.NewList(elems), m.flush()
}

func tuple(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	if err := starlark.UnpackPositionalArgs("tuple", args, kwargs, 0, &it); err != nil {
		return nil, err
	}
	if it == nil {
		return starlark.Tuple(nil), nil
	}
	m := meterOf(thread)
	elems, err := collect(thread, &m, "tuple", it, valueSize)
	if err != nil {
		return nil, err
	}
	if err := weigherOf(thread).checkTuple("tuple", elems); err != nil {
		return nil, err
	}
	return starlark.Tuple(elems), m.flush()
}

func reversed(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	if err := starlark.UnpackPositionalArgs("reversed", args, kwargs, 1, &it); err != nil {
		return nil, err
	}
	m := meterOf(thread)
	elems, err := collect(thread, &m, "reversed", it, valueSize)
	if err != nil {
		return nil, err
	}
	for i, j := 0, len(elems)-1; i < j; i, j = i+1, j-1 {
		elems[i], elems[j] = elems[j], elems[i]
	}
	return starlark.NewList(elems), m.flush()
}

func set(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	if err := starlark.UnpackPositionalArgs("set", args, kwargs, 0, &it); err != nil {
		return nil, err
	}
	s := new(starlark.Set)
	if it == nil {
		return s, nil
	}
	m := meterOf(thread)
	if n := starlark.Len(it); n >= 0 {
		if err := m.spendN(n, entrySize); err != nil {
			return nil, fmt.Errorf("set: %d elements: %w", n, err)
		}
	}
	if err := weighElements(thread, "set", it); err != nil {
		return nil, err
	}
	err := each(thread, "set", it, func(x starlark.Value) (bool, error) {
		if err := s.Insert(x); err != nil {
			return false, fmt.Errorf("set: %w", err)
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return s, m.flush()
}

func anyOf(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return truthSearch(thread, "any", args, kwargs, true)
}

func all(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return truthSearch(thread, "all", args, kwargs, false)
}

// truthSearch reports whether some element's truth is want (any), or
// that none's is !want (all).
func truthSearch(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple, want bool) (starlark.Value, error) {
	var it starlark.Iterable
	if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &it); err != nil {
		return nil, err
	}
	found := false
	err := each(thread, name, it, func(x starlark.Value) (bool, error) {
		found = bool(x.Truth()) == want
		return !found, nil
	})
	if err != nil {
		return nil, err
	}
	return starlark.Bool(found == want), nil
}

func enumerate(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	var start int
	if err := starlark.UnpackPositionalArgs("enumerate", args, kwargs, 1, &it, &start); err != nil {
		return nil, err
	}
	m := meterOf(thread)
	w := weigherOf(thread)
	const pairSize = valueSize + sliceSize + 2*valueSize
	var pairs []starlark.Value
	var backing starlark.Tuple // one array for every pair, when the length is known
	n := starlark.Len(it)
	if n >= 0 {
		if err := m.spendN(n, pairSize); err != nil {
			return nil, fmt.Errorf("enumerate: %d elements: %w", n, err)
		}
		pairs, backing = make([]starlark.Value, 0, n), make(starlark.Tuple, 2*n)
	}
	err := each(thread, "enumerate", it, func(x starlark.Value) (bool, error) {
		var pair starlark.Tuple
		if len(backing) >= 2 {
			pair, backing = backing[:2:2], backing[2:]
		} else {
			if err := m.spend(pairSize); err != nil {
				return false, fmt.Errorf("enumerate: %w", err)
			}
			pair = make(starlark.Tuple, 2)
		}
		pair[0], pair[1] = starlark.MakeInt(start+len(pairs)), x
		if err := w.check("enumerate", 2+w.weight(x)); err != nil {
			return false, err
		}
		pairs = append(pairs, pair)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return starlark.NewList(pairs), m.flush()
}

func bytesOf(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("bytes does not accept keyword arguments")
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("bytes: got %d arguments, want exactly 1", len(args))
	}
	it, ok := args[0].(starlark.Iterable)
	if _, isString := args[0].(starlark.String); isString || !ok {
		return starlark.Universe["bytes"].(*starlark.Builtin).CallInternal(thread, args, kwargs)
	}
	m := meterOf(thread)
	var out []byte
	n := starlark.Len(it)
	if n >= 0 {
		if err := m.spendN(n, 1); err != nil {
			return nil, fmt.Errorf("bytes: %d elements: %w", n, err)
		}
		out = make([]byte, 0, n)
	}
	i := 0
	err := each(thread, "bytes", it, func(x starlark.Value) (bool, error) {
		var c byte
		if err := starlark.AsInt(x, &c); err != nil {
			return false, fmt.Errorf("bytes: at index %d, %s", i, err)
		}
		out = append(out, c)
		i++
		if n < 0 {
			return true, m.spend(1)
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return starlark.Bytes(out), m.flush()
}
