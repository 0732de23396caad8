package starlark

import (
	"go.starlark.net/syntax"
)

// Which names hold only numbers. An operation with a number operand
// cannot repeat or concatenate a sequence (n + s and n % s are errors, and
// s % n fills one conversion), so i + n, total += x and i % k need no
// check when i, total or k can only ever hold an int or a float: every
// binding of the name in its scope assigns a number — a number literal,
// another such name, arithmetic on them, len(…), int(…), float(…),
// hash(…) or ord(…), or the variable of a for loop over range(…) — the
// builtins counted only while the file binds none of those names itself.
// A parameter, a loaded name, a def, a tuple target or any other value
// makes the name unknown. The analysis follows the resolver's scopes (a
// function's names, a comprehension's, the file's globals, which a
// function cannot rebind) and settles at the largest consistent set: a
// name is numeric unless some binding can give it something else.

// numberBuiltins are the builtins that return a number.
var numberBuiltins = map[string]bool{"len": true, "int": true, "float": true, "hash": true, "ord": true, "range": true}

// A numberScope is a function's, a comprehension's or the file's block.
type numberScope struct {
	parent   *numberScope
	bindings map[string][]numberBinding
	numeric  map[string]bool
}

// A numberBinding is one way a name gets a value: rhs (with op, for an
// augmented assignment), or the elements of range(…) when rangeLoop, or
// something unknown when neither.
type numberBinding struct {
	op        syntax.Token // EQ, or the augmented operator
	rhs       syntax.Expr
	rangeLoop bool
}

// numbers is the analysis of one file.
type numbers struct {
	scopes []*numberScope
	uses   map[*syntax.Ident]*numberScope // where each name is read
	bound  map[string]bool                // every name the file binds anywhere
	// known remembers numeric's answers once settle is done (before,
	// they change as it goes): the rewrite asks about every + of a long
	// chain, and each answer would walk the chain below it again.
	known map[syntax.Expr]bool
}

func analyseNumbers(f *syntax.File) *numbers {
	a := &numbers{uses: map[*syntax.Ident]*numberScope{}, bound: map[string]bool{}}
	top := a.newScope(nil)
	a.stmts(f.Stmts, top)
	a.settle()
	a.known = map[syntax.Expr]bool{}
	return a
}

func (a *numbers) newScope(parent *numberScope) *numberScope {
	s := &numberScope{parent: parent, bindings: map[string][]numberBinding{}, numeric: map[string]bool{}}
	a.scopes = append(a.scopes, s)
	return s
}

func (a *numbers) bind(s *numberScope, id *syntax.Ident, b numberBinding) {
	s.bindings[id.Name] = append(s.bindings[id.Name], b)
	a.bound[id.Name] = true
}

// bindTargets binds every name of an assignment's or a loop's target as
// unknown, and records the reads in it (x[i] = …).
func (a *numbers) bindTargets(x syntax.Expr, s *numberScope) {
	switch x := x.(type) {
	case *syntax.Ident:
		a.bind(s, x, numberBinding{})
	case *syntax.ParenExpr:
		a.bindTargets(x.X, s)
	case *syntax.TupleExpr:
		for _, e := range x.List {
			a.bindTargets(e, s)
		}
	case *syntax.ListExpr:
		for _, e := range x.List {
			a.bindTargets(e, s)
		}
	default:
		a.expr(x, s)
	}
}

// loopTarget binds a for loop's variable: numeric over range(…).
func (a *numbers) loopTarget(vars, x syntax.Expr, s *numberScope) {
	if id, ok := unparen(vars).(*syntax.Ident); ok && isCallOf(x, "range") {
		a.bind(s, id, numberBinding{rangeLoop: true})
		return
	}
	a.bindTargets(vars, s)
}

func (a *numbers) stmts(stmts []syntax.Stmt, s *numberScope) {
	for _, st := range stmts {
		a.stmt(st, s)
	}
}

func (a *numbers) stmt(st syntax.Stmt, s *numberScope) {
	switch st := st.(type) {
	case *syntax.ExprStmt:
		a.expr(st.X, s)
	case *syntax.IfStmt:
		a.expr(st.Cond, s)
		a.stmts(st.True, s)
		a.stmts(st.False, s)
	case *syntax.AssignStmt:
		a.expr(st.RHS, s)
		if id, ok := unparen(st.LHS).(*syntax.Ident); ok {
			a.bind(s, id, numberBinding{op: st.Op, rhs: st.RHS})
			if st.Op != syntax.EQ {
				a.uses[id] = s // x op= y reads x too
			}
			return
		}
		a.bindTargets(st.LHS, s)
	case *syntax.DefStmt:
		a.bind(s, st.Name, numberBinding{})
		a.function(st.Params, st.Body, nil, s)
	case *syntax.ForStmt:
		a.expr(st.X, s)
		a.loopTarget(st.Vars, st.X, s)
		a.stmts(st.Body, s)
	case *syntax.WhileStmt:
		a.expr(st.Cond, s)
		a.stmts(st.Body, s)
	case *syntax.ReturnStmt:
		if st.Result != nil {
			a.expr(st.Result, s)
		}
	case *syntax.LoadStmt:
		for _, id := range st.To {
			a.bind(s, id, numberBinding{})
		}
	}
}

