package starlark

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Freezing a file's globals walks every value they hold. A list or dict
// is walked once (it remembers that it is frozen), but a tuple has no
// such mark, so a tuple that holds the same tuple twice, forty levels
// down (u = (u, u)), makes go.starlark.net's Freeze visit 2^40 elements,
// in Go, where nothing can interrupt it. freezeCost counts those visits
// first, remembering each tuple's count, in time linear in the number of
// distinct values, so such a file fails to load instead of hanging.

// maxFreezeVisits bounds the visits freezing a file's globals may take.
const maxFreezeVisits = 10_000_000

// freezeGlobals freezes globals, or fails when that would take more than
// maxFreezeVisits visits.
func freezeGlobals(globals starlark.StringDict) error {
	fc := freezeCounter{memo: map[any]int64{}, frozen: map[starlark.Value]bool{}}
	var total int64
	for _, name := range globals.Keys() {
		if total = capped(total + fc.count(globals[name])); total > maxFreezeVisits {
			return fmt.Errorf("global %s holds a value that shares tuples so much that freezing it would visit more than %d elements", name, maxFreezeVisits)
		}
	}
	globals.Freeze()
	return nil
}

// capped keeps counts from overflowing: past the bound, the exact number
// does not matter.
func capped(n int64) int64 { return min(n, maxFreezeVisits+1) }

type freezeCounter struct {
	memo   map[any]int64           // visits freezing a tuple or function makes
	frozen map[starlark.Value]bool // lists, dicts and sets: frozen on the first visit
}

// count returns the visits freezing v makes, given what the earlier
// counts froze. It walks each distinct value once.
func (fc *freezeCounter) count(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.Tuple, *starlark.Function: // no mark: walked on every visit
		id := identity(v)
		if n, ok := fc.memo[id]; ok {
			return n
		}
		n := capped(1 + fc.children(v))
		if id != nil {
			fc.memo[id] = n
		}
		return n
	case *starlark.List, *starlark.Dict, *starlark.Set:
		if fc.frozen[v] {
			return 1
		}
		fc.frozen[v] = true
		return capped(1 + fc.children(v))
	default:
		return 1
	}
}

// children counts the visits freezing v's elements makes.
func (fc *freezeCounter) children(v starlark.Value) int64 {
	var n int64
	add := func(e starlark.Value) { n = capped(n + fc.count(e)) }
	switch v := v.(type) {
	case starlark.Tuple:
		for _, e := range v {
			add(e)
		}
	case *starlark.List:
		for i := 0; i < v.Len(); i++ {
			add(v.Index(i))
		}
	case *starlark.Dict:
		for _, item := range v.Items() {
			add(item[0])
			add(item[1])
		}
	case *starlark.Set:
		iter := v.Iterate()
		defer iter.Done()
		var e starlark.Value
		for iter.Next(&e) {
			add(e)
		}
	case *starlark.Function:
		for i := 0; i < v.NumParams(); i++ {
			if d := v.ParamDefault(i); d != nil {
				add(d)
			}
		}
		for i := 0; i < v.NumFreeVars(); i++ {
			_, fv := v.FreeVar(i)
			add(fv)
		}
	}
	return n
}
