package shell

import (
	"fmt"
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// This file finds the commands nested inside words: $(…), `…`, <(…),
// and those hidden in parameter expansions (${X:-$(…)}), arithmetic,
// [[ … ]] tests, assignments and here-documents. They run in the
// script's own context, apart from the command whose word holds them.

// words walks the substitutions inside ws.
func (w *walker) words(sc *scope, ws ...*syntax.Word) error {
	for _, word := range ws {
		if word == nil {
			continue
		}
		if err := w.wordParts(sc, word.Parts, 0); err != nil {
			return err
		}
	}
	return nil
}

// tooDeep reports expression nesting past maxDepth.
func tooDeep(sc *scope, depth int) error {
	if sc.depth+depth > maxDepth {
		return fmt.Errorf("%w: an expression is more than %d levels deep", ErrTooDeep, maxDepth)
	}
	return nil
}

func (w *walker) wordParts(sc *scope, parts []syntax.WordPart, depth int) error {
	if err := tooDeep(sc, depth); err != nil {
		return err
	}
	for _, p := range parts {
		if within(sc.holes, int(p.Pos().Offset())) {
			continue // reported by the outer shell, which runs it
		}
		if err := w.wordPart(sc, p, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) wordPart(sc *scope, p syntax.WordPart, depth int) error {
	switch p := p.(type) {
	case *syntax.DblQuoted:
		return w.wordParts(sc, p.Parts, depth)
	case *syntax.CmdSubst:
		return w.subst(sc, p, p.Stmts)
	case *syntax.ProcSubst:
		return w.subst(sc, p, p.Stmts)
	case *syntax.ArithmExp:
		return w.arithm(sc, p.X, depth)
	case *syntax.ParamExp:
		return w.paramExp(sc, p, depth)
	case *syntax.BraceExp:
		for _, e := range p.Elems {
			if err := w.wordParts(sc, e.Parts, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// subst walks the statements of a substitution in a fresh context, and
// records the names of the commands it runs.
func (w *walker) subst(sc *scope, n syntax.Node, stmts []*syntax.Stmt) error {
	inner, err := sc.sub()
	if err != nil {
		return err
	}
	start := len(w.cmds)
	// a substitution runs in a subshell
	if err := w.isolated(func() error { return w.stmts(inner, stmts) }); err != nil {
		return err
	}
	if w.substCmds == nil {
		w.substCmds = map[syntax.Node][]string{}
	}
	for _, c := range w.cmds[start:] {
		w.substCmds[n] = appendNew(w.substCmds[n], c.Name)
	}
	return nil
}

// appendNew appends the names of add to list that it does not hold yet.
func appendNew(list []string, add ...string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

func (w *walker) paramExp(sc *scope, p *syntax.ParamExp, depth int) error {
	var words []*syntax.Word
	if p.Exp != nil {
		words = append(words, p.Exp.Word)
	}
	if p.Repl != nil {
		words = append(words, p.Repl.Orig, p.Repl.With)
	}
	for _, word := range words {
		if word != nil {
			if err := w.wordParts(sc, word.Parts, depth); err != nil {
				return err
			}
		}
	}
	if p.NestedParam != nil {
		if err := w.wordPart(sc, p.NestedParam, depth); err != nil {
			return err
		}
	}
	exprs := []syntax.ArithmExpr{p.Index}
	if p.Slice != nil {
		exprs = append(exprs, p.Slice.Offset, p.Slice.Length)
	}
	for _, x := range exprs {
		if err := w.arithm(sc, x, depth); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) arithm(sc *scope, x syntax.ArithmExpr, depth int) error {
	if err := tooDeep(sc, depth); err != nil {
		return err
	}
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if err := w.arithm(sc, x.X, depth+1); err != nil {
			return err
		}
		return w.arithm(sc, x.Y, depth+1)
	case *syntax.UnaryArithm:
		return w.arithm(sc, x.X, depth+1)
	case *syntax.ParenArithm:
		return w.arithm(sc, x.X, depth+1)
	case *syntax.FlagsArithm:
		return w.arithm(sc, x.X, depth+1)
	case *syntax.Word:
		return w.wordParts(sc, x.Parts, depth+1)
	}
	return nil
}

func (w *walker) test(sc *scope, x syntax.TestExpr, depth int) error {
	if err := tooDeep(sc, depth); err != nil {
		return err
	}
	switch x := x.(type) {
	case *syntax.BinaryTest:
		if err := w.test(sc, x.X, depth+1); err != nil {
			return err
		}
		return w.test(sc, x.Y, depth+1)
	case *syntax.UnaryTest:
		return w.test(sc, x.X, depth+1)
	case *syntax.ParenTest:
		return w.test(sc, x.X, depth+1)
	case *syntax.Word:
		return w.wordParts(sc, x.Parts, depth+1)
	}
	return nil
}

// assigns walks the substitutions in assignments: X=$(…), a=(… $(…)).
func (w *walker) assigns(sc *scope, as []*syntax.Assign) error {
	for _, a := range as {
		w.hashAssign(sc.src, a)
		if err := w.words(sc, a.Value); err != nil {
			return err
		}
		if err := w.arithm(sc, a.Index, 0); err != nil {
			return err
		}
		if a.Array == nil {
			continue
		}
		for _, e := range a.Array.Elems {
			if err := w.arithm(sc, e.Index, 0); err != nil {
				return err
			}
			if err := w.words(sc, e.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// redirectWords walks the substitutions in redirection targets and in
// the bodies of unquoted here-documents (a quoted one is plain text).
func (w *walker) redirectWords(sc *scope, rs []*syntax.Redirect) error {
	for _, r := range rs {
		if err := w.words(sc, r.Word); err != nil {
			return err
		}
		if r.Hdoc != nil && !isQuoted(r.Word) {
			if err := w.words(sc, r.Hdoc); err != nil {
				return err
			}
		}
	}
	return nil
}
