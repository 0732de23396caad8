package starlark

import (
	"strconv"
	"strings"

	"go.starlark.net/syntax"
)

// The compiler compiles a chain a + b + … + z as one sum, with adjacent
// string, bytes, list or tuple literals folded into one first: in
// t + [1] + [f()], f() is called (it is part of the display [1, f()])
// before t + … fails. The rewrite makes each + a call of its own, which
// would fail at t + [1] first and never call f; so it folds a chain as
// the compiler does before it rewrites it.

// foldSum returns the chain e with its adjacent literals folded, as a
// new chain (or the one operand left), or e when nothing folds.
func (rw *rewriter) foldSum(e *syntax.BinaryExpr) syntax.Expr {
	if rw.folded[e] {
		return e
	}
	if rw.folded == nil {
		rw.folded = map[*syntax.BinaryExpr]bool{}
	}
	type summand struct {
		x   syntax.Expr
		pos syntax.Position // of the + before it
	}
	var rev []summand
	for plus := e; ; {
		rw.folded[plus] = true
		rev = append(rev, summand{unparen(plus.Y), plus.OpPos})
		left, ok := unparen(plus.X).(*syntax.BinaryExpr)
		if !ok || left.Op != syntax.PLUS {
			rev = append(rev, summand{x: unparen(plus.X)})
			break
		}
		plus = left
	}
	var out []summand
	changed := false
	for i := len(rev) - 1; i >= 0; {
		s, j := rev[i], i-1
		if kind := addableKind(s.x); kind != 0 {
			run := []syntax.Expr{s.x}
			for ; j >= 0 && addableKind(rev[j].x) == kind; j-- {
				run = append(run, rev[j].x)
			}
			if len(run) > 1 {
				s.x, changed = foldLiterals(kind, run), true
			}
		}
		out = append(out, s)
		i = j
	}
	if !changed {
		return e
	}
	acc := out[0].x
	for _, s := range out[1:] {
		sum := &syntax.BinaryExpr{X: acc, OpPos: s.pos, Op: syntax.PLUS, Y: s.x}
		rw.folded[sum] = true
		acc = sum
	}
	return acc
}

// foldLiterals is the one literal or display the compiler makes of the
// adjacent addable operands run, all of one kind.
func foldLiterals(kind rune, run []syntax.Expr) syntax.Expr {
	switch kind {
	case 's', 'b':
		first := run[0].(*syntax.Literal)
		var b strings.Builder
		for _, x := range run {
			b.WriteString(x.(*syntax.Literal).Value.(string))
		}
		text := b.String()
		raw := strconv.Quote(text)
		if kind == 'b' {
			raw = "b" + raw
		}
		return &syntax.Literal{Token: first.Token, TokenPos: first.TokenPos, Raw: raw, Value: text}
	case 'l':
		var elems []syntax.Expr
		for _, x := range run {
			elems = append(elems, x.(*syntax.ListExpr).List...)
		}
		return &syntax.ListExpr{Lbrack: run[0].(*syntax.ListExpr).Lbrack, List: elems, Rbrack: run[len(run)-1].(*syntax.ListExpr).Rbrack}
	default: // 't'
		var elems []syntax.Expr
		for _, x := range run {
			elems = append(elems, x.(*syntax.TupleExpr).List...)
		}
		return &syntax.TupleExpr{Lparen: run[0].(*syntax.TupleExpr).Lparen, List: elems, Rparen: run[len(run)-1].(*syntax.TupleExpr).Rparen}
	}
}

// addableKind is which literals the compiler folds in a sum: strings,
// bytes, list displays and tuple displays, each with its own kind.
func addableKind(x syntax.Expr) rune {
	switch x := x.(type) {
	case *syntax.Literal:
		switch x.Token {
		case syntax.STRING:
			return 's'
		case syntax.BYTES:
			return 'b'
		}
	case *syntax.ListExpr:
		return 'l'
	case *syntax.TupleExpr:
		return 't'
	}
	return 0
}
