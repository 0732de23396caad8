package lua

import (
	"strconv"

	"github.com/yuin/gopher-lua/ast"
)

// The rewrite: gopher-lua's virtual machine gives no hook on two
// operations hookhost must see, so the parsed chunk is rewritten before it
// is compiled to route them through Go functions of the interpreter (see
// guard.go):
//
//   - concatenation: every a .. b .. c becomes a call of the concat
//     helper, which bounds the result (Limits.MaxStringSize) and charges
//     it to the call's memory budget before building it;
//   - writes from inside functions: every assignment to a global, to a
//     table field (t.k = v, t[k] = v, function t.f() end) in a function
//     body becomes a call of a helper that refuses to write into the
//     globals or any table reachable from the top level once the top level
//     has run (see freeze.go), and charges an array index far past the
//     end of a table. Statements of the main chunk itself run only while
//     the file loads, so they are left alone;
//   - computed keys of table constructors ({[k] = v}) pass through a
//     helper that charges an array index far past the end;
//   - gopher-lua's compiler gets some Lua 5.1 wrong, and a guard would
//     decide on the wrong values without an error (see throughTemps,
//     padLoop, keyedLastField). The rewrite avoids what it mishandles:
//     an assignment of several values, or of an and/or, a call or ...
//     to a local that already exists, computes its values into new
//     locals first (a, b = b, a swapped nothing; x = t.k and v kept x's
//     old value when t.k was false or nil; s = (s:upper()) left a Go nil
//     in a local when s was the last parameter); the body of a generic
//     for and of a repeat starts with a no-op (one whose first
//     instruction was a jump made the loop jump into the wrong place);
//     a call that is the value of a keyed last field of a constructor
//     ({"a", k = f()}) gives one value (its extra results became array
//     elements);
//   - the main chunk's own ... is empty, as Lua 5.1 gives a file run
//     with no arguments: the helpers it receives that way are for the
//     declaration above and no one else.
//
// The helpers are locals of the main chunk whose names are not Lua
// identifiers, so no script can name, shadow or reassign them; the main
// chunk receives them as its varargs (see runTopLevel).

// Names of the helpers, as locals of the main chunk.
const (
	helperConcat    = "hookhost.concat"
	helperSet       = "hookhost.set"
	helperSetGlobal = "hookhost.setglobal"
	helperKey       = "hookhost.key"
	helperNone      = "hookhost.none"
	// loopPad is the local a loop body starts with (padLoop).
	loopPad = "hookhost.pad"
)

// helperNames lists the helpers in the order the main chunk receives them.
var helperNames = []string{helperConcat, helperSet, helperSetGlobal, helperKey, helperNone}

// rewriteChunk rewrites a parsed file in place and prepends the
// declaration of the helpers.
func rewriteChunk(chunk []ast.Stmt) []ast.Stmt {
	r := &rewriter{}
	r.push()
	for _, n := range helperNames {
		r.declare(n)
	}
	decl := &ast.LocalAssignStmt{Names: append([]string(nil), helperNames...), Exprs: []ast.Expr{&ast.Comma3Expr{}}}
	decl.SetLine(1)
	decl.SetLastLine(1)
	body := r.stmts(chunk)
	return append([]ast.Stmt{decl}, body...)
}

// A rewriter walks the chunk, tracking which names are locals, so that a
// write to a name is known to be a global or a local.
type rewriter struct {
	scopes []map[string]bool
	// depth is the function nesting: 0 in the main chunk.
	depth int
	temps int
}

func (r *rewriter) push() { r.scopes = append(r.scopes, nil) }
func (r *rewriter) pop()  { r.scopes = r.scopes[:len(r.scopes)-1] }
func (r *rewriter) declare(name string) {
	top := &r.scopes[len(r.scopes)-1]
	if *top == nil {
		*top = map[string]bool{}
	}
	(*top)[name] = true
}

func (r *rewriter) isLocal(name string) bool {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if r.scopes[i][name] {
			return true
		}
	}
	return false
}

// block rewrites statements in a scope of their own.
func (r *rewriter) block(stmts []ast.Stmt) []ast.Stmt {
	r.push()
	defer r.pop()
	return r.stmts(stmts)
}

