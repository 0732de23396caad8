package starlark

import (
	"go.starlark.net/syntax"
)

// The rewrite of a parsed file, before it is resolved: every x + y,
// x * y and x % y whose size the source does not bound becomes a call of
// a hidden builtin at the operator's position; x += y (and *=, %=)
// becomes x += $iadd(x, y), the left side read a second time, which is
// only done where reading it has no effect (a name, or an index or field
// of names and constants); and a call of one of the methods in
// methodCosts becomes $method(x.method, args…), which performs the
// call after checking the size when x is a string or a list; and
// x.get(key[, default]) becomes $get(x, key[, default]) (ops_get.go);
// and x[lo:hi:step] becomes $slice(x, "lhs", lo, hi, step) (ops_slice.go).

// binaryOps maps each rewritten operator to its hidden builtin.
var binaryOps = map[syntax.Token]string{
	syntax.PLUS:    opAdd,
	syntax.STAR:    opMul,
	syntax.PERCENT: opMod,
	// sets and dicts
	syntax.PIPE:       opOr,
	syntax.AMP:        opAnd,
	syntax.CIRCUMFLEX: opXor,
	syntax.MINUS:      opSub,
	// comparisons (ops_compare.go)
	syntax.EQL:    "$eq",
	syntax.NEQ:    "$ne",
	syntax.LT:     "$lt",
	syntax.LE:     "$le",
	syntax.GT:     "$gt",
	syntax.GE:     "$ge",
	syntax.IN:     opIn,
	syntax.NOT_IN: opNotIn,
}

// augmentedOps maps each rewritten augmented assignment to its hidden
// builtin and to the operator it applies.
var augmentedOps = map[syntax.Token]struct {
	builtin string
	op      syntax.Token
}{
	syntax.PLUS_EQ:       {opAddInto, syntax.PLUS},
	syntax.STAR_EQ:       {opMulInto, syntax.STAR},
	syntax.PERCENT_EQ:    {opModInto, syntax.PERCENT},
	syntax.PIPE_EQ:       {"$ior", syntax.PIPE},
	syntax.AMP_EQ:        {"$iand", syntax.AMP},
	syntax.CIRCUMFLEX_EQ: {"$ixor", syntax.CIRCUMFLEX},
	syntax.MINUS_EQ:      {"$isub", syntax.MINUS},
}

// A rewriter rewrites one file, knowing which of its names hold only
// numbers, and, as it goes, which globals the file's top level has bound
// so far.
type rewriter struct {
	nums *numbers
	// known reports whether a name is predeclared or universal.
	known func(string) bool
	// functions counts the defs and lambdas the walk is inside.
	functions int
	// globals are the names the top level binds before the statement
	// being rewritten: with global reassignment on, the resolver binds
	// a read at the top level to what is bound before it in the file.
	globals map[string]bool
	open    []syntax.Node // the nodes the walk is inside
	// targets are the displays that are assignment or loop targets, and
	// the names that are parameters or keywords, never rewritten.
	targets map[syntax.Expr]bool
	// varargs are the *args names of the functions the walk is inside,
	// innermost last ("" for a function without).
	varargs []string
	// universal reports whether a name resolves to a universal value
	// wherever it is read: universal, not predeclared, bound nowhere in
	// the file (ops_slice.go's positions).
	universal func(string) bool
	// slicePositions remembers slicePos's answers.
	slicePositions map[*syntax.SliceExpr]syntax.Position
	// folded are the sums foldSum has seen.
	folded map[*syntax.BinaryExpr]bool
	// starts remembers where expressions start (start).
	starts map[syntax.Expr]syntax.Position
	// ownOps are operators and calls the rewrite wrote itself, bounded
	// already (ops_get.go's call-free get).
	ownOps map[syntax.Expr]bool
	// constructors are the hook module's reason constructors, whose
	// calls with a literal reason are hoisted (ops_hoist.go); hoisted
	// are those calls, and hoistedNames their globals by constructor and
	// reason.
	constructors map[string]bool
	lambdaBodies int // the lambda bodies being rewritten, which functions does not count
	hoisted      []hoisted
	hoistedNames map[string]string
	// without are the speed rewrites left out (speed.go).
	without speedRewrite
}

