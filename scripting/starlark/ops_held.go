package starlark

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// x[f()] op= y, where the address has a call in it and cannot be read a
// second time: the rewrite holds the value the interpreter is about to
// read, $hold(x)[$holdIndex(f())] op= $atHeld(y, "op"). The interpreter
// evaluates x, then the key, then reads x[key], and only then evaluates
// y; so $holdIndex, given the key, reads x[key] itself at that very
// point (a read of a list or dict, which has no effect) and holds it,
// and $atHeld charges old op y once y is known. Reading the old value
// after y would be wrong: y may change x[key] first (a call that empties
// it), and the charge would be of the changed value, not of what the
// interpreter combines. A field, f().g op= y, is held the same way,
// $holdField(f(), "g").g op= $atHeld(y, "op"). What is held lives on the
// call's thread, last in first out (y may hold and take in between, in
// balance), and is released when the call returns; a call that fails in
// between leaves it to that release.

// The hidden builtins of a held address.
const (
	opHold      = "$hold"
	opHoldIndex = "$holdIndex"
	opHoldField = "$holdField"
	opAtHeld    = "$atHeld"
)

// heldOps maps an augmented operator to the name its check is given.
var heldOps = map[syntax.Token]string{syntax.PLUS_EQ: "+", syntax.STAR_EQ: "*", syntax.PERCENT_EQ: "%",
	syntax.PIPE_EQ: "|", syntax.AMP_EQ: "&", syntax.CIRCUMFLEX_EQ: "^", syntax.MINUS_EQ: "-"}

// holdAddress rewrites n, an augmented assignment to an index or a
// field whose address cannot be read twice; it reports false for any
// other target.
func holdAddress(n *syntax.AssignStmt) bool {
	op := &syntax.Literal{Token: syntax.STRING, TokenPos: n.OpPos, Raw: `"` + heldOps[n.Op] + `"`, Value: heldOps[n.Op]}
	switch lhs := unparen(n.LHS).(type) {
	case *syntax.IndexExpr:
		lhs.X = holdCall(lhs.X)
		start, end := lhs.Y.Span()
		lhs.Y = &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: opHoldIndex}, Lparen: start, Args: []syntax.Expr{lhs.Y}, Rparen: end}
		n.RHS = hiddenCall(opAtHeld, n.OpPos, n.RHS, op)
		return true
	case *syntax.DotExpr:
		name := &syntax.Literal{Token: syntax.STRING, TokenPos: lhs.NamePos, Raw: `"` + lhs.Name.Name + `"`, Value: lhs.Name.Name}
		start, _ := lhs.X.Span()
		lhs.X = hiddenCall(opHoldField, start, lhs.X, name)
		n.RHS = hiddenCall(opAtHeld, n.OpPos, n.RHS, op)
		return true
	}
	return false
}

func holdCall(x syntax.Expr) syntax.Expr {
	start, end := x.Span()
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: opHold}, Lparen: start, Args: []syntax.Expr{x}, Rparen: end}
}

func holdOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if ct := callThreadOf(thread); ct != nil {
		ct.held = append(ct.held, args[0])
	}
	return args[0], nil
}

// holdIndexOp is the key of x[k] op= y: it takes back the container
// $hold kept, holds x[k] (nil when there is none: the interpreter's own
// read fails then) and returns k.
func holdIndexOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	k := args[0]
	ct := callThreadOf(thread)
	if ct == nil || len(ct.held) == 0 {
		return k, nil
	}
	last := len(ct.held) - 1
	old, ok := indexOf(ct.held[last], k)
	if !ok {
		old = nil
	}
	ct.held[last] = old
	return k, nil
}

// holdFieldOp is the object of x.f op= y: args are x and the field's
// name. It holds x.f (nil when there is none) and returns x.
func holdFieldOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x := args[0]
	if ct := callThreadOf(thread); ct != nil {
		var old starlark.Value
		if hx, ok := x.(starlark.HasAttrs); ok {
			if v, err := hx.Attr(string(args[1].(starlark.String))); err == nil {
				old = v
			}
		}
		ct.held = append(ct.held, old)
	}
	return x, nil
}

// takeHeld pops the last held value: the old value of an address, or
// nil when it had none or nothing is held.
func takeHeld(thread *starlark.Thread) starlark.Value {
	ct := callThreadOf(thread)
	if ct == nil || len(ct.held) == 0 {
		return nil
	}
	last := len(ct.held) - 1
	old := ct.held[last]
	ct.held[last] = nil
	ct.held = ct.held[:last]
	return old
}

// releaseHeld empties what a call held, dropping the references.
func releaseHeld(held []starlark.Value) []starlark.Value {
	clear(held)
	return held[:0]
}

// atHeldOp checks addr op= y against the old value held for addr: args
// are y and the operator.
func atHeldOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	y := args[0]
	if old := takeHeld(thread); old != nil {
		if err := heldCost(thread, args[1], old, y); err != nil {
			return nil, err
		}
	}
	return forCall(thread, y), nil
}

// indexOf is x[k] for the containers a script can assign into.
func indexOf(x, k starlark.Value) (starlark.Value, bool) {
	switch x := x.(type) {
	case *starlark.List:
		i, err := starlark.AsInt32(k)
		if err != nil {
			return nil, false
		}
		if i < 0 {
			i += x.Len()
		}
		if i < 0 || i >= x.Len() {
			return nil, false
		}
		return x.Index(i), true
	case starlark.Mapping:
		v, found, err := x.Get(k)
		return v, found && err == nil
	}
	return nil, false
}

// heldCost charges old op y, as x op= y with a name does.
func heldCost(thread *starlark.Thread, op, old, y starlark.Value) error {
	args := starlark.Tuple{old, y}
	var err error
	switch op {
	case starlark.String("+"):
		_, err = addIntoOp(thread, nil, args, nil)
	case starlark.String("*"):
		_, err = mulIntoOp(thread, nil, args, nil)
	case starlark.String("%"):
		_, err = modIntoOp(thread, nil, args, nil)
	case starlark.String("|"):
		err = checkSetOperator(thread, setIntoCost(syntax.PIPE, old, y), old, y)
	case starlark.String("&"):
		err = checkSetOperator(thread, setIntoCost(syntax.AMP, old, y), old, y)
	case starlark.String("^"):
		err = checkSetOperator(thread, setIntoCost(syntax.CIRCUMFLEX, old, y), old, y)
	case starlark.String("-"):
		err = checkSetOperator(thread, setIntoCost(syntax.MINUS, old, y), old, y)
	}
	return err
}