func (r *rewriter) stmts(stmts []ast.Stmt) []ast.Stmt {
	for i, s := range stmts {
		stmts[i] = r.stmt(s)
	}
	return stmts
}

func (r *rewriter) stmt(s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case *ast.AssignStmt:
		for _, l := range s.Lhs {
			r.target(l)
		}
		r.exprs(s.Rhs)
		if len(s.Lhs) > 1 || len(s.Rhs) > 1 || r.localTakesComputed(s) {
			return r.throughTemps(s)
		}
		if r.depth > 0 {
			return r.assign(s)
		}
	case *ast.LocalAssignStmt:
		if len(s.Names) == 1 && len(s.Exprs) == 1 {
			if _, ok := s.Exprs[0].(*ast.FunctionExpr); ok { // gopher-lua: the name is in scope in the body
				r.declare(s.Names[0])
			}
		}
		r.exprs(s.Exprs)
		for _, n := range s.Names {
			r.declare(n)
		}
	case *ast.FuncCallStmt:
		s.Expr = r.expr(s.Expr)
	case *ast.DoBlockStmt:
		s.Stmts = r.block(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = r.expr(s.Condition)
		s.Stmts = r.block(s.Stmts)
		switch {
		case isTrue(s.Condition): // its backward jump goes to the body
			s.Stmts = padLoop(s.Stmts, s)
		case startsConstant(s.Condition):
			return whileTrue(s)
		}
	case *ast.RepeatStmt: // the condition sees the body's locals
		r.push()
		s.Stmts = padLoop(r.stmts(s.Stmts), s)
		s.Condition = r.expr(s.Condition)
		r.pop()
	case *ast.IfStmt:
		s.Condition = r.expr(s.Condition)
		s.Then = r.block(s.Then)
		s.Else = r.block(s.Else)
	case *ast.NumberForStmt:
		s.Init, s.Limit = r.expr(s.Init), r.expr(s.Limit)
		if s.Step != nil {
			s.Step = r.expr(s.Step)
		}
		r.push()
		r.declare(s.Name)
		s.Stmts = r.block(s.Stmts)
		r.pop()
	case *ast.GenericForStmt:
		r.exprs(s.Exprs)
		r.push()
		for _, n := range s.Names {
			r.declare(n)
		}
		s.Stmts = padLoop(r.block(s.Stmts), s)
		r.pop()
	case *ast.FuncDefStmt:
		return r.funcDef(s)
	case *ast.ReturnStmt:
		r.exprs(s.Exprs)
	}
	return s
}

// target rewrites the subexpressions of an assignment target.
func (r *rewriter) target(e ast.Expr) {
	if a, ok := e.(*ast.AttrGetExpr); ok {
		a.Object, a.Key = r.expr(a.Object), r.expr(a.Key)
	}
}

func (r *rewriter) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = r.expr(e)
	}
}

func (r *rewriter) expr(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.AttrGetExpr:
		e.Object, e.Key = r.expr(e.Object), r.expr(e.Key)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if f.Key != nil {
				f.Key = r.tableKey(r.expr(f.Key))
			}
			f.Value = r.expr(f.Value)
		}
		keyedLastField(e)
	case *ast.FuncCallExpr:
		if e.Func != nil {
			e.Func = r.expr(e.Func)
		}
		if e.Receiver != nil {
			e.Receiver = r.expr(e.Receiver)
		}
		r.exprs(e.Args)
	case *ast.LogicalOpExpr:
		e.Lhs, e.Rhs = r.expr(e.Lhs), r.expr(e.Rhs)
	case *ast.RelationalOpExpr:
		e.Lhs, e.Rhs = r.expr(e.Lhs), r.expr(e.Rhs)
	case *ast.ArithmeticOpExpr:
		e.Lhs, e.Rhs = r.expr(e.Lhs), r.expr(e.Rhs)
	case *ast.StringConcatOpExpr:
		return r.concat(e)
	case *ast.UnaryMinusOpExpr:
		e.Expr = r.expr(e.Expr)
	case *ast.UnaryNotOpExpr:
		e.Expr = r.expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		e.Expr = r.expr(e.Expr)
	case *ast.FunctionExpr:
		r.function(e, false)
	case *ast.Comma3Expr:
		if r.depth == 0 { // the main chunk's ...: the helpers, not the script's
			c := call(helperNone, e)
			c.AdjustRet = e.AdjustRet
			return c
		}
	}
	return e
}

