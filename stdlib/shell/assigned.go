package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An assignedPath is a variable a line sets once, unconditionally, at
// its top level, to a value known in advance (OUT=build; rm -rf
// "$OUT"): the words after end that start with it are read as that
// path.
type assignedPath struct {
	end  uint // the offset where the assignment's statement ends
	path PathInfo
}

// rebinders are the commands that may set a variable in ways this
// reading does not follow (read, eval, a sourced file, declare, printf
// -v, …): a line running any of them binds nothing.
var rebinders = map[string]bool{
	"read": true, "readarray": true, "mapfile": true, "getopts": true, "printf": true, "eval": true,
	"source": true, ".": true, "declare": true, "typeset": true, "export": true, "local": true,
	"readonly": true, "let": true, "unset": true, "set": true, "shift": true,
}

// lineAssignments returns the variables f sets once, unconditionally and
// at its top level, to a path known in advance: a statement of the line,
// or the first command of a top-level && or || chain, made only of
// assignments, not in the background. A variable assigned anywhere else
// on the line too (a loop's variable, a prefix NAME=v cmd, a
// subshell's), a value with white space or glob characters (split or
// expanded where it is used unquoted), and every variable of a line
// that runs a command that may set one another way, declares a
// function, or computes (an arithmetic command or expansion, ${X:=v}),
// bind nothing.
func lineAssignments(f *syntax.File, src source) map[string]assignedPath {
	count := map[string]int{}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, a := range n.Assigns {
				if a.Name != nil {
					count[a.Name.Value]++
				}
			}
			if len(n.Args) > 0 {
				if name := n.Args[0].Lit(); rebinders[name] || name == "" && len(n.Args[0].Parts) > 0 {
					ok = false // a rebinder, or a command named only at run time
				}
			}
		case *syntax.ForClause:
			if it, isIter := n.Loop.(*syntax.WordIter); isIter && it.Name != nil {
				count[it.Name.Value]++
			}
		case *syntax.DeclClause, *syntax.LetClause, *syntax.FuncDecl, *syntax.ArithmCmd, *syntax.ArithmExp,
			*syntax.CoprocClause:
			ok = false
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return nil
	}
	out := map[string]assignedPath{}
	for _, st := range f.Stmts {
		first := st
		for {
			b, isBin := first.Cmd.(*syntax.BinaryCmd)
			if !isBin || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) {
				break
			}
			first = b.X
		}
		c, isCall := first.Cmd.(*syntax.CallExpr)
		if !isCall || len(c.Args) > 0 || first.Background || first.Negated || st.Background {
			continue
		}
		for _, a := range c.Assigns {
			if a.Name == nil || a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Value == nil ||
				count[a.Name.Value] != 1 {
				continue
			}
			p := wordPath(src, a.Value)
			if p.Dynamic || p.Glob || p.Path == "" || strings.ContainsAny(p.Path, " \t\n*?[") {
				continue
			}
			out[a.Name.Value] = assignedPath{end: first.End().Offset(), path: p}
		}
	}
	return out
}
