package starlark

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// Conversion between neutral values and Starlark values, in one place.
// Neutral → Starlark builds fresh, unfrozen lists and dicts, so a script
// may change what it receives and nothing outside changes. Starlark →
// neutral refuses what has no neutral form (functions, sets, bytes, NaN,
// non-string dict keys, cycles, nesting past stdlib.MaxDepth) with an
// error naming the path of the offending element.

// toStarlark converts a neutral value into a fresh Starlark value.
func toStarlark(v any) starlark.Value {
	switch v := v.(type) {
	case nil:
		return starlark.None
	case bool:
		return starlark.Bool(v)
	case int64:
		return starlark.MakeInt64(v)
	case float64:
		return starlark.Float(v)
	case string:
		return starlark.String(v)
	case []any:
		elems := make([]starlark.Value, len(v))
		for i, e := range v {
			elems[i] = toStarlark(e)
		}
		return starlark.NewList(elems)
	case map[string]any:
		// Keys go in sorted order: a dict iterates in insertion order, and
		// scripts must see the same order on every call.
		var buf [8]string
		keys := buf[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := starlark.NewDict(len(v))
		for _, k := range keys {
			_ = d.SetKey(starlark.String(k), toStarlark(v[k])) // a fresh dict with string keys cannot fail
		}
		return d
	default:
		return starlark.String(fmt.Sprintf("<%T>", v))
	}
}

// toNeutral converts a Starlark value into a neutral value.
func toNeutral(v starlark.Value) (any, error) {
	c := converter{maxDepth: stdlib.MaxDepth}
	return c.value(v, "")
}

// returnToNeutral converts a hook's return value, which may nest one
// level deeper than a payload (scripting.ReturnDepth).
func returnToNeutral(v starlark.Value) (any, error) {
	c := converter{maxDepth: scripting.ReturnDepth}
	return c.value(v, "")
}

type converter struct {
	depth    int
	maxDepth int
	onPath   map[starlark.Value]bool
}

func (c *converter) value(v starlark.Value, path string) (any, error) {
	switch v := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		return intValue(v, path)
	case starlark.Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: %v cannot be converted", stdlib.PathName(path), f)
		}
		return f, nil
	case starlark.String:
		return string(v), nil
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlarkstruct.Struct:
		return c.container(v, path)
	default:
		return nil, fmt.Errorf("%s: a %s cannot be converted (want None, bool, int, float, string, list, tuple, dict or struct)", stdlib.PathName(path), v.Type())
	}
}

func intValue(v starlark.Int, path string) (any, error) {
	if i, ok := v.Int64(); ok {
		return i, nil
	}
	f, _ := new(big.Float).SetInt(v.BigInt()).Float64()
	if math.IsInf(f, 0) {
		return nil, fmt.Errorf("%s: integer %v is too large", stdlib.PathName(path), v)
	}
	return f, nil
}

func (c *converter) container(v starlark.Value, path string) (any, error) {
	if c.depth >= c.maxDepth {
		return nil, fmt.Errorf("%s: %w", stdlib.PathName(path), stdlib.ErrTooDeep)
	}
	if _, isTuple := v.(starlark.Tuple); !isTuple { // tuples are values, not identities
		if c.onPath[v] {
			return nil, fmt.Errorf("%s: the %s contains itself (a cycle cannot be converted)", stdlib.PathName(path), v.Type())
		}
		if c.onPath == nil {
			c.onPath = make(map[starlark.Value]bool)
		}
		c.onPath[v] = true
		defer delete(c.onPath, v)
	}
	c.depth++
	defer func() { c.depth-- }()
	switch v := v.(type) {
	case *starlark.List:
		return c.seq(v, v.Len(), path)
	case starlark.Tuple:
		return c.seq(v, v.Len(), path)
	case *starlark.Dict:
		return c.dict(v, path)
	case *starlarkstruct.Struct:
		return c.structure(v, path)
	}
	return nil, nil
}

func (c *converter) seq(s starlark.Indexable, n int, path string) (any, error) {
	out := make([]any, n)
	for i := 0; i < n; i++ {
		e, err := c.value(s.Index(i), path+"["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

func (c *converter) dict(d *starlark.Dict, path string) (any, error) {
	out := make(map[string]any, d.Len())
	for _, item := range d.Items() {
		k, ok := item[0].(starlark.String)
		if !ok {
			return nil, fmt.Errorf("%s: a dict key of type %s cannot be converted (want string keys)", stdlib.PathName(path), item[0].Type())
		}
		e, err := c.value(item[1], stdlib.PathKey(path, string(k)))
		if err != nil {
			return nil, err
		}
		out[string(k)] = e
	}
	return out, nil
}

func (c *converter) structure(s *starlarkstruct.Struct, path string) (any, error) {
	names := s.AttrNames()
	out := make(map[string]any, len(names))
	for _, name := range names {
		a, err := s.Attr(name)
		if err != nil {
			return nil, err
		}
		e, err := c.value(a, stdlib.PathKey(path, name))
		if err != nil {
			return nil, err
		}
		out[name] = e
	}
	return out, nil
}