// keyedLastField makes a call or ... that is the value of a constructor's
// last field, when that field has a key ({"a", k = f()}), give one value.
// gopher-lua spreads a last field's results into the array whether or not
// it has a key, so {"a", name = tostring(5)} had a second element "5".
func keyedLastField(t *ast.TableExpr) {
	if n := len(t.Fields); n > 0 && t.Fields[n-1].Key != nil {
		oneValue(t.Fields[n-1].Value)
	}
}

// function rewrites a function body in a scope holding its parameters
// (and self for method syntax, arg for a vararg function, as gopher-lua
// declares them).
func (r *rewriter) function(f *ast.FunctionExpr, method bool) {
	r.depth++
	r.push()
	if method {
		r.declare("self")
	}
	for _, n := range f.ParList.Names {
		r.declare(n)
	}
	if f.ParList.HasVargs {
		r.declare("arg")
	}
	f.Stmts = r.stmts(f.Stmts)
	r.pop()
	r.depth--
}

// concat turns a .. b .. c (a right-nested chain) into one helper call
// with the operands in order; each operand keeps one value.
func (r *rewriter) concat(e *ast.StringConcatOpExpr) ast.Expr {
	var ops []ast.Expr
	var cur ast.Expr = e
	for {
		c, ok := cur.(*ast.StringConcatOpExpr)
		if !ok {
			break
		}
		ops = append(ops, r.expr(c.Lhs))
		cur = c.Rhs
	}
	ops = append(ops, r.expr(cur))
	for _, op := range ops {
		oneValue(op)
	}
	return call(helperConcat, e, ops...)
}

// tableKey wraps a computed constructor key in the key helper, unless it
// is a constant that cannot be a large array index.
func (r *rewriter) tableKey(k ast.Expr) ast.Expr {
	switch k := k.(type) {
	case *ast.StringExpr, *ast.TrueExpr, *ast.FalseExpr:
		return k
	case *ast.NumberExpr:
		if n, err := strconv.ParseFloat(k.Value, 64); err == nil && n < arrayGapFree {
			return k
		}
	}
	oneValue(k)
	return call(helperKey, k, k)
}

// funcDef rewrites function a.b.c() / a:m() / g() inside a function body
// into the guarded assignment of a function value.
func (r *rewriter) funcDef(s *ast.FuncDefStmt) ast.Stmt {
	if s.Name.Func == nil { // method syntax: receiver:method
		s.Name.Receiver = r.expr(s.Name.Receiver)
		if r.depth == 0 {
			r.function(s.Func, true)
			return s
		}
		s.Func.ParList.Names = append([]string{"self"}, s.Func.ParList.Names...)
		r.function(s.Func, false)
		return statement(call(helperSet, s, s.Name.Receiver, str(s.Name.Method, s), s.Func))
	}
	r.target(s.Name.Func)
	r.function(s.Func, false)
	if r.depth == 0 {
		return s
	}
	a := &ast.AssignStmt{Lhs: []ast.Expr{s.Name.Func}, Rhs: []ast.Expr{s.Func}}
	a.SetLine(s.Line())
	a.SetLastLine(s.LastLine())
	return r.assign(a)
}

// assign routes the writes of an assignment in a function body through
// the helpers; writes to locals (and upvalues) stay as they are.
func (r *rewriter) assign(s *ast.AssignStmt) ast.Stmt {
	guarded := false
	for _, l := range s.Lhs {
		guarded = guarded || r.needsGuard(l)
	}
	if !guarded {
		return s
	}
	if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
		oneValue(s.Rhs[0])
		return r.write(s.Lhs[0], s.Rhs[0], s)
	}
	return r.multiAssign(s)
}

func (r *rewriter) needsGuard(l ast.Expr) bool {
	id, ok := l.(*ast.IdentExpr)
	return !ok || !r.isLocal(id.Value)
}

