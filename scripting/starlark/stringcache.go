package starlark

import "go.starlark.net/starlark"

// A stringCache keeps, on a pooled thread, the strings its last call
// bound from the payload, boxed as Starlark values, so that the next call
// binding an equal string in the same place reuses the box instead of
// allocating one: boxing a string costs an allocation, and consecutive
// calls of a hook mostly bind the same field names and many of the same
// values ("bash", a tool name, a path). A binding converts the payload in
// a fixed order (the signature's parameters, then each map's keys sorted),
// so "the same place" is simply the n-th string the call boxed.
//
// Starlark strings are immutable values without identity, so a script
// cannot tell a reused box from a new one. The cache holds only short
// strings, a few per thread, and nothing in it is reachable by a script
// of a later call except as the equal string that call was given.
type stringCache struct {
	boxes [cachedStrings]starlark.Value
	next  int // the place of the next string the running call boxes
}

const (
	// cachedStrings is how many strings a thread keeps.
	cachedStrings = 32
	// maxCachedString is the longest string worth keeping: comparing a
	// longer one costs about what boxing it saves, and the cache should
	// not keep large payload strings alive.
	maxCachedString = 256
)

// box returns s as a Starlark value: the box the last call made at this
// place when it holds the same string, else a new one, kept for the next
// call.
func (sc *stringCache) box(s string) starlark.Value {
	if sc == nil || len(s) > maxCachedString || sc.next >= cachedStrings {
		return starlark.String(s)
	}
	i := sc.next
	sc.next++
	if old, ok := sc.boxes[i].(starlark.String); ok && string(old) == s {
		return sc.boxes[i]
	}
	v := starlark.Value(starlark.String(s))
	sc.boxes[i] = v
	return v
}

// start begins a call's binding.
func (sc *stringCache) start() { sc.next = 0 }
