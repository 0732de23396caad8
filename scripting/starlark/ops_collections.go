package starlark

import (
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The hidden builtins and costs of the dict, set and string methods whose
// result grows with their receiver or arguments (d.items(), s.union(…),
// s.upper()…), and of the set and dict operators (s | t, s & t, s ^ t,
// s - t, d | e). Called in a loop that keeps the results, each copies
// its operands once more per step, so each is charged like the
// operators.

// itemSize is what d.items() allocates for each entry: a pair's two
// values, the pair's box in the list, its slot in the list and in the
// intermediate slice of pairs.
const itemSize = 3*valueSize + 2*sliceSize

// dictViewCost is the size of d.items(), d.keys() or d.values(): a list
// of every entry. The (key, value) pairs of items() and popitem() are
// new tuples, weighed first (ops_tuples.go): d[t] = t makes a pair twice
// as heavy as t.
func dictViewCost(thread *starlark.Thread, name string, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	d, ok := recv.(*starlark.Dict)
	if !ok {
		return opCost{}, nil
	}
	size := int64(valueSize)
	switch name {
	case "items", "popitem":
		if err := weighPairs(thread, "dict."+name, d, name == "popitem"); err != nil {
			return opCost{}, err
		}
		if name == "popitem" {
			return opCost{}, nil
		}
		size = itemSize
	}
	return opCost{what: "dict." + name, n: int64(d.Len()), size: size, unit: "entries"}, nil
}

// weighPairs weighs the pair of each entry of d (of the first only).
func weighPairs(thread *starlark.Thread, what string, d *starlark.Dict, first bool) error {
	w := weigherOf(thread)
	if w.ct == nil {
		return nil
	}
	for k, v := range d.Entries() {
		if err := w.check(what, 1+w.weight(k)+w.weight(v)); err != nil || first {
			return err
		}
	}
	return nil
}

// missingSetArgument refuses s.intersection(), s.difference(),
// s.symmetric_difference(), s.issubset() and s.issuperset() without their
// argument, which go.starlark.net's methods dereference as a nil
// iterable, with the message the library gives a missing argument.
func missingSetArgument(m *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if _, isSet := m.Receiver().(*starlark.Set); !isSet || len(args) > 0 || len(kwargs) > 0 {
		return nil
	}
	switch m.Name() {
	case "intersection", "difference", "symmetric_difference", "issubset", "issuperset":
		var other starlark.Iterable
		return starlark.UnpackPositionalArgs(m.Name(), nil, nil, 1, &other)
	}
	return nil
}

// setMethodCost is the size of the set s.intersection(x),
// s.difference(x) or s.symmetric_difference(x) makes: a copy of s (for
// the last, also every element of x); an intersection is no larger than
// either operand. An argument of unknown length (a range charges its own
// elements) counts as empty. These and s.issubset(x) and s.issuperset(x)
// hash every element of x, which is weighed first (ops_tuples.go).
func setMethodCost(thread *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	s, ok := recv.(*starlark.Set)
	if !ok || len(args) != 1 {
		return opCost{}, nil
	}
	if err := weighElements(thread, "set."+name, args[0]); err != nil {
		return opCost{}, err
	}
	if name == "issubset" || name == "issuperset" {
		return opCost{}, nil // they build nothing
	}
	return opCost{what: "set." + name, n: setResultLen(name, s.Len(), args[0]), size: entrySize, unit: "entries"}, nil
}

// setResultLen bounds the entries of the set an operation on a set of n
// entries and other makes.
func setResultLen(name string, n int, other starlark.Value) int64 {
	m := int64(0)
	if _, isRange := other.(rangeValue); !isRange {
		m = int64(max(starlark.Len(other), 0))
	}
	switch name {
	case "intersection":
		if m < int64(n) {
			return m
		}
	case "symmetric_difference", "union":
		return int64(n) + m
	}
	return int64(n)
}

// caseCost bounds the length of s.upper(), s.lower(), s.title() or
// s.capitalize(): as long as s when s is ASCII; otherwise, for each
// character, the longest of its upper, lower and title case, and three
// bytes (the replacement character) for each byte that is not UTF-8.
func caseCost(_ *starlark.Thread, name string, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) (opCost, error) {
	s, ok := recv.(starlark.String)
	if !ok {
		return opCost{}, nil
	}
	return bytesCost(name, int(caseSize(string(s)))), nil
}

func caseSize(s string) int64 {
	n := int64(0)
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			n += int64(utf8.RuneLen(utf8.RuneError))
			continue
		}
		n += int64(max(utf8.RuneLen(unicode.ToUpper(r)), utf8.RuneLen(unicode.ToLower(r)), utf8.RuneLen(unicode.ToTitle(r)), size))
	}
	return n
}

