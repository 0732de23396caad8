package starlark

// How hookhost bounds each name go.starlark.net gives a script: the one
// table of it. go.starlark.net runs its builtins and the methods of its
// types in Go, where it never looks at the deadline, the step budget or
// the memory budget, so every name it exposes must be either replaced by
// a metered builtin, metered by the call rewrite (methodCosts), or bounded
// by what it is. names_test.go walks go.starlark.net's Universe and the
// methods of every built-in type and fails on a name this table does not
// classify, so an upgrade that adds an allocating builtin or method cannot
// slip through unmetered; it also checks the table against predeclared(),
// methodCosts and the lists in docs/scripting.md and docs/performance.md.

// A bounding is how one upstream name is kept within a call's limits.
type bounding int

const (
	// replaced: predeclared() shadows the name with hookhost's builtin,
	// which ticks the deadline, counts steps and charges memory.
	replaced bounding = iota + 1
	// metered: a call x.name(…) is rewritten, and methodCosts charges
	// what the call allocates before go.starlark.net runs it.
	metered
	// bounded: the name runs in time and memory bounded by values the
	// script already paid for, and allocates at most a constant (or
	// shares its operand's memory); why says how.
	bounded
)

// An upstreamName is the table's entry for one name.
type upstreamName struct {
	how bounding
	why string // for bounded names: what bounds it
}

const (
	constant      = "a constant"
	oneValue      = "looks at one value and returns a constant-size one"
	linearNoAlloc = "walks its receiver (whose size was charged) and allocates nothing"
	sharesMemory  = "returns a slice of its receiver, which shares its memory"
	lazyIterable  = "returns a lazy iterable over its receiver; what iterates it is metered"
	removes       = "removes entries: it shrinks what was already charged"
	hashesKey     = "hashes one key, a value already charged, and allocates nothing"
)

// universeNames classifies every name of starlark.Universe.
var universeNames = map[string]upstreamName{
	"None": {bounded, constant}, "True": {bounded, constant}, "False": {bounded, constant},
	"abs":  {bounded, oneValue},
	"bool": {bounded, oneValue}, "chr": {bounded, oneValue}, "ord": {bounded, oneValue},
	"float": {bounded, oneValue}, "type": {bounded, oneValue}, "len": {bounded, oneValue},
	"hash":    {bounded, "hashes a string, whose size was charged, or a value that hashes in constant time"},
	"hasattr": {bounded, "looks one attribute up; a failed lookup builds no message"},
	"dir":     {bounded, "lists the attribute names of one value: a few dozen at most"},
	"all":     {how: replaced}, "any": {how: replaced}, "bytes": {how: replaced},
	"dict": {how: replaced}, "enumerate": {how: replaced}, "fail": {how: replaced},
	"getattr": {how: replaced}, "int": {how: replaced}, "list": {how: replaced},
	"max": {how: replaced}, "min": {how: replaced}, "print": {how: replaced},
	"range": {how: replaced}, "repr": {how: replaced}, "reversed": {how: replaced},
	"set": {how: replaced}, "sorted": {how: replaced}, "str": {how: replaced},
	"tuple": {how: replaced}, "zip": {how: replaced},
}

// methodNames classifies every method of go.starlark.net's built-in
// types, by "type.method" (the type as starlark.Value.Type names it).
var methodNames = map[string]upstreamName{
	"bytes.elems": {bounded, lazyIterable},

	"dict.clear": {bounded, removes}, "dict.pop": {bounded, removes},
	"dict.get":   {bounded, hashesKey + " (rewritten for speed only: ops_get.go)"},
	"dict.items": {how: metered}, "dict.keys": {how: metered}, "dict.values": {how: metered},
	"dict.popitem": {how: metered}, "dict.setdefault": {how: metered}, "dict.update": {how: metered},

	"list.append": {how: metered}, "list.insert": {how: metered}, "list.extend": {how: metered},
	"list.index": {how: metered}, "list.remove": {how: metered},
	"list.clear": {bounded, removes}, "list.pop": {bounded, removes},

	"set.add": {how: metered}, "set.update": {how: metered}, "set.union": {how: metered},
	"set.intersection": {how: metered}, "set.difference": {how: metered},
	"set.symmetric_difference": {how: metered}, "set.issubset": {how: metered}, "set.issuperset": {how: metered},
	"set.clear": {bounded, removes}, "set.discard": {bounded, removes}, "set.pop": {bounded, removes},
	"set.remove": {bounded, removes},

	"string.join": {how: metered}, "string.replace": {how: metered}, "string.format": {how: metered},
	"string.split": {how: metered}, "string.rsplit": {how: metered}, "string.splitlines": {how: metered},
	"string.upper": {how: metered}, "string.lower": {how: metered}, "string.title": {how: metered},
	"string.capitalize":     {how: metered},
	"string.codepoint_ords": {bounded, lazyIterable}, "string.codepoints": {bounded, lazyIterable},
	"string.elem_ords": {bounded, lazyIterable}, "string.elems": {bounded, lazyIterable},
	"string.count": {bounded, linearNoAlloc}, "string.find": {bounded, linearNoAlloc},
	"string.rfind": {bounded, linearNoAlloc}, "string.index": {bounded, linearNoAlloc},
	"string.rindex": {bounded, linearNoAlloc}, "string.startswith": {bounded, linearNoAlloc},
	"string.endswith": {bounded, linearNoAlloc},
	"string.isalnum":  {bounded, linearNoAlloc}, "string.isalpha": {bounded, linearNoAlloc},
	"string.isdigit": {bounded, linearNoAlloc}, "string.islower": {bounded, linearNoAlloc},
	"string.isspace": {bounded, linearNoAlloc}, "string.istitle": {bounded, linearNoAlloc},
	"string.isupper": {bounded, linearNoAlloc},
	"string.strip":   {bounded, sharesMemory}, "string.lstrip": {bounded, sharesMemory},
	"string.rstrip": {bounded, sharesMemory}, "string.removeprefix": {bounded, sharesMemory},
	"string.removesuffix": {bounded, sharesMemory},
	"string.partition":    {bounded, sharesMemory + " (a 3-tuple of slices)"},
	"string.rpartition":   {bounded, sharesMemory + " (a 3-tuple of slices)"},
}

// replacedBuiltins are the names predeclared() replaces, from the table.
func replacedBuiltins() []string {
	var names []string
	for name, n := range universeNames {
		if n.how == replaced {
			names = append(names, name)
		}
	}
	return names
}
