package lua

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Building string-keyed tables in one go. gopher-lua's RawSetString keeps
// three structures per table: strdict (key to value), keys (the keys in
// insertion order, which next and pairs walk) and k2i (key to its place
// in keys). Setting keys one by one grows keys and k2i from nothing,
// rehashing k2i several times, and boxes each key twice (once for k2i,
// once for keys). Converting a module's result — shell.parse's commands
// are tables of fifteen keys — is a good part of a guard's call, so a
// map whose size is known is built with the three structures sized
// once and each key boxed once.
//
// The three fields are unexported: they are found by reflect, by name
// and type, and set through their offsets. If a gopher-lua upgrade
// renames or retypes one, stringTableFields is nil and every table is
// built with RawSetString as before; a test checks that a table built
// here is, field for field, the table RawSetString builds when given
// the same keys in the same order (so next, pairs, # and rawget see
// the same), and fails if the fields are not found.

// ltableFields are the offsets of LTable's strdict, keys and k2i.
type ltableFields struct {
	strdict, keys, k2i uintptr
}

// stringTableFields is LTable's layout, or nil when this gopher-lua does
// not have the fields this file expects. Computed once, never changed.
var stringTableFields = func() *ltableFields {
	typ := reflect.TypeFor[lua.LTable]()
	offset := func(name string, want reflect.Type) (uintptr, bool) {
		f, ok := typ.FieldByName(name)
		return f.Offset, ok && f.Type == want
	}
	var l ltableFields
	var ok1, ok2, ok3 bool
	l.strdict, ok1 = offset("strdict", reflect.TypeFor[map[string]lua.LValue]())
	l.keys, ok2 = offset("keys", reflect.TypeFor[[]lua.LValue]())
	l.k2i, ok3 = offset("k2i", reflect.TypeFor[map[lua.LValue]int]())
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	return &l
}()

// A stringTable is a string-keyed table being built: add every entry,
// then table.
type stringTable struct {
	strdict map[string]lua.LValue
	keys    []lua.LValue
	k2i     map[lua.LValue]int
}

// newStringTable starts a table of up to n string keys; only call it
// when stringTableFields is not nil.
func newStringTable(n int) stringTable {
	return stringTable{
		strdict: make(map[string]lua.LValue, n),
		keys:    make([]lua.LValue, 0, n),
		k2i:     make(map[lua.LValue]int, n),
	}
}

// add sets key, a key not added before, to v, as RawSetString(key, v)
// on the table would: a nil value makes no key.
func (s *stringTable) add(key string, v lua.LValue, boxes keyBoxes) {
	if v == lua.LNil {
		return
	}
	s.addBoxed(key, boxes.box(key), v)
}

// addBoxed is add with the key boxed already.
func (s *stringTable) addBoxed(key string, lkey, v lua.LValue) {
	if v == lua.LNil {
		return
	}
	s.strdict[key] = v
	s.k2i[lkey] = len(s.keys)
	s.keys = append(s.keys, lkey)
}

// into gives t, a table with no string or other hashed keys yet, the
// entries added.
func (s *stringTable) into(t *lua.LTable) {
	l := stringTableFields
	p := unsafe.Pointer(t)
	*(*map[string]lua.LValue)(unsafe.Add(p, l.strdict)) = s.strdict
	*(*[]lua.LValue)(unsafe.Add(p, l.keys)) = s.keys
	*(*map[lua.LValue]int)(unsafe.Add(p, l.k2i)) = s.k2i
}

// keyBoxes are the string keys a state's conversions boxed, reused by
// the next ones: the tables a module returns have the same few keys
// call after call, and boxing a key allocates. A boxed string cannot
// be changed, so sharing one between tables shows nothing (next gives
// the key's value, never its box).
type keyBoxes map[string]lua.LValue

// Bounds on what keyBoxes keep: keys are names, not data.
const (
	maxKeyBoxes = 256
	maxBoxedKey = 32
)

// box is key as a Lua value, boxed once per state.
func (kb keyBoxes) box(key string) lua.LValue {
	if lv, ok := kb[key]; ok {
		return lv
	}
	lv := lua.LValue(lua.LString(key))
	if kb != nil && len(kb) < maxKeyBoxes && len(key) <= maxBoxedKey {
		kb[key] = lv
	}
	return lv
}

// hashKeys are the keys of t that are not in its array part, in the
// order next gives them (a key whose value was set to nil stays listed),
// or false when stringTableFields is nil. The slice is t's own: only
// read it, and not across a change to t.
func hashKeys(t *lua.LTable) ([]lua.LValue, bool) {
	if stringTableFields == nil {
		return nil, false
	}
	return *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), stringTableFields.keys)), true
}

// startStringKeys gives t, if it has no string keys yet, the structures
// RawSetString would make for its first one, but small: RawSetString
// makes room for 32 keys at once (over a kilobyte), while most tables a
// hook fills key by key — a checker's fields, a set of names — get a
// few. Later keys grow them as RawSetString always does.
func startStringKeys(t *lua.LTable) {
	l := stringTableFields
	if l == nil {
		return
	}
	p := unsafe.Pointer(t)
	strdict := (*map[string]lua.LValue)(unsafe.Add(p, l.strdict))
	if *strdict != nil {
		return
	}
	*strdict = make(map[string]lua.LValue)
	// keys and k2i are made together, and kept if a key of another
	// type made them already.
	if keys := (*[]lua.LValue)(unsafe.Add(p, l.keys)); *keys == nil {
		*keys = make([]lua.LValue, 0, 4)
		*(*map[lua.LValue]int)(unsafe.Add(p, l.k2i)) = make(map[lua.LValue]int)
	}
}