// rewriteOps rewrites f in place. syntax.Walk calls the function on a
// node before it descends into the node's children, so replacing the
// children first means every new node is visited, and its operands are
// rewritten in turn.
func rewriteOps(f *syntax.File, known, universal func(string) bool, constructors map[string]bool) {
	rewriteOpsWithout(f, known, universal, constructors, 0)
}

// rewriteOpsWithout is rewriteOps with the speed rewrites of without
// left out (speed.go).
func rewriteOpsWithout(f *syntax.File, known, universal func(string) bool, constructors map[string]bool, without speedRewrite) {
	nums := analyseNumbers(f)
	rw := &rewriter{nums: nums, known: known, globals: map[string]bool{}, targets: map[syntax.Expr]bool{}, ownOps: map[syntax.Expr]bool{},
		constructors: constructors, hoistedNames: map[string]string{}, without: without,
		universal: func(name string) bool { return universal(name) && !nums.bound[name] }}
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			rw.leave()
			return true
		}
		rw.children(n)
		rw.enter(n)
		return true
	})
	rw.prependHoisted(f)
}

// enter and leave track the walk's place: inside a function or not, and
// the top level's bindings in the order the resolver sees them.
func (rw *rewriter) enter(n syntax.Node) {
	rw.open = append(rw.open, n)
	switch n := n.(type) {
	case *syntax.DefStmt:
		rw.bindGlobal(n.Name)
		rw.functions++
		rw.varargs = append(rw.varargs, varargsName(n.Params))
	case *syntax.LambdaExpr:
		rw.functions++
		rw.varargs = append(rw.varargs, varargsName(n.Params))
	case *syntax.ForStmt:
		rw.bindGlobal(n.Vars)
	case *syntax.LoadStmt:
		for _, id := range n.To {
			rw.bindGlobal(id)
		}
	case *syntax.AssignStmt:
		rw.bindGlobal(n.LHS)
	}
}

func (rw *rewriter) leave() {
	n := rw.open[len(rw.open)-1]
	rw.open = rw.open[:len(rw.open)-1]
	switch n.(type) {
	case *syntax.DefStmt, *syntax.LambdaExpr:
		rw.functions--
		rw.varargs = rw.varargs[:len(rw.varargs)-1]
	}
}

// bindGlobal records the names a top-level target binds.
func (rw *rewriter) bindGlobal(target syntax.Expr) {
	if rw.functions > 0 {
		return
	}
	switch x := target.(type) {
	case *syntax.Ident:
		rw.globals[x.Name] = true
	case *syntax.ParenExpr:
		rw.bindGlobal(x.X)
	case *syntax.TupleExpr:
		for _, e := range x.List {
			rw.bindGlobal(e)
		}
	case *syntax.ListExpr:
		for _, e := range x.List {
			rw.bindGlobal(e)
		}
	}
}

// resolvable reports whether a second read of the name id resolves where
// the first does: always in a function (its locals are resolved at its
// end), and at the top level when the name is bound before or is
// predeclared. (x += y as the first binding of x at the top level reads
// an unbound global; it fails when it runs, and is left as it is.)
func (rw *rewriter) resolvable(id *syntax.Ident) bool {
	return rw.functions > 0 || rw.globals[id.Name] || rw.known(id.Name)
}

