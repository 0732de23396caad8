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

// toStarlark converts a neutral value into a fresh Starlark value,
// counting nothing: for module constants, built outside any call.
func toStarlark(v any) starlark.Value {
	var m meter
	out, _ := m.toStarlark(v) // a zero meter never fails
	return out
}

// toStarlark converts a neutral value into a fresh Starlark value,
// charging what it allocates to the call. Neutral values are trees of at
// most stdlib.MaxDepth levels, so the work is linear in their size.
func (m *meter) toStarlark(v any) (starlark.Value, error) { return m.convert(v, 0, false) }

// bindField converts a payload field for a hook's parameters, like
// toStarlark, and checks on the way that it is a neutral value nested at
// most stdlib.MaxDepth levels counting the payload, as stdlib.Check
// would: a field that is not fails with scripting.ErrNotNeutral, so the
// host need not check the fields a hook binds (scripting.Hook.Binds).
func (m *meter) bindField(v any) (starlark.Value, error) { return m.convert(v, 1, true) }

// convert converts v, found depth levels down; strict refuses what is not
// neutral instead of describing it.
func (m *meter) convert(v any, depth int, strict bool) (starlark.Value, error) {
	if err := m.spend(valueSize); err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(v), nil
	case int64:
		return starlark.MakeInt64(v), nil
	case float64:
		if strict && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return nil, scripting.ErrNotNeutral
		}
		return starlark.Float(v), nil
	case string:
		if strict {
			return m.strings.box(v), nil
		}
		return starlark.String(v), nil
	case []any:
		if strict && depth >= stdlib.MaxDepth {
			return nil, scripting.ErrNotNeutral
		}
		return m.listToStarlark(v, depth, strict)
	case map[string]any:
		if strict && depth >= stdlib.MaxDepth {
			return nil, scripting.ErrNotNeutral
		}
		return m.mapToStarlark(v, depth, strict)
	case stdlib.Record:
		if strict {
			return nil, scripting.ErrNotNeutral // a module's result, never a payload
		}
		return m.recordToStarlark(v, depth)
	default:
		if strict {
			return nil, scripting.ErrNotNeutral
		}
		return starlark.String(fmt.Sprintf("<%T>", v)), nil
	}
}

func (m *meter) listToStarlark(v []any, depth int, strict bool) (starlark.Value, error) {
	if err := m.spendN(len(v)+2, valueSize); err != nil {
		return nil, err
	}
	elems := make([]starlark.Value, len(v))
	for i, e := range v {
		sv, err := m.convert(e, depth+1, strict)
		if err != nil {
			return nil, err
		}
		elems[i] = sv
	}
	return starlark.NewList(elems), nil
}

// recordToStarlark converts a module's Record into the dict of the map
// it stands for (its keys are sorted already), charged as the map is.
func (m *meter) recordToStarlark(r stdlib.Record, depth int) (starlark.Value, error) {
	if err := m.spendN(len(r.Values), entrySize); err != nil {
		return nil, err
	}
	if err := m.spend(dictSize); err != nil {
		return nil, err
	}
	d := starlark.NewDict(len(r.Values))
	for i, k := range r.Keys.Names() {
		sv, err := m.convert(r.Values[i], depth+1, false)
		if err != nil {
			return nil, err
		}
		_ = d.SetKey(starlark.String(k), sv) // a fresh dict with string keys cannot fail
	}
	return d, nil
}

func (m *meter) mapToStarlark(v map[string]any, depth int, strict bool) (starlark.Value, error) {
	if err := m.spendN(len(v), entrySize); err != nil {
		return nil, err
	}
	if err := m.spend(dictSize); err != nil {
		return nil, err
	}
	// Keys go in sorted order: a dict iterates in insertion order, and
	// scripts must see the same order on every call.
	var keys []string
	var vals []any // v's values in the order of keys, when sortedKeys found them
	var d *starlark.Dict
	place := -1 // the dict's place in m.dicts, for the keys put in it
	if strict {
		var buf [reusedDictLen]any
		keys, vals = m.keys.sortedKeys(v, buf[:])
		d, place = m.dicts.dict(len(v))
	} else {
		var buf [8]string
		keys = sortKeys(v, buf[:0])
		d = starlark.NewDict(len(v))
	}
	for i, k := range keys {
		var key starlark.Value
		var x any
		if strict {
			key = m.strings.box(k)
		} else {
			key = starlark.String(k)
		}
		if vals != nil {
			x = vals[i]
		} else {
			x = v[k]
		}
		sv, err := m.convert(x, depth+1, strict)
		if err != nil {
			return nil, err
		}
		_ = d.SetKey(key, sv) // a fresh dict with string keys cannot fail
		m.dicts.put(place, i, key)
	}
	return d, nil
}