// write is one guarded write of value to target.
func (r *rewriter) write(target, value ast.Expr, pos ast.PositionHolder) ast.Stmt {
	switch t := target.(type) {
	case *ast.IdentExpr:
		if r.isLocal(t.Value) {
			a := &ast.AssignStmt{Lhs: []ast.Expr{t}, Rhs: []ast.Expr{value}}
			a.SetLine(pos.Line())
			a.SetLastLine(pos.LastLine())
			return a
		}
		return statement(call(helperSetGlobal, pos, str(t.Value, pos), value))
	case *ast.AttrGetExpr:
		return statement(call(helperSet, pos, t.Object, t.Key, value))
	}
	panic("unreachable: an assignment target is a name or an index")
}

// multiAssign evaluates the targets' tables and keys, then the values,
// into temporaries, and then writes each target: the order Lua uses.
func (r *rewriter) multiAssign(s *ast.AssignStmt) ast.Stmt {
	block := &ast.DoBlockStmt{}
	block.SetLine(s.Line())
	block.SetLastLine(s.LastLine())
	var prefix, prefixValues []ast.Expr
	targets := make([]ast.Expr, len(s.Lhs))
	for i, l := range s.Lhs {
		targets[i] = l
		if a, ok := l.(*ast.AttrGetExpr); ok {
			o, k := r.temp(s), r.temp(s)
			prefix = append(prefix, o, k)
			prefixValues = append(prefixValues, a.Object, a.Key)
			targets[i] = &ast.AttrGetExpr{Object: o, Key: k}
		}
	}
	if len(prefix) > 0 {
		for _, v := range prefixValues {
			oneValue(v)
		}
		block.Stmts = append(block.Stmts, local(prefix, prefixValues, s))
	}
	values := make([]ast.Expr, len(s.Lhs))
	for i := range values {
		values[i] = r.temp(s)
	}
	block.Stmts = append(block.Stmts, local(values, s.Rhs, s))
	for i, t := range targets {
		block.Stmts = append(block.Stmts, r.write(t, values[i], s))
	}
	return block
}

// localTakesComputed reports whether a one-value assignment gives a
// local (or an upvalue: the test cannot tell them apart, and a temporary
// is harmless there) a value gopher-lua compiles into the local's own
// register in a way that goes wrong: an and/or (x = t.k and v, when t.k
// is false or nil, jumped past the move and kept x's old value), a call
// or ... (s = (s:upper()) with s the last parameter, a = (...): the
// value went to one register and a move read another, leaving a Go nil).
func (r *rewriter) localTakesComputed(s *ast.AssignStmt) bool {
	id, ok := s.Lhs[0].(*ast.IdentExpr)
	if !ok || !r.isLocal(id.Value) {
		return false
	}
	switch s.Rhs[0].(type) {
	case *ast.LogicalOpExpr, *ast.FuncCallExpr, *ast.Comma3Expr:
		return true
	}
	return false
}

// throughTemps computes an assignment's values into new locals before
// it assigns them: x = e becomes do local t = e; x = t end, and an
// assignment of several targets or values goes through multiAssign,
// which does the same for each (and guards the writes that need it).
// gopher-lua compiles a multiple assignment to locals into their own
// registers one after the other, so a, b = b, a read a after writing it.
func (r *rewriter) throughTemps(s *ast.AssignStmt) ast.Stmt {
	if len(s.Lhs) > 1 || len(s.Rhs) > 1 {
		return r.multiAssign(s)
	}
	t := r.temp(s)
	a := &ast.AssignStmt{Lhs: s.Lhs, Rhs: []ast.Expr{t}}
	a.SetLine(s.Line())
	a.SetLastLine(s.LastLine())
	block := &ast.DoBlockStmt{Stmts: []ast.Stmt{local([]ast.Expr{t}, s.Rhs, s), a}}
	block.SetLine(s.Line())
	block.SetLastLine(s.LastLine())
	return block
}