// children replaces the expressions directly below n.
func (rw *rewriter) children(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.ExprStmt:
		n.X = rw.expr(n.X)
	case *syntax.IfStmt:
		n.Cond = rw.expr(n.Cond)
	case *syntax.AssignStmt:
		rw.markTargets(n.LHS)
		rw.assign(n)
	case *syntax.DefStmt:
		rw.markParams(n.Params)
		rw.list(n.Params)
	case *syntax.ForStmt:
		rw.markTargets(n.Vars)
		rw.transient(n.X)
		n.X = rw.expr(n.X)
	case *syntax.WhileStmt:
		n.Cond = rw.expr(n.Cond)
	case *syntax.ReturnStmt:
		if n.Result != nil {
			n.Result = rw.expr(n.Result)
		}
	case *syntax.ListExpr:
		rw.list(n.List)
	case *syntax.TupleExpr:
		rw.list(n.List)
	case *syntax.ParenExpr:
		n.X = rw.expr(n.X)
	case *syntax.CondExpr:
		n.Cond, n.True, n.False = rw.expr(n.Cond), rw.expr(n.True), rw.expr(n.False)
	case *syntax.IndexExpr:
		n.X, n.Y = rw.expr(n.X), rw.expr(n.Y)
	case *syntax.DictEntry:
		n.Key, n.Value = rw.expr(n.Key), rw.expr(n.Value)
	case *syntax.SliceExpr:
		n.X, n.Lo, n.Hi, n.Step = rw.expr(n.X), rw.optional(n.Lo), rw.optional(n.Hi), rw.optional(n.Step)
	case *syntax.Comprehension:
		n.Body = rw.expr(n.Body)
	case *syntax.IfClause:
		n.Cond = rw.expr(n.Cond)
	case *syntax.ForClause:
		rw.markTargets(n.Vars)
		rw.transient(n.X)
		n.X = rw.expr(n.X)
	case *syntax.UnaryExpr:
		n.X = rw.optional(n.X)
	case *syntax.BinaryExpr:
		n.X, n.Y = rw.expr(n.X), rw.expr(n.Y)
	case *syntax.DotExpr:
		n.X = rw.expr(n.X)
	case *syntax.CallExpr:
		n.Fn = rw.expr(n.Fn)
		rw.markKeywords(n.Args)
		rw.list(n.Args)
		rw.spreads(n.Args)
	case *syntax.LambdaExpr:
		rw.markParams(n.Params)
		rw.list(n.Params)
		rw.varargs = append(rw.varargs, varargsName(n.Params)) // the body is rewritten before the walk enters the lambda
		rw.lambdaBodies++
		n.Body = rw.expr(n.Body)
		rw.lambdaBodies--
		rw.varargs = rw.varargs[:len(rw.varargs)-1]
	}
}

func (rw *rewriter) list(list []syntax.Expr) {
	for i, x := range list {
		list[i] = rw.expr(x)
	}
}

func (rw *rewriter) optional(x syntax.Expr) syntax.Expr {
	if x == nil {
		return nil
	}
	return rw.expr(x)
}

// expr returns the replacement of x, or x.
func (rw *rewriter) expr(x syntax.Expr) syntax.Expr {
	if sum, ok := x.(*syntax.BinaryExpr); ok && sum.Op == syntax.PLUS {
		x = rw.foldSum(sum)
	}
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		if rw.ownOps[x] {
			return x
		}
		if x.Op == syntax.PERCENT {
			rw.transient(x.Y)
		}
		if name := binaryOps[x.Op]; name != "" && !rw.boundedBySource(x.Op, x.X, x.Y) {
			return hiddenCallFrom(name, rw.start(x.X), x.OpPos, x.X, x.Y)
		}
	case *syntax.TupleExpr:
		if !rw.targets[x] && !rw.boundedTuple(x) {
			return tupleDisplay(x)
		}
	case *syntax.Ident:
		if rw.readsVarargs(x) {
			rw.targets[x] = true
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: x.NamePos, Name: opVarargs}, Lparen: x.NamePos, Args: []syntax.Expr{x}, Rparen: x.NamePos}
		}
	case *syntax.DotExpr:
		if _, bounded := methodCosts[x.Name.Name]; bounded && !rw.targets[x] {
			rw.targets[x] = true
			start, end := x.Span()
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: opMethodValue}, Lparen: start, Args: []syntax.Expr{x}, Rparen: end}
		}
	case *syntax.SliceExpr:
		if call := rw.rewriteSlice(x); call != nil {
			return call
		}
	case *syntax.CallExpr:
		if d := rw.hoistDecision(x); d != nil {
			return d
		}
		if get := rw.rewriteGet(x); get != nil {
			return get
		}
		if dot, ok := x.Fn.(*syntax.DotExpr); ok {
			if _, bounded := methodCosts[dot.Name.Name]; bounded {
				name := "$" + dot.Name.Name
				rw.targets[dot] = true // the method itself, not a value taken from it
				args := append([]syntax.Expr{dot}, x.Args...)
				start, _ := dot.Span()
				return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: name},
					Lparen: x.Lparen, Args: args, Rparen: x.Rparen}
			}
		}
	}
	return x
}

