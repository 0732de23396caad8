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
	used []usedDict       // handed out to the running call
}

// A usedDict is a dict handed out to the running call, with the keys the
// binding put in it (none when it did not say).
type usedDict struct {
	d    *starlark.Dict
	keys [reusedDictLen]starlark.Value
	n    int
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

// dict returns an empty dict for a map of n entries, and its place for
// filled: a kept one when there is one and n is small, else a new one
// (place -1 when the dict is not tracked).
func (dc *dictCache) dict(n int) (*starlark.Dict, int) {
	if dc == nil || n > reusedDictLen || len(dc.used) >= maxCachedDicts {
		return starlark.NewDict(n), -1
	}
	var d *starlark.Dict
	if k := len(dc.free); k > 0 {
		d, dc.free[k-1] = dc.free[k-1], nil
		dc.free = dc.free[:k-1]
	} else {
		d = starlark.NewDict(n)
	}
	// Slots are reused in place, and each field written on its own: a
	// usedDict is 150 bytes of mostly pointers, and copying or zeroing
	// it whole costs a write barrier on each while the collector marks.
	place := len(dc.used)
	if place < cap(dc.used) {
		dc.used = dc.used[:place+1]
	} else {
		dc.used = append(dc.used, usedDict{})
	}
	dc.used[place].d = d
	return d, place
}

// put records that the binding put key in the dict at place, its i-th
// key, so that recycle can take out just those.
func (dc *dictCache) put(place, i int, key starlark.Value) {
	if place < 0 || i >= reusedDictLen {
		return
	}
	u := &dc.used[place]
	u.keys[i] = key
	u.n = i + 1
}

// recycle keeps the running call's dicts for the next call, emptied, or
// drops them; steps is what the call ran.
func (dc *dictCache) recycle(steps uint64) {
	for i := range dc.used {
		u := &dc.used[i]
		if steps <= recycleSteps && u.d.Len() <= reusedDictLen && len(dc.free) < maxCachedDicts && empty(u) {
			dc.free = append(dc.free, u.d)
		}
		clear(u.keys[:u.n])
		u.d, u.n = nil, 0
	}
	dc.used = dc.used[:0]
}

// empty empties u's dict. A dict that still holds just the keys the
// binding put in it — what nearly every call leaves — loses them one by
// one: Clear zeroes the whole first bucket, eight entries of pointers,
// which costs far more than a few deletions while the collector marks
// (every pointer cleared goes through its write barrier). Anything else
// is cleared. It reports whether the dict is empty and can be reused.
func empty(u *usedDict) bool {
	if u.n > 0 && u.d.Len() == u.n {
		for _, k := range u.keys[:u.n] {
			if _, found, err := u.d.Delete(k); err != nil || !found {
				break
			}
		}
		if u.d.Len() == 0 {
			return true
		}
	}
	return u.d.Clear() == nil
}
