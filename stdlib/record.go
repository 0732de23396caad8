package stdlib

import "slices"

// A Record stands for a map whose keys are known in advance. A module
// function that returns many maps of the same keys (shell.parse's
// commands, their paths and redirects) returns Records instead, and the
// engines build from each the table or dict the map would give, without
// the map being built and walked first: most of what a guard's call
// costs is its module results turned into script values.
//
// A Record is a module function's result and nothing else: Check refuses
// it, so it cannot be a payload, a hook's result or a stored value.
// Plain turns one, at any depth, into the map it stands for.
type Record struct {
	// Keys are shared by the Records of one shape, in byte order (the
	// order engines that sort a map's keys would use), never changed.
	Keys *RecordKeys
	// Values are in the order of Keys; a nil value is no key, as in a
	// map given to an engine.
	Values []any
}

// RecordKeys are the keys of a shape of Record, sorted once.
type RecordKeys struct{ names []string }

// NewRecordKeys returns the keys of a shape of Record: names sorted, each
// once. It panics on a repeated name (a programming error, at package
// initialisation).
func NewRecordKeys(names ...string) *RecordKeys {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			panic("stdlib.NewRecordKeys: the key " + sorted[i] + " is given twice")
		}
	}
	return &RecordKeys{names: sorted}
}

// Names are the keys, in byte order. Do not change the slice.
func (k *RecordKeys) Names() []string { return k.names }

// Index is where name's value goes in Values, or -1.
func (k *RecordKeys) Index(name string) int {
	i, ok := slices.BinarySearch(k.names, name)
	if !ok {
		return -1
	}
	return i
}

// New returns an empty Record of these keys, its values to be set by
// Index (or in the order of Names).
func (k *RecordKeys) New() Record { return Record{Keys: k, Values: make([]any, len(k.names))} }

// Map returns the map r stands for, a copy (Copy) of its values.
func (r Record) Map() map[string]any {
	m := make(map[string]any, len(r.Values))
	for i, name := range r.Keys.names {
		m[name] = Copy(r.Values[i])
	}
	return m
}

// Plain returns v with every Record in it, at any depth, turned into
// the map it stands for: the neutral value a module function's result
// stands for. v itself when it holds no Record, else a copy (Copy).
func Plain(v any) any {
	if !hasRecord(v) {
		return v
	}
	return Copy(v)
}

// hasRecord reports whether v holds a Record at any depth.
func hasRecord(v any) bool {
	switch v := v.(type) {
	case Record:
		return true
	case []any:
		return slices.ContainsFunc(v, hasRecord)
	case map[string]any:
		for _, e := range v {
			if hasRecord(e) {
				return true
			}
		}
	}
	return false
}