// spreads checks the *args and **kwargs of a call: f(*x) becomes
// f(*$args(x)), which charges the tuple the call builds from x.
func (rw *rewriter) spreads(args []syntax.Expr) {
	for _, arg := range args {
		u, ok := arg.(*syntax.UnaryExpr)
		if !ok || u.X == nil {
			continue
		}
		name := map[syntax.Token]string{syntax.STAR: opArgs, syntax.STARSTAR: opKwargs}[u.Op]
		if name == "" {
			continue
		}
		_, end := u.X.Span()
		u.X = &syntax.CallExpr{Fn: &syntax.Ident{NamePos: u.OpPos, Name: name}, Lparen: u.OpPos,
			Args: []syntax.Expr{u.X}, Rparen: end}
	}
}

// hiddenCall is name(x, y), called at pos: the position the interpreter
// gives the operator, and so its errors. The name is read where x starts,
// which is where the operator's first instruction was: a function whose
// binding fails reports the position of its first instruction.
func hiddenCall(name string, pos syntax.Position, x, y syntax.Expr) *syntax.CallExpr {
	start, _ := x.Span()
	return hiddenCallFrom(name, start, pos, x, y)
}

// hiddenCallFrom is hiddenCall with the start of x known.
func hiddenCallFrom(name string, start, pos syntax.Position, x, y syntax.Expr) *syntax.CallExpr {
	_, end := y.Span()
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: start, Name: name}, Lparen: pos,
		Args: []syntax.Expr{x, y}, Rparen: end}
}

// assign checks x op= y before the operator runs: the right side
// becomes $iop(x, y), which returns y once the size of x op y is
// charged. An address with calls in it (d[f()] += s), which cannot be
// read twice, is held instead (ops_held.go).
func (rw *rewriter) assign(n *syntax.AssignStmt) {
	aug, ok := augmentedOps[n.Op]
	if n.Op == syntax.PERCENT_EQ {
		rw.transient(n.RHS)
	}
	bounded := !ok || rw.boundedBySource(aug.op, n.LHS, n.RHS)
	n.RHS = rw.expr(n.RHS)
	if bounded {
		return
	}
	if id, ok := unparen(n.LHS).(*syntax.Ident); ok && !rw.resolvable(id) {
		return
	}
	if again, ok := readAgain(n.LHS); ok && rw.readsResolve(again) {
		n.RHS = hiddenCall(aug.builtin, n.OpPos, again, n.RHS)
		return
	}
	holdAddress(n)
}

// readsResolve reports whether every name x reads resolves as its
// original does.
func (rw *rewriter) readsResolve(x syntax.Expr) bool {
	ok := true
	syntax.Walk(x, func(n syntax.Node) bool {
		if id, isIdent := n.(*syntax.Ident); isIdent && !rw.resolvable(id) {
			ok = false
		}
		return ok
	})
	return ok
}

// readAgain returns a fresh copy of an expression that has no effect
// when evaluated a second time: names, constants, and fields, indexes
// and signs (-n) of those. It reports false for anything else.
func readAgain(x syntax.Expr) (syntax.Expr, bool) {
	switch x := x.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: x.NamePos, Name: x.Name}, true
	case *syntax.Literal:
		c := *x
		return &c, true
	case *syntax.ParenExpr:
		inner, ok := readAgain(x.X)
		return &syntax.ParenExpr{Lparen: x.Lparen, X: inner, Rparen: x.Rparen}, ok
	case *syntax.DotExpr:
		inner, ok := readAgain(x.X)
		return &syntax.DotExpr{X: inner, Dot: x.Dot, NamePos: x.NamePos,
			Name: &syntax.Ident{NamePos: x.Name.NamePos, Name: x.Name.Name}}, ok
	case *syntax.IndexExpr:
		obj, ok1 := readAgain(x.X)
		key, ok2 := readAgain(x.Y)
		return &syntax.IndexExpr{X: obj, Lbrack: x.Lbrack, Y: key, Rbrack: x.Rbrack}, ok1 && ok2
	case *syntax.UnaryExpr:
		if x.X != nil && (x.Op == syntax.MINUS || x.Op == syntax.PLUS) {
			inner, ok := readAgain(x.X)
			return &syntax.UnaryExpr{OpPos: x.OpPos, Op: x.Op, X: inner}, ok
		}
	}
	return nil, false
}

// sizeLimitBySource bounds, in elements or bytes, a repetition the source
// spells out ("-" * 40, [0] * 8) that is not rewritten.
const sizeLimitBySource = 1024

