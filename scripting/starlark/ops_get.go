package starlark

import (
	"errors"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// x.get(key) and x.get(key, default), the way nearly every guard reads
// its payload (params.get("command", "")), cost go.starlark.net two
// allocations: reading x.get binds a new method value to the dict, and
// calling a builtin copies its arguments. A hook that allocates is what
// makes Go's collector run, and two allocations were half of a whole
// Starlark fire's. So the rewrite turns such a call, when its arguments
// are literals or names, into $get(x, key[, default]), which looks the
// key up directly when x is a dict and otherwise reads and calls x.get
// as the interpreter would (state.get, a struct's get), with its errors.
//
// When x is a name and the key and default are literals, as in
// params.get("command", ""), even $get's call is avoided, since calling
// a builtin copies its arguments (an allocation): the call becomes
//
//	(x[key] if key in x else default) if $isdict[x] else x.get(key, default)
//
// where $isdict[x] is a test of x's type that calls nothing ($isdict is
// a hidden mapping whose every lookup says whether the key is a dict; an
// index, unlike an operator, does not go through starlark.Binary, whose
// defer costs every call). Reading a name and a literal has no effect,
// so reading them more than once changes nothing; a literal key is
// hashable, so on a dict neither the test nor the index can fail; and
// the default, a literal, is read only when it is the result, as it
// would be. A missing default is $none (None, which a script could
// rebind by name). A receiver that is not a dict gets the call as
// written (its x.get binds no method: a module's or a struct's get is
// a value it already holds), so the call-free form is exactly the
// interpreter's, errors, columns and backtraces included.
//
// Two details differ from the plain call in the $get form, both only
// when it fails. The interpreter reads x.get before it evaluates the
// arguments, $get after:
// with arguments restricted to literals and names, the order shows only
// when x has no get and a name is also unbound (the error then names the
// name). And the call carries the position of the dot, so that "x has no
// .get field or method" points where it did; an error of get itself (an
// unhashable key) points at the dot rather than the parenthesis.

// opGet is the hidden builtin of a rewritten x.get(…); opIsDict and
// opNone are the hidden values of the call-free form.
const (
	opGet    = "$get"
	opIsDict = "$isdict"
	opNone   = "$none"
)

// A dictTest is $isdict: $isdict[x] is True when x is a *starlark.Dict.
// No script can name it; it only ever appears indexed.
type dictTest struct{}

var _ starlark.Mapping = dictTest{}

// String implements starlark.Value.
func (dictTest) String() string { return opIsDict }

// Type implements starlark.Value, as a builtin's.
func (dictTest) Type() string { return "builtin_function_or_method" }

// Freeze implements starlark.Value: dictTest holds nothing.
func (dictTest) Freeze() {}

// Truth implements starlark.Value.
func (dictTest) Truth() starlark.Bool { return starlark.True }

// Hash implements starlark.Value: $isdict is not hashable.
func (dictTest) Hash() (uint32, error) { return 0, errors.New("unhashable: " + opIsDict) }

// Get implements starlark.Mapping: $isdict[x] is whether x is a dict,
// always found.
func (dictTest) Get(x starlark.Value) (starlark.Value, bool, error) {
	_, ok := x.(*starlark.Dict)
	return starlark.Bool(ok), true, nil
}

// getOp is $get(x, key[, default]).
func getOp(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, errors.New(opGet + ": missing receiver")
	}
	if d, ok := args[0].(*starlark.Dict); ok && len(kwargs) == 0 && (len(args) == 2 || len(args) == 3) {
		v, found, err := d.Get(args[1])
		switch {
		case err != nil: // unhashable: the library's own call words it
		case found:
			return v, nil
		case len(args) == 3:
			return args[2], nil
		default:
			return starlark.None, nil
		}
	}
	get, err := getMethod(args[0])
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, get, args[1:], kwargs)
}

// getMethod is x.get, or the interpreter's error for reading it.
func getMethod(x starlark.Value) (starlark.Value, error) {
	if h, ok := x.(starlark.HasAttrs); ok {
		if v, err := h.Attr("get"); err == nil && v != nil {
			return v, nil
		}
	}
	// The interpreter's wording (with its spelling hint) comes from the
	// interpreter itself: a failing read costs microseconds, and only
	// fails the call anyway.
	_, err := starlark.EvalOptions(&syntax.FileOptions{}, &starlark.Thread{Name: opGet}, opGet, "x.get", starlark.StringDict{"x": x})
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return nil, errors.New(ee.Msg)
	}
	if err == nil {
		err = errors.New("internal error: x.get read on a second attempt")
	}
	return nil, err
}

// rewriteGet returns the rewrite of a call x.get(args…) whose one or two
// arguments are literals or names, or nil: the call-free form when x is
// a name and the arguments are literals, whose in operator and fallback
// call are marked as the rewrite's own, so the walk leaves them be.
func (rw *rewriter) rewriteGet(call *syntax.CallExpr) syntax.Expr {
	if rw.ownOps[call] || rw.without.has(speedGet) {
		return nil // the call-free form's own fallback, the call as written
	}
	get := rewriteGetCall(call)
	if get == nil {
		return nil
	}
	x, ok := get.Args[0].(*syntax.Ident)
	if !ok || rw.readsVarargs(x) || rw.without.has(speedCallFreeGet) {
		return get
	}
	key, ok := get.Args[1].(*syntax.Literal)
	if !ok {
		return get
	}
	var dflt syntax.Expr = &syntax.Ident{NamePos: call.Rparen, Name: opNone}
	if len(get.Args) == 3 {
		lit, ok := get.Args[2].(*syntax.Literal)
		if !ok {
			return get
		}
		dflt = lit
	}
	name := func() *syntax.Ident { return &syntax.Ident{NamePos: x.NamePos, Name: x.Name} }
	isDict := &syntax.IndexExpr{X: &syntax.Ident{NamePos: x.NamePos, Name: opIsDict}, Lbrack: x.NamePos, Y: name(), Rbrack: x.NamePos}
	has := &syntax.BinaryExpr{X: key, OpPos: call.Lparen, Op: syntax.IN, Y: name()}
	rw.ownOps[has], rw.ownOps[call] = true, true
	lookup := &syntax.CondExpr{If: call.Lparen, Cond: has, True: &syntax.IndexExpr{X: name(), Lbrack: call.Lparen, Y: key, Rbrack: call.Rparen},
		ElsePos: call.Rparen, False: dflt}
	return &syntax.CondExpr{If: x.NamePos, Cond: isDict, True: lookup, ElsePos: call.Rparen, False: call}
}

// rewriteGetCall returns $get(x, args…) for a call x.get(args…) whose
// one or two arguments are literals or names, or nil.
func rewriteGetCall(call *syntax.CallExpr) *syntax.CallExpr {
	dot, ok := call.Fn.(*syntax.DotExpr)
	if !ok || dot.Name.Name != "get" || len(call.Args) < 1 || len(call.Args) > 2 {
		return nil
	}
	for _, a := range call.Args {
		switch a.(type) {
		case *syntax.Literal, *syntax.Ident:
		default:
			return nil
		}
	}
	start, _ := dot.X.Span()
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: opGet}, Lparen: dot.Dot,
		Args: append([]syntax.Expr{dot.X}, call.Args...), Rparen: call.Rparen}
}
