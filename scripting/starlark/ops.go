package starlark

import (
	"fmt"
	"slices"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Operators and methods, bounded. go.starlark.net performs x * n, x + y
// and format % args in its interpreter loop, and sep.join, replace,
// format and split in its own Go code, with no hook for hookhost: one
// [0] * (1 << 28) asks the Go runtime for 4 GiB at once, and s = s + s
// doubles a string per step. Before a file is resolved and compiled its
// syntax tree is rewritten (ops_rewrite.go) so that each such operation
// calls one of the hidden builtins below: x + y becomes $plus(x, y),
// x += y becomes x += $iadd(x, y), s.join(l) becomes $join(s.join, l).
// The names start with '$', which a script cannot write, so no script can
// call, shadow or rebind them. Each one computes the size of the result
// from its operands, charges it to the call's memory budget (which also
// checks the interrupt), refusing before anything is allocated, and then
// performs the operation with go.starlark.net's own code (starlark.Binary,
// the method itself), so results and error messages are the
// interpreter's. The call instruction carries the operator's position,
// and the hidden frame is dropped from an error's call stack
// (dropHiddenFrames), so positions and backtraces read as before. One
// difference remains: a function whose arguments fail to bind reports
// the position of its first instruction, and when that is a rewritten
// operation whose first operand is a literal ('%s' % x, (1, x)), it is
// the operation's instead of the def's (reading the hidden builtin is a
// positioned instruction; a constant is not).
//
// Integer and float arithmetic takes the first case of a type switch,
// and operations whose size the source already bounds (i + 1, "-" * 40,
// x % 2, "a" + "b") are not rewritten at all.

// opBuiltins are the hidden builtins, by name. The table is built once
// and never changed; its builtins hold no state.
var opBuiltins = func() map[string]*starlark.Builtin {
	fns := map[string]func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error){
		opAdd:         addOp,
		opMul:         mulOp,
		opMod:         modOp,
		opAddInto:     addIntoOp,
		opMulInto:     mulIntoOp,
		opModInto:     modIntoOp,
		opArgs:        argsOp,
		opHold:        holdOp,
		opHoldIndex:   holdIndexOp,
		opHoldField:   holdFieldOp,
		opAtHeld:      atHeldOp,
		opKwargs:      kwargsOp,
		"$eq":         compareOp(syntax.EQL),
		"$ne":         compareOp(syntax.NEQ),
		"$lt":         compareOp(syntax.LT),
		"$le":         compareOp(syntax.LE),
		"$gt":         compareOp(syntax.GT),
		"$ge":         compareOp(syntax.GE),
		opIn:          inOp,
		opNotIn:       inOp,
		opMethodValue: methodValueOp,
		opGet:         getOp,
		opSlice:       sliceOp,
		opTuple:       tupleOp,
		opVarargs:     varargsOp,
		opOr:          setOperatorOp,
		opAnd:         setOperatorOp,
		opXor:         setOperatorOp,
		opSub:         setOperatorOp,
		"$ior":        setIntoOp,
		"$iand":       setIntoOp,
		"$ixor":       setIntoOp,
		"$isub":       setIntoOp,
	}
	for name := range methodCosts {
		if fns["$"+name] != nil { // a method named like an operator's builtin
			panic("starlark: two hidden builtins named $" + name)
		}
		fns["$"+name] = methodOp
	}
	out := make(map[string]*starlark.Builtin, len(fns))
	for name, fn := range fns {
		out[name] = starlark.NewBuiltin(name, fn)
	}
	return out
}()

// The hidden builtins of the operators.
const (
	opAdd     = "$plus" // not $add: set.add's is $add
	opMul     = "$mul"
	opMod     = "$mod"
	opAddInto = "$iadd"
	opMulInto = "$imul"
	opModInto = "$imod"
	opArgs    = "$args"
	opKwargs  = "$kwargs"
)

// addOpBuiltins adds the hidden builtins to a file's predeclared names
// (so that a cached program's key names them too).
func addOpBuiltins(predeclared starlark.StringDict) {
	for k, b := range opBuiltins {
		predeclared[k] = b
	}
	for k, v := range opValues {
		predeclared[k] = v
	}
}

// opValues are the hidden values that are not builtins (ops_get.go).
var opValues = func() map[string]starlark.Value {
	values := map[string]starlark.Value{opIsDict: dictTest{}, opNone: starlark.None}
	for name := range values {
		if opBuiltins[name] != nil {
			panic("starlark: a hidden value and a hidden builtin both named " + name)
		}
	}
	return values
}()

// rewrittenProgram parses src, rewrites its bounded operations and
// compiles it; predeclared must hold the hidden builtins. A file the
// resolver rejects is resolved again as written, so its errors are
// exactly go.starlark.net's.
func rewrittenProgram(name string, src []byte, predeclared starlark.StringDict) (*starlark.Program, error) {
	return rewrittenProgramWithout(name, src, predeclared, 0)
}

// rewrittenProgramWithout is rewrittenProgram with the speed rewrites of
// without left out.
func rewrittenProgramWithout(name string, src []byte, predeclared starlark.StringDict, without speedRewrite) (*starlark.Program, error) {
	f, err := fileOptions.Parse(name, src, 0)
	if err != nil {
		return nil, err
	}
	constructors := hoistableConstructors(predeclared)
	if without.has(speedHoist) {
		constructors = nil
	}
	rewriteOpsWithout(f, func(name string) bool { return predeclared.Has(name) || starlark.Universe.Has(name) },
		func(name string) bool { return !predeclared.Has(name) && starlark.Universe.Has(name) },
		constructors, without)
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err == nil {
		return prog, nil
	}
	if _, _, err2 := starlark.SourceProgramOptions(&fileOptions, name, src, predeclared.Has); err2 != nil {
		return nil, err2
	}
	return nil, fmt.Errorf("internal error: the file resolves as written but not once its operators are checked: %w", err)
}

// dropHiddenFrames removes the frames of the hidden builtins from an
// error's call stack: the script's frame before them already carries the
// operator's position, and without them the backtrace is the one the
// plain operator gives.
func dropHiddenFrames(ee *starlark.EvalError) {
	ee.CallStack = slices.DeleteFunc(ee.CallStack, func(fr starlark.CallFrame) bool {
		return opBuiltins[fr.Name] != nil && fr.Pos.Line == 0
	})
}