// The hidden builtins of the set and dict operators.
const (
	opOr  = "$or"
	opAnd = "$and"
	opXor = "$xor"
	opSub = "$sub"
)

// setOpTokens maps the hidden builtin of a set operator to its token.
var setOpTokens = map[string]syntax.Token{opOr: syntax.PIPE, opAnd: syntax.AMP, opXor: syntax.CIRCUMFLEX, opSub: syntax.MINUS}

// setOperatorOp is x | y, x & y, x ^ y or x - y: sets and dicts are
// charged the entries of the result; anything else (ints, floats) is
// the interpreter's.
func setOperatorOp(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	op := setOpTokens[b.Name()]
	x, y := args[0], args[1]
	if err := checkSetOperator(thread, setOperatorCost(op, x, y), x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(op, x, y)
}

// checkSetOperator charges what a set or dict operator builds and weighs
// what it hashes: every element of both operands (ops_tuples.go).
func checkSetOperator(thread *starlark.Thread, c opCost, x, y starlark.Value) error {
	if c.what == "" {
		return nil
	}
	if err := c.charge(thread); err != nil {
		return err
	}
	return weighElements(thread, c.what, x, y)
}

// setOperatorCost is the size of x op y for two sets, or two dicts under
// |; nothing otherwise.
func setOperatorCost(op syntax.Token, x, y starlark.Value) opCost {
	switch x := x.(type) {
	case *starlark.Set:
		if y, ok := y.(*starlark.Set); ok {
			name := map[syntax.Token]string{syntax.PIPE: "union", syntax.AMP: "intersection",
				syntax.CIRCUMFLEX: "symmetric_difference", syntax.MINUS: "difference"}[op]
			return opCost{what: "set " + op.String() + " set", n: setResultLen(name, x.Len(), y), size: entrySize, unit: "entries"}
		}
	case *starlark.Dict:
		if y, ok := y.(*starlark.Dict); ok && op == syntax.PIPE {
			return opCost{what: "dict | dict", n: int64(x.Len()) + int64(y.Len()), size: entrySize, unit: "entries"}
		}
	}
	return opCost{}
}

// setIntoCost is the growth of x op= y: a dict |= dict grows in place
// by y's entries; anything else is x op y.
func setIntoCost(op syntax.Token, x, y starlark.Value) opCost {
	if _, ok := x.(*starlark.Dict); ok && op == syntax.PIPE {
		if y, ok := y.(*starlark.Dict); ok {
			return opCost{what: "dict |= dict", n: int64(y.Len()), size: entrySize, unit: "entries"}
		}
		return opCost{}
	}
	return setOperatorCost(op, x, y)
}

// The hidden builtins of the augmented set and dict operators, and the
// operator each applies.
var setIntoTokens = map[string]syntax.Token{"$ior": syntax.PIPE, "$iand": syntax.AMP, "$ixor": syntax.CIRCUMFLEX, "$isub": syntax.MINUS}

// setIntoOp is x op= y's check: it returns y once the growth is charged.
func setIntoOp(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if err := checkSetOperator(thread, setIntoCost(setIntoTokens[b.Name()], args[0], args[1]), args[0], args[1]); err != nil {
		return nil, err
	}
	return args[1], nil
}