// toNeutral converts a Starlark value into a neutral value, charging
// every value it visits to m. A value reachable along several paths (a
// list holding the same list twice) is converted once per path, because
// neutral values are trees; charging each visit makes a value whose
// expansion would be exponential fail fast with the memory-limit error
// instead of being expanded leaf by leaf. To fail fast, not only
// eventually, a large container met a second time is charged its whole
// converted size before it is converted again, so the charges of a
// value that doubles at every level grow faster than the work, and the
// budget runs out after a few hundred kilobytes of work. The path of an
// element is written out only for an error message.
func toNeutral(v starlark.Value, m *meter) (any, error) {
	return convertToNeutral(v, m, stdlib.MaxDepth)
}

// returnToNeutral converts a hook's return value, which may nest one
// level deeper than a payload (scripting.ReturnDepth). A decision is
// returned as the *scripting.Decision itself (see
// scripting.Decision.Return).
func returnToNeutral(v starlark.Value, m *meter) (any, error) {
	if d, ok := decisionOf(v); ok {
		out, err := d.Return(m.spend)
		if err == nil {
			err = m.flush()
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	return convertToNeutral(v, m, scripting.ReturnDepth)
}

func convertToNeutral(v starlark.Value, m *meter, maxDepth int) (any, error) {
	// The converter holds a copy of the meter, handed back at the end: a
	// pointer in it would make the caller's meter escape to the heap.
	c := converter{meter: *m, maxDepth: maxDepth}
	out, err := c.value(v)
	*m = c.meter
	if err == nil {
		err = m.flush()
	}
	return out, err
}

type converter struct {
	meter    meter
	maxDepth int
	path     []pathElem       // where the element being converted is
	open     []starlark.Value // the lists, dicts and structs on the path, for cycles
	spent    int64            // bytes charged by this conversion
	sizes    map[any]int64    // converted size of the large containers met so far
}

// largeContainer is the converted size from which a container's size is
// remembered, to charge it again in full when it is met again. Smaller
// ones are not worth a map entry: ordinary decisions never make the map.
const largeContainer = 4 << 10

// spend charges n bytes to the call and to this conversion.
func (c *converter) spend(n int64) error {
	c.spent += n
	return c.meter.spend(n)
}

// identity is what makes a container the same one when met again: its
// pointer, or for a tuple its backing array and length.
func identity(v starlark.Value) any {
	type tupleID struct {
		first *starlark.Value
		n     int
	}
	if t, ok := v.(starlark.Tuple); ok {
		if len(t) == 0 {
			return nil
		}
		return tupleID{&t[0], len(t)}
	}
	return v
}

// A pathElem is one step of a path: a list index, or a dict key when
// index is -1.
type pathElem struct {
	key   string
	index int
}

// where names the element being converted, for messages.
func (c *converter) where() string {
	path := ""
	for _, e := range c.path {
		if e.index >= 0 {
			path += "[" + strconv.Itoa(e.index) + "]"
		} else {
			path = stdlib.PathKey(path, e.key)
		}
	}
	return stdlib.PathName(path)
}

func (c *converter) value(v starlark.Value) (any, error) {
	if err := c.spend(valueSize); err != nil {
		return nil, err // where it stopped says nothing: the whole value is too large
	}
	switch v := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		return c.intValue(v)
	case starlark.Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s: %v cannot be converted", c.where(), f)
		}
		return f, nil
	case starlark.String:
		return string(v), nil
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlarkstruct.Struct:
		return c.container(v)
	case *decision:
		return c.decision(&v.d)
	default:
		return nil, fmt.Errorf("%s: a %s cannot be converted (want None, bool, int, float, string, list, tuple, dict or struct)", c.where(), v.Type())
	}
}

