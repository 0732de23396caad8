package starlark

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// x[f()] op= y, where the address has a call in it and cannot be read a
// second time: the rewrite holds the container and the key as the
// interpreter computes them, $hold(x)[$hold(f())] op= $atIndex(y, "op"),
// and the check takes them back, reads the old value (the interpreter
// has just read it, so this has no effect) and charges old op y. A field,
// f().g op= y, is held the same way. What is held lives on the call's
// thread, last in first out, and is released when the call returns; a
// call that fails in between leaves it to that release.

// The hidden builtins of a held address.
const (
	opHold    = "$hold"
	opAtIndex = "$atIndex"
	opAtField = "$atField"
)

// heldOps maps an augmented operator to the name its check is given.
var heldOps = map[syntax.Token]string{syntax.PLUS_EQ: "+", syntax.STAR_EQ: "*", syntax.PERCENT_EQ: "%"}

// holdAddress rewrites n, an augmented assignment to an index or a
// field whose address cannot be read twice; it reports false for any
// other target.
func holdAddress(n *syntax.AssignStmt) bool {
	op := &syntax.Literal{Token: syntax.STRING, TokenPos: n.OpPos, Raw: `"` + heldOps[n.Op] + `"`, Value: heldOps[n.Op]}
	switch lhs := unparen(n.LHS).(type) {
	case *syntax.IndexExpr:
		lhs.X, lhs.Y = holdCall(lhs.X), holdCall(lhs.Y)
		n.RHS = hiddenCall(opAtIndex, n.OpPos, n.RHS, op)
		return true
	case *syntax.DotExpr:
		lhs.X = holdCall(lhs.X)
		call := hiddenCall(opAtField, n.OpPos, n.RHS, op)
		name := &syntax.Literal{Token: syntax.STRING, TokenPos: lhs.NamePos, Raw: `"` + lhs.Name.Name + `"`, Value: lhs.Name.Name}
		call.Args = append(call.Args, name)
		n.RHS = call
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

// take pops the last n held values; nil when fewer are held.
func take(thread *starlark.Thread, n int) []starlark.Value {
	ct := callThreadOf(thread)
	if ct == nil || len(ct.held) < n {
		return nil
	}
	last := len(ct.held) - n
	out := append([]starlark.Value(nil), ct.held[last:]...)
	clear(ct.held[last:])
	ct.held = ct.held[:last]
	return out
}

// releaseHeld empties what a call held, dropping the references.
func releaseHeld(held []starlark.Value) []starlark.Value {
	clear(held)
	return held[:0]
}

// atIndexOp checks x[k] op= y: args are y and the operator.
func atIndexOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	y := args[0]
	if held := take(thread, 2); held != nil {
		if old, ok := indexOf(held[0], held[1]); ok {
			if err := heldCost(thread, args[1], old, y); err != nil {
				return nil, err
			}
		}
	}
	return y, nil
}

// atFieldOp checks x.f op= y: args are y, the operator and the field.
func atFieldOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	y := args[0]
	if held := take(thread, 1); held != nil {
		if x, ok := held[0].(starlark.HasAttrs); ok {
			if old, err := x.Attr(string(args[2].(starlark.String))); err == nil && old != nil {
				if err := heldCost(thread, args[1], old, y); err != nil {
					return nil, err
				}
			}
		}
	}
	return y, nil
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
	}
	return err
}
