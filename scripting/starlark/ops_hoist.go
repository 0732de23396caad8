package starlark

import (
	"strconv"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// A hook's most common return value, hook.deny("literal reason"), is the
// same decision on every call: a decision is immutable, and one built at
// a file's top level is shared by every thread already (decision.go). So
// inside a function, a call of one of the hook module's reason
// constructors (hook.allow, hook.deny, hook.abort_turn, hook.hard_abort)
// with one string literal (or, for hook.allow, nothing) is hoisted: the
// file's top level starts by building it once, as $decision0 =
// hook.deny("…"), and the call becomes a read of that global. This saves
// the call of a builtin, the copy of its arguments and the decision's
// construction, about a fifth of the instructions of a fire that denies.
//
// It is only done where it cannot be told apart: "hook" must be the hook
// module, bound nowhere in the file (so every hook.deny in it is the
// module's), and the argument a string literal (which the constructor
// always accepts, so building it early cannot fail). What a script sees
// is the same decision, with the same fields, and decisions compare by
// content (scripting.Decision.Equal), so sharing one is invisible. The
// call no longer charges the decision to the call's memory budget: it
// allocates nothing.

// hoistPrefix starts the names of the hoisted decisions' globals; like
// the hidden builtins', they start with '$', which a script cannot write.
const hoistPrefix = "$decision"

// hoistableConstructors returns the hook module's reason constructors by
// name (the value says whether the reason may be left out), or nil when
// predeclared has no hook module.
func hoistableConstructors(predeclared starlark.StringDict) map[string]bool {
	hm, ok := predeclared["hook"].(*starlarkstruct.Module)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for _, a := range scripting.ReasonActions {
		if _, ok := hm.Members[a.Name].(*starlark.Builtin); ok {
			out[a.Name] = a.Optional
		}
	}
	return out
}

// A hoisted decision: the global that holds it and the call that builds it.
type hoisted struct {
	name string
	call *syntax.CallExpr
}

// hoistDecision returns the read of a hoisted decision's global for a
// call of a reason constructor with a literal reason inside a function,
// or nil.
func (rw *rewriter) hoistDecision(call *syntax.CallExpr) syntax.Expr {
	if rw.functions+rw.lambdaBodies == 0 || rw.constructors == nil || rw.nums.bound["hook"] {
		return nil
	}
	dot, ok := call.Fn.(*syntax.DotExpr)
	if !ok {
		return nil
	}
	hook, ok := dot.X.(*syntax.Ident)
	if !ok || hook.Name != "hook" {
		return nil
	}
	optional, ok := rw.constructors[dot.Name.Name]
	if !ok {
		return nil
	}
	key := dot.Name.Name
	switch len(call.Args) {
	case 0:
		if !optional {
			return nil
		}
	case 1:
		lit, ok := call.Args[0].(*syntax.Literal)
		if !ok || lit.Token != syntax.STRING {
			return nil
		}
		key += "\x00" + lit.Value.(string)
	default:
		return nil
	}
	name, seen := rw.hoistedNames[key]
	if !seen {
		name = hoistPrefix + strconv.Itoa(len(rw.hoisted))
		rw.hoistedNames[key] = name
		rw.hoisted = append(rw.hoisted, hoisted{name: name, call: call})
	}
	// At the position of "hook": reading the module was the call's first
	// positioned instruction, and reading the global is the new one.
	return &syntax.Ident{NamePos: hook.NamePos, Name: name}
}

// prependHoisted makes the file's top level start by building the
// hoisted decisions.
func (rw *rewriter) prependHoisted(f *syntax.File) {
	if len(rw.hoisted) == 0 {
		return
	}
	stmts := make([]syntax.Stmt, 0, len(rw.hoisted)+len(f.Stmts))
	for _, h := range rw.hoisted {
		start, _ := h.call.Span()
		stmts = append(stmts, &syntax.AssignStmt{OpPos: start, Op: syntax.EQ,
			LHS: &syntax.Ident{NamePos: start, Name: h.name}, RHS: h.call})
	}
	f.Stmts = append(stmts, f.Stmts...)
}