// padLoop starts a loop body with local hookhost.pad = nil, a load that
// is never a jump. gopher-lua's jump-to-jump optimisation follows the
// backward jump of a generic for, a repeat or a while true into the
// body's first instruction; when that is a jump it has already
// rewritten (for local x = nil and 1 or 2, if false then, break), it
// reads the rewritten offset as a label and the loop jumps somewhere
// else: it never ended, or ran other code. (A numeric for loops with
// FORLOOP, not a jump; any other while jumps back to its condition,
// which starts with a jump only when it starts with a constant: see
// whileTrue.)
func padLoop(body []ast.Stmt, pos ast.PositionHolder) []ast.Stmt {
	nilValue := &ast.NilExpr{}
	nilValue.SetLine(pos.Line())
	nilValue.SetLastLine(pos.Line())
	pad := &ast.LocalAssignStmt{Names: []string{loopPad}, Exprs: []ast.Expr{nilValue}}
	pad.SetLine(pos.Line())
	pad.SetLastLine(pos.Line())
	return append([]ast.Stmt{pad}, body...)
}

// isTrue reports whether e is the constant true, which gopher-lua
// compiles to nothing as a while's condition.
func isTrue(e ast.Expr) bool {
	_, ok := e.(*ast.TrueExpr)
	return ok
}

// startsConstant reports whether the first operand a condition
// evaluates is a constant (while nil and x or y do): gopher-lua compiles
// it to a jump, which a while's backward jump would meet (see padLoop).
func startsConstant(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.LogicalOpExpr:
			e = x.Lhs
		case *ast.NilExpr, *ast.FalseExpr, *ast.TrueExpr, *ast.NumberExpr, *ast.StringExpr:
			return true
		default:
			return false
		}
	}
}

// whileTrue turns while c do body end, whose condition starts with a
// constant, into while true do local hookhost.pad = nil; if not (c) then
// break end; body end: the backward jump then meets the pad, and the
// condition is evaluated as before, once an iteration, a break in body
// leaving the same loop.
func whileTrue(s *ast.WhileStmt) ast.Stmt {
	not := &ast.UnaryNotOpExpr{Expr: s.Condition}
	not.SetLine(s.Line())
	not.SetLastLine(s.Line())
	brk := &ast.BreakStmt{}
	brk.SetLine(s.Line())
	brk.SetLastLine(s.Line())
	exit := &ast.IfStmt{Condition: not, Then: []ast.Stmt{brk}}
	exit.SetLine(s.Line())
	exit.SetLastLine(s.Line())
	yes := &ast.TrueExpr{}
	yes.SetLine(s.Line())
	yes.SetLastLine(s.Line())
	s.Condition = yes
	s.Stmts = padLoop(append([]ast.Stmt{exit}, s.Stmts...), s)
	return s
}

// temp makes a fresh temporary (not a Lua identifier, so it clashes with
// nothing a script declares).
func (r *rewriter) temp(pos ast.PositionHolder) *ast.IdentExpr {
	r.temps++
	return ident("hookhost.t"+strconv.Itoa(r.temps), pos)
}

func local(names []ast.Expr, values []ast.Expr, pos ast.PositionHolder) ast.Stmt {
	l := &ast.LocalAssignStmt{Exprs: values}
	for _, n := range names {
		l.Names = append(l.Names, n.(*ast.IdentExpr).Value)
	}
	l.SetLine(pos.Line())
	l.SetLastLine(pos.LastLine())
	return l
}

// oneValue makes a call or ... yield exactly one value, as it would as
// an operand.
func oneValue(e ast.Expr) {
	switch e := e.(type) {
	case *ast.FuncCallExpr:
		e.AdjustRet = true
	case *ast.Comma3Expr:
		e.AdjustRet = true
	}
}

func call(helper string, pos ast.PositionHolder, args ...ast.Expr) *ast.FuncCallExpr {
	c := &ast.FuncCallExpr{Func: ident(helper, pos), Args: args, AdjustRet: true}
	c.SetLine(pos.Line())
	c.SetLastLine(pos.LastLine())
	return c
}

func statement(c *ast.FuncCallExpr) ast.Stmt {
	s := &ast.FuncCallStmt{Expr: c}
	s.SetLine(c.Line())
	s.SetLastLine(c.LastLine())
	return s
}

func ident(name string, pos ast.PositionHolder) *ast.IdentExpr {
	id := &ast.IdentExpr{Value: name}
	id.SetLine(pos.Line())
	id.SetLastLine(pos.LastLine())
	return id
}

func str(s string, pos ast.PositionHolder) *ast.StringExpr {
	e := &ast.StringExpr{Value: s}
	e.SetLine(pos.Line())
	e.SetLastLine(pos.LastLine())
	return e
}