// decision converts a decision found inside another value (or passed to a
// builtin) into a copy of its map, charged to the call, so that what the
// conversion returns never shares structure.
func (c *converter) decision(d *scripting.Decision) (any, error) {
	if len(c.path)+d.Depth() > c.maxDepth {
		return nil, fmt.Errorf("%s: %w", c.where(), stdlib.ErrTooDeep)
	}
	return d.Copy(c.spend)
}

func (c *converter) intValue(v starlark.Int) (any, error) {
	if i, ok := v.Int64(); ok {
		return i, nil
	}
	f, _ := new(big.Float).SetInt(v.BigInt()).Float64()
	if math.IsInf(f, 0) {
		if checkDecimal(v) != nil { // its digits would take long to write
			return nil, fmt.Errorf("%s: an integer of %d bits is too large", c.where(), intBits(v))
		}
		return nil, fmt.Errorf("%s: integer %v is too large", c.where(), v)
	}
	return f, nil
}

func (c *converter) container(v starlark.Value) (any, error) {
	if len(c.path) >= c.maxDepth {
		return nil, fmt.Errorf("%s: %w", c.where(), stdlib.ErrTooDeep)
	}
	if _, isTuple := v.(starlark.Tuple); !isTuple { // tuples are values, not identities
		if slices.Contains(c.open, v) {
			return nil, fmt.Errorf("%s: the %s contains itself (a cycle cannot be converted)", c.where(), v.Type())
		}
		c.open = append(c.open, v)
		defer func() { c.open = c.open[:len(c.open)-1] }()
	}
	id := identity(v)
	if size, seen := c.sizes[id]; seen {
		if err := c.spend(size); err != nil {
			return nil, err
		}
	}
	before := c.spent
	out, err := c.elements(v)
	if size := c.spent - before; err == nil && size >= largeContainer && id != nil {
		if c.sizes == nil {
			c.sizes = make(map[any]int64)
		}
		c.sizes[id] = size
	}
	return out, err
}

func (c *converter) elements(v starlark.Value) (any, error) {
	switch v := v.(type) {
	case *starlark.List:
		return c.seq(v, v.Len())
	case starlark.Tuple:
		return c.seq(v, v.Len())
	case *starlark.Dict:
		return c.dict(v)
	case *starlarkstruct.Struct:
		return c.structure(v)
	}
	return nil, nil
}

// spendN charges n elements of size bytes each.
func (c *converter) spendN(n int, size int64) error {
	c.spent += int64(n) * size // n is the length of a value in memory: no overflow
	return c.meter.spendN(n, size)
}

// enter and leave bracket the conversion of one element.
func (c *converter) enter(key string, index int) { c.path = append(c.path, pathElem{key, index}) }
func (c *converter) leave()                      { c.path = c.path[:len(c.path)-1] }

func (c *converter) seq(s starlark.Indexable, n int) (any, error) {
	if err := c.spendN(n+2, valueSize); err != nil {
		return nil, err // where it stopped says nothing: the whole value is too large
	}
	out := make([]any, n)
	for i := 0; i < n; i++ {
		c.enter("", i)
		e, err := c.value(s.Index(i))
		c.leave()
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

func (c *converter) dict(d *starlark.Dict) (any, error) {
	if err := c.spendN(d.Len()+2, entrySize); err != nil {
		return nil, err // where it stopped says nothing: the whole value is too large
	}
	out := make(map[string]any, d.Len())
	for _, item := range d.Items() {
		k, ok := item[0].(starlark.String)
		if !ok {
			return nil, fmt.Errorf("%s: a dict key of type %s cannot be converted (want string keys)", c.where(), item[0].Type())
		}
		c.enter(string(k), -1)
		e, err := c.value(item[1])
		c.leave()
		if err != nil {
			return nil, err
		}
		out[string(k)] = e
	}
	return out, nil
}

func (c *converter) structure(s *starlarkstruct.Struct) (any, error) {
	names := s.AttrNames()
	if err := c.spendN(len(names)+2, entrySize); err != nil {
		return nil, err // where it stopped says nothing: the whole value is too large
	}
	out := make(map[string]any, len(names))
	for _, name := range names {
		a, err := s.Attr(name)
		if err != nil {
			return nil, err
		}
		c.enter(name, -1)
		e, err := c.value(a)
		c.leave()
		if err != nil {
			return nil, err
		}
		out[name] = e
	}
	return out, nil
}
