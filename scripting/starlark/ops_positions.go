package starlark

import "go.starlark.net/syntax"

// Positions, for the hidden calls the rewrite makes: where an
// expression starts, and which position the compiler would have given
// the instruction a rewritten slice replaces (its errors report it).

// start is where x starts. syntax's Span walks down to the leftmost
// operand, and the rewrite asks at every level of a long chain
// (a + b + … + z, x[0:][0:]…): remembered per node, it walks each once.
func (rw *rewriter) start(x syntax.Expr) syntax.Position {
	if pos, ok := rw.starts[x]; ok {
		return pos
	}
	var pos syntax.Position
	switch x := x.(type) {
	case *syntax.BinaryExpr:
		pos = rw.start(x.X)
	case *syntax.SliceExpr:
		pos = rw.start(x.X)
	case *syntax.IndexExpr:
		pos = rw.start(x.X)
	case *syntax.DotExpr:
		pos = rw.start(x.X)
	case *syntax.CallExpr:
		pos = rw.start(x.Fn)
	default:
		pos, _ = x.Span()
	}
	if rw.starts == nil {
		rw.starts = map[syntax.Expr]syntax.Position{}
	}
	rw.starts[x] = pos
	return pos
}

// slicePos is the position the interpreter's slice instruction for s
// carries, which its errors report: the compiler gives an instruction
// the last position it set before emitting it, in the order it compiles
// the slice (its bracket, then x, lo, hi and step). $slice's call takes
// that position, so that a failing slice points where it did.
func (rw *rewriter) slicePos(s *syntax.SliceExpr) syntax.Position {
	if pos, ok := rw.slicePositions[s]; ok { // x[0:][0:]… nests without bound
		return pos
	}
	pos := s.Lbrack
	for _, e := range []syntax.Expr{s.Step, s.Hi, s.Lo, s.X} {
		if e != nil {
			if p, ok := rw.lastSetPos(e); ok {
				pos = p
				break
			}
		}
	}
	if rw.slicePositions == nil {
		rw.slicePositions = map[*syntax.SliceExpr]syntax.Position{}
	}
	rw.slicePositions[s] = pos
	return pos
}

// lastSetPos is the last position the compiler sets while compiling x,
// if it sets one: names (but universal ones, whose lookup cannot fail),
// fields, indexes, calls and operators do; literals do not. For the
// forms a slice's operand or index rarely takes (comprehensions,
// lambdas, sums the compiler folds) it answers the start of x, which may
// differ from the compiler's in the column a failing slice reports.
func (rw *rewriter) lastSetPos(x syntax.Expr) (syntax.Position, bool) {
	switch x := x.(type) {
	case *syntax.Literal:
		return syntax.Position{}, false
	case *syntax.Ident:
		if rw.universal(x.Name) {
			return syntax.Position{}, false
		}
		return x.NamePos, true
	case *syntax.CondExpr:
		// The false branch is laid out right after the condition, and
		// the true one elsewhere: the instruction after the expression
		// follows the false branch.
		return rw.lastOf(x.Cond, x.False)
	case *syntax.ParenExpr:
		return rw.lastSetPos(x.X)
	case *syntax.DotExpr:
		return x.Dot, true
	case *syntax.CallExpr:
		return x.Lparen, true
	case *syntax.IndexExpr:
		return x.Lbrack, true
	case *syntax.SliceExpr:
		return rw.slicePos(x), true
	case *syntax.UnaryExpr:
		return x.OpPos, true
	case *syntax.BinaryExpr:
		switch x.Op {
		case syntax.AND, syntax.OR:
			return rw.lastOf(x.X, x.Y)
		case syntax.PLUS:
			return rw.sumPos(x)
		}
		return x.OpPos, true
	case *syntax.ListExpr:
		return rw.lastOf(x.List...)
	case *syntax.TupleExpr:
		return rw.lastOf(x.List...)
	case *syntax.DictExpr:
		if n := len(x.List); n > 0 {
			return x.List[n-1].(*syntax.DictEntry).Colon, true
		}
		return syntax.Position{}, false
	}
	start, _ := x.Span()
	return start, true
}

// sumPos is lastSetPos of a chain a + b + … + z, which the compiler
// compiles as one sum of its operands, adjacent string, bytes, list or
// tuple literals folded into one: the last + of what is left, or, when
// everything folded into one operand, that operand's.
func (rw *rewriter) sumPos(e *syntax.BinaryExpr) (syntax.Position, bool) {
	type summand struct {
		x   []syntax.Expr // the operands folded into this one
		pos syntax.Position
	}
	var rev []summand
	for plus := e; ; {
		rev = append(rev, summand{[]syntax.Expr{unparen(plus.Y)}, plus.OpPos})
		left, ok := unparen(plus.X).(*syntax.BinaryExpr)
		if !ok || left.Op != syntax.PLUS {
			rev = append(rev, summand{x: []syntax.Expr{unparen(plus.X)}})
			break
		}
		plus = left
	}
	var out []summand
	for i := len(rev) - 1; i >= 0; i-- {
		s := rev[i]
		if n := len(out); n > 0 && addableKind(s.x[0]) != 0 && addableKind(s.x[0]) == addableKind(out[n-1].x[0]) {
			out[n-1].x = append(out[n-1].x, s.x...)
			continue
		}
		out = append(out, s)
	}
	if len(out) > 1 {
		return out[len(out)-1].pos, true
	}
	var elems []syntax.Expr // a folded list or tuple compiles its elements
	for _, x := range out[0].x {
		switch x := x.(type) {
		case *syntax.ListExpr:
			elems = append(elems, x.List...)
		case *syntax.TupleExpr:
			elems = append(elems, x.List...)
		case *syntax.Literal:
		default:
			return rw.lastSetPos(x)
		}
	}
	return rw.lastOf(elems...)
}

// lastOf is lastSetPos of a sequence compiled in order.
func (rw *rewriter) lastOf(list ...syntax.Expr) (syntax.Position, bool) {
	for i := len(list) - 1; i >= 0; i-- {
		if pos, ok := rw.lastSetPos(list[i]); ok {
			return pos, true
		}
	}
	return syntax.Position{}, false
}
