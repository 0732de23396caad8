package starlark

import "go.starlark.net/starlark"

// A dictCache keeps, on a pooled thread, the dicts its last call bound
// payload maps to, cleared, so that the next call refills them instead of
// allocating new ones: a Starlark dict is about 500 bytes however few its
// entries, most of a call's garbage. A script may change the dicts it is
// given, so a dict is kept only when the call that had it leaves it as
// small as a fresh one could be (at most reusedDictLen entries) and ran at
// most recycleSteps steps, too few to have grown its table much and
// shrunk it again; anything else is left to the collector. Clearing a
// dict removes every entry, so nothing of one call's payload reaches the
// next; a dict is only handed out again after the call that had it
// returned in time and its return value was converted, when nothing of
// that call can reach it any more (a thread's return value is converted
// to neutral values, and nothing a script makes outlives its call).
type dictCache struct {
	free []*starlark.Dict // cleared, ready for the next call
	used []*starlark.Dict // handed out to the running call
}

const (
	// reusedDictLen is the most entries of a dict worth keeping: those
	// fit the dict's own first bucket.
	reusedDictLen = 8
	// maxCachedDicts bounds the dicts a thread keeps.
	maxCachedDicts = 8
	// recycleSteps is the most steps a call may have run for its dicts
	// to be kept.
	recycleSteps = 10_000
)

// dict returns an empty dict for a map of n entries: a kept one when
// there is one and n is small, else a new one.
func (dc *dictCache) dict(n int) *starlark.Dict {
	if dc == nil || n > reusedDictLen || len(dc.used) >= maxCachedDicts {
		return starlark.NewDict(n)
	}
	var d *starlark.Dict
	if k := len(dc.free); k > 0 {
		d, dc.free[k-1] = dc.free[k-1], nil
		dc.free = dc.free[:k-1]
	} else {
		d = starlark.NewDict(n)
	}
	dc.used = append(dc.used, d)
	return d
}

// recycle keeps the running call's dicts for the next call, cleared, or
// drops them; steps is what the call ran.
func (dc *dictCache) recycle(steps uint64) {
	for i, d := range dc.used {
		dc.used[i] = nil
		if steps <= recycleSteps && d.Len() <= reusedDictLen && len(dc.free) < maxCachedDicts && d.Clear() == nil {
			dc.free = append(dc.free, d)
		}
	}
	dc.used = dc.used[:0]
}