// function analyses a def's or a lambda's parameters (their defaults
// are read in the enclosing scope) and body in a scope of its own.
func (a *numbers) function(params []syntax.Expr, body []syntax.Stmt, result syntax.Expr, outer *numberScope) {
	s := a.newScope(outer)
	for _, p := range params {
		switch p := p.(type) {
		case *syntax.Ident:
			a.bind(s, p, numberBinding{})
		case *syntax.BinaryExpr: // name = default
			a.expr(p.Y, outer)
			a.bindTargets(p.X, s)
		case *syntax.UnaryExpr: // *args, **kwargs, or a bare *
			if p.X != nil {
				a.bindTargets(p.X, s)
			}
		}
	}
	a.stmts(body, s)
	if result != nil {
		a.expr(result, s)
	}
}

// expr records the reads of x and analyses the scopes inside it.
func (a *numbers) expr(x syntax.Expr, s *numberScope) {
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Ident:
			a.uses[n] = s
		case *syntax.LambdaExpr:
			a.function(n.Params, nil, n.Body, s)
			return false
		case *syntax.Comprehension:
			a.comprehension(n, s)
			return false
		case *syntax.DotExpr: // the field name is not a read
			a.expr(n.X, s)
			return false
		case *syntax.CallExpr: // nor are keyword names
			a.expr(n.Fn, s)
			for _, arg := range n.Args {
				if kw, ok := arg.(*syntax.BinaryExpr); ok && kw.Op == syntax.EQ {
					a.expr(kw.Y, s)
				} else {
					a.expr(arg, s)
				}
			}
			return false
		}
		return true
	})
}

// comprehension: the first clause's iterable is read outside; the
// clauses' variables and the body live in the comprehension's scope.
func (a *numbers) comprehension(c *syntax.Comprehension, outer *numberScope) {
	s := a.newScope(outer)
	for i, clause := range c.Clauses {
		switch cl := clause.(type) {
		case *syntax.ForClause:
			in := s
			if i == 0 {
				in = outer
			}
			a.expr(cl.X, in)
			a.loopTarget(cl.Vars, cl.X, s)
		case *syntax.IfClause:
			a.expr(cl.Cond, s)
		}
	}
	a.expr(c.Body, s)
}

// settle starts from every name being numeric and drops names with a
// binding that may give something else, until nothing changes.
func (a *numbers) settle() {
	for _, s := range a.scopes {
		for name := range s.bindings {
			s.numeric[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, s := range a.scopes {
			for name, bs := range s.bindings {
				if s.numeric[name] && !a.allNumeric(bs) {
					s.numeric[name], changed = false, true
				}
			}
		}
	}
}

func (a *numbers) allNumeric(bs []numberBinding) bool {
	for _, b := range bs {
		switch {
		case b.rangeLoop:
			if a.bound["range"] {
				return false
			}
		case b.rhs == nil:
			return false
		case b.op == syntax.EQ || b.op == syntax.STAR_EQ:
			if !a.numeric(b.rhs) {
				return false
			}
		}
		// x op= y for any other op keeps a number a number (or fails).
	}
	return true
}

// numeric reports whether x can only be a number (or fail).
func (a *numbers) numeric(x syntax.Expr) bool {
	if a.known == nil {
		return a.numericNow(x)
	}
	v, ok := a.known[x]
	if !ok {
		v = a.numericNow(x)
		a.known[x] = v
	}
	return v
}

func (a *numbers) numericNow(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Literal:
		return x.Token == syntax.INT || x.Token == syntax.FLOAT
	case *syntax.Ident:
		return a.numericName(x)
	case *syntax.ParenExpr:
		return a.numeric(x.X)
	case *syntax.UnaryExpr:
		return (x.Op == syntax.MINUS || x.Op == syntax.PLUS || x.Op == syntax.TILDE) && a.numeric(x.X)
	case *syntax.CondExpr:
		return a.numeric(x.True) && a.numeric(x.False)
	case *syntax.CallExpr:
		id, ok := x.Fn.(*syntax.Ident)
		return ok && id.Name != "range" && numberBuiltins[id.Name] && !a.bound[id.Name] && a.uses[id] != nil
	case *syntax.BinaryExpr:
		switch x.Op {
		case syntax.STAR:
			return a.numeric(x.X) && a.numeric(x.Y)
		case syntax.PERCENT:
			return a.numeric(x.X)
		case syntax.PLUS, syntax.MINUS, syntax.SLASH, syntax.SLASHSLASH,
			syntax.PIPE, syntax.AMP, syntax.CIRCUMFLEX, syntax.LTLT, syntax.GTGT:
			return a.numeric(x.X) || a.numeric(x.Y)
		}
	}
	return false
}

// numericName looks a read name up in the scope that binds it.
func (a *numbers) numericName(id *syntax.Ident) bool {
	for s := a.uses[id]; s != nil; s = s.parent {
		if _, ok := s.bindings[id.Name]; ok {
			return s.numeric[id.Name]
		}
	}
	return false
}

// isCallOf reports whether x is a call of the builtin name.
func isCallOf(x syntax.Expr, name string) bool {
	call, ok := unparen(x).(*syntax.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fn.(*syntax.Ident)
	return ok && id.Name == name
}
