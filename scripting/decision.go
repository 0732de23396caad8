package scripting

import (
	"github.com/hookhost/hookhost/stdlib"
)

// A Decision is what a decision constructor of the hook module returns:
// the neutral map a script could have written by hand, built once and
// never changed. An engine hands it to a script as an opaque, read-only
// value (fields readable by key) and, when a hook returns it as it is,
// returns Map unchanged, so that a decision is not converted into the
// language and back on its way to the host. Engines know nothing of its
// keys: the host parses the map like any other return value.
type Decision struct {
	m     map[string]any
	size  int64 // what Copy charges
	depth int   // levels of nesting of m, m itself counted
	// shared is set for a decision built outside any call (at a file's
	// top level): many calls may return it, so each gets a copy.
	shared bool
}

// newDecision seals m, which the constructor has just built. Its size is
// reckoned now, while nothing else can see it: a Decision is read-only.
func newDecision(m map[string]any) *Decision {
	size, depth := measure(m)
	return &Decision{m: m, size: size, depth: depth}
}

// Depth is how many levels the map nests, itself counted: a decision found
// inside another value makes that value this much deeper.
func (d *Decision) Depth() int { return d.depth }

// Share marks a decision built outside any hook call, before the engine
// hands it to the script: a file's top level may keep it in a global that
// every later call can return.
func (d *Decision) Share() { d.shared = true }

// Returned is what a hook that returns d hands the host: the decision's
// own map when the call built it (nothing else can reach it any more), a
// copy, charged, when it is shared.
func (d *Decision) Returned(charge func(int64) error) (map[string]any, error) {
	if d.shared {
		return d.Copy(charge)
	}
	return d.m, nil
}

// Map is the decision as a neutral map. It is shared: callers must not
// change it (the host only reads what a hook returns).
func (d *Decision) Map() map[string]any { return d.m }

// Field is the value of one key, and whether the decision has it.
func (d *Decision) Field(key string) (any, bool) {
	v, ok := d.m[key]
	return v, ok
}

// Keys are the decision's keys, sorted.
func (d *Decision) Keys() []string { return stdlib.SortedKeys(d.m) }

// Copy is a fresh copy of the map, for a decision found inside another
// value (an argument, a table a hook returns): neutral values that leave
// an engine never share structure. charge is called with what the copy
// costs before it is made, so that copying the same decision many times
// is bounded by the call's memory budget.
func (d *Decision) Copy(charge func(int64) error) (map[string]any, error) {
	if err := charge(d.size); err != nil {
		return nil, err
	}
	return deepCopy(d.m).(map[string]any), nil
}

// Costs used for charging copies: a container, and each of its entries.
const (
	containerCost = 64
	entryCost     = 32
)

// measure is roughly what a deep copy of v allocates, and how deep v
// nests. The values a constructor seals are trees the engine converted,
// within the call's limits, so the walk is linear and bounded.
func measure(v any) (size int64, depth int) {
	grow := func(e any) {
		s, d := measure(e)
		size += s
		depth = max(depth, d+1)
	}
	switch v := v.(type) {
	case []any:
		size, depth = int64(containerCost+entryCost*len(v)), 1
		for _, e := range v {
			grow(e)
		}
	case map[string]any:
		size, depth = int64(containerCost+entryCost*len(v)), 1
		for _, e := range v {
			grow(e)
		}
	}
	return size, depth
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	}
	return v
}