// boundedBySource reports whether the source alone bounds the size of
// x op y: an operand that can only be a number (a literal, or a name
// that only ever holds one) makes + and % arithmetic (or a type error, or
// a format with one number in it), a number times a number literal grows
// by a constant factor, and an int literal times a literal sequence has a
// size known here. Sums of literals are also left to the compiler, which
// folds them. A product of two names is always checked: squaring an int
// in a loop doubles its size each time.
func (rw *rewriter) boundedBySource(op syntax.Token, x, y syntax.Expr) bool {
	num := rw.nums.numeric
	switch op {
	case syntax.EQL, syntax.NEQ, syntax.LT, syntax.LE, syntax.GT, syntax.GE, syntax.IN, syntax.NOT_IN:
		return rw.compareBySource(op, x, y)
	case syntax.PLUS:
		return num(x) || num(y) || rw.literalLen(x) >= 0 && rw.literalLen(y) >= 0
	case syntax.PERCENT:
		// One argument fills at most one conversion; but an int that
		// only the run knows may be too long to write in decimal
		// (ints.go), so fmt % n is checked.
		return num(x) || isNumber(y) || literalToken(y) == syntax.STRING
	case syntax.MINUS, syntax.PIPE, syntax.AMP, syntax.CIRCUMFLEX:
		// With a number, arithmetic or a type error; sets and dicts
		// never come from literals.
		return num(x) || num(y)
	case syntax.STAR:
		if isFloat(x) || isFloat(y) || num(x) && isSmallNumber(y) || isSmallNumber(x) && num(y) {
			return true
		}
		return rw.repeatBySource(x, y) || rw.repeatBySource(y, x)
	}
	return false
}

// repeatBySource reports whether seq * n is a literal sequence times a
// small int literal.
func (rw *rewriter) repeatBySource(seq, n syntax.Expr) bool {
	lit, ok := unparen(n).(*syntax.Literal)
	if !ok || lit.Token != syntax.INT {
		return false
	}
	count, ok := lit.Value.(int64)
	size := rw.literalLen(seq)
	return ok && size >= 0 && count <= sizeLimitBySource && int64(size)*count <= sizeLimitBySource
}

// literalLen is the length of a string or bytes literal, or the number
// of elements of a list display or of a tuple display whose weight the
// source bounds (ops_tuples.go); -1 for anything else.
func (rw *rewriter) literalLen(x syntax.Expr) int {
	switch x := unparen(x).(type) {
	case *syntax.Literal:
		if s, ok := x.Value.(string); ok {
			return len(s)
		}
	case *syntax.ListExpr:
		return len(x.List)
	case *syntax.TupleExpr:
		if rw.boundedTuple(x) {
			return len(x.List)
		}
	}
	return -1
}

func isNumber(x syntax.Expr) bool { return isInt(x) || isFloat(x) }

// isSmallNumber reports whether x is a float literal or an int literal
// that fits in 64 bits: a factor that grows a product by at most 64 bits
// a step. (A hex literal of 65,536 digits would grow it by 262,144.)
func isSmallNumber(x syntax.Expr) bool {
	x = unparen(x)
	if u, ok := x.(*syntax.UnaryExpr); ok && (u.Op == syntax.MINUS || u.Op == syntax.PLUS) {
		x = unparen(u.X)
	}
	lit, ok := x.(*syntax.Literal)
	if !ok {
		return false
	}
	_, small := lit.Value.(int64)
	return lit.Token == syntax.FLOAT || lit.Token == syntax.INT && small
}

func isInt(x syntax.Expr) bool   { return literalToken(x) == syntax.INT }
func isFloat(x syntax.Expr) bool { return literalToken(x) == syntax.FLOAT }

// literalToken is the token of a number or string literal, signed or
// parenthesised; ILLEGAL for anything else.
func literalToken(x syntax.Expr) syntax.Token {
	x = unparen(x)
	if u, ok := x.(*syntax.UnaryExpr); ok && (u.Op == syntax.MINUS || u.Op == syntax.PLUS) {
		x = unparen(u.X)
	}
	if lit, ok := x.(*syntax.Literal); ok {
		return lit.Token
	}
	return syntax.ILLEGAL
}

func unparen(x syntax.Expr) syntax.Expr {
	for {
		p, ok := x.(*syntax.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}
