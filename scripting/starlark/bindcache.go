package starlark

import (
	"slices"

	"go.starlark.net/starlark"
)

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

// A keyCache keeps, on a pooled thread, the sorted keys of each payload
// map its last call bound, by place (the n-th map the binding converted),
// so that the next call binding a map with exactly those keys at that
// place needs neither to iterate the map nor to sort: a map with as many
// entries as the last one's keys and every one of them has no others,
// and the kept keys are already in order. It only saves work: the keys
// are the ones the map has, in the order a fresh sort would give.
type keyCache struct {
	places [maxCachedDicts][]string
	next   int // the place of the next map the running call binds
}

// sortedKeys returns v's keys sorted, and their values in vals (which
// must have room for reusedDictLen of them when v is that small).
func (kc *keyCache) sortedKeys(v map[string]any, vals []any) (keys []string, values []any) {
	if kc == nil || len(v) > reusedDictLen || kc.next >= maxCachedDicts {
		return sortKeys(v, nil), nil
	}
	i := kc.next
	kc.next++
	if last := kc.places[i]; len(last) == len(v) {
		values = vals[:0]
		for _, k := range last {
			x, ok := v[k]
			if !ok {
				values = nil
				break
			}
			values = append(values, x)
		}
		if values != nil {
			return last, values
		}
	}
	if kc.places[i] == nil {
		kc.places[i] = make([]string, 0, reusedDictLen)
	}
	kc.places[i] = sortKeys(v, kc.places[i][:0])
	return kc.places[i], nil
}

// sortKeys appends v's keys to buf, sorted.
func sortKeys(v map[string]any, buf []string) []string {
	for k := range v {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// start begins a call's binding.
func (kc *keyCache) start() { kc.next = 0 }
