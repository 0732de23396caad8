package shell

import (
	"regexp"
	"strings"
	"sync"

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

// rebinders are the words that may set a variable in ways this reading
// does not follow: read, eval, a sourced file, declare, printf -v, a
// trap, an alias, a wrapper that hides which builtin runs (builtin read,
// command eval), IFS that splits a value, the loops that assign. A line
// holding any of them as a word, anywhere (\read and 'read' too), binds
// nothing.
var rebinders = wordSet(`read readarray mapfile getopts printf eval source declare typeset export local readonly let
	unset set shift trap alias unalias shopt compgen complete builtin command enable exec select coproc while until IFS
	BASH_ENV ENV PROMPT_COMMAND PS4`)

// mayRebind reports whether src holds one of the rebinders as a word (a
// run of letters, digits and underscores: \read and 'read' too) or runs
// a file with . (at the start, or after a blank, ;, &, | or (). It scans
// src once, allocating nothing: it runs on every line parsed.
func mayRebind(src string) bool {
	for i := 0; i < len(src); {
		if !isNameByte(src[i]) {
			if src[i] == '.' && i+1 < len(src) && isBlank(src[i+1]) && (i == 0 || isBlank(src[i-1]) || strings.IndexByte(";&|(", src[i-1]) >= 0) {
				return true
			}
			i++
			continue
		}
		j := i
		for j < len(src) && isNameByte(src[j]) {
			j++
		}
		if rebinders[src[i:j]] {
			return true
		}
		i = j
	}
	return false
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isBlank(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// plainName is a command name written plainly; bashBuiltins are bash's
// builtins, and quietBuiltins those of them that set no variable.
var (
	plainName    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[A-Za-z0-9_./+-]+|\[|:)$`) })
	bashBuiltins = wordSet(`. : [ alias bg bind break builtin caller cd command compgen complete compopt continue
		declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let
		local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend
		test times trap true type typeset ulimit umask unalias unset wait`)
	quietBuiltins = wordSet(`cd pushd popd dirs echo pwd test [ true false : exit kill jobs times type umask ulimit`)
)

// wordSet is the set of the words of s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// shellVars are the variables the shell itself sets as it runs ($_ after
// every command, PWD and OLDPWD at cd, BASH_REMATCH at =~, …): never
// bound, whatever the line assigns them.
var shellVars = map[string]bool{
	"_": true, "PWD": true, "OLDPWD": true, "DIRSTACK": true, "REPLY": true, "OPTARG": true, "OPTIND": true,
	"IFS": true, "HOME": true, "CDPATH": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"LINENO": true, "MAPFILE": true, "COPROC": true, "FUNCNAME": true, "PIPESTATUS": true, "GROUPS": true,
	"HISTCMD": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true, "BASHPID": true, "PPID": true, "UID": true,
	"EUID": true, "SHLVL": true, "PATH": true, "SHELLOPTS": true, "BASHOPTS": true,
}

// bindable reports whether the line may bind its variables at all
// (bindings), and how many times it assigns each: a loop's variable is
// bound only where the loop is its one assignment.
type bindings struct {
	ok    bool
	count map[string]int
}

// canBind reports whether name may be bound: the line allows binding,
// assigns name once, and the shell does not set it itself.
func (b bindings) canBind(name string) bool {
	return b.ok && b.count[name] == 1 && !shellVars[name] && !strings.HasPrefix(name, "BASH_") &&
		!strings.HasPrefix(name, "COMP_")
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
func lineAssignments(f *syntax.File, src source) (map[string]assignedPath, bindings) {
	count := map[string]int{}
	ok := !mayRebind(string(src))
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, a := range n.Assigns {
				if a.Name != nil {
					count[a.Name.Value]++
				}
			}
			if len(n.Args) > 0 {
				// every command must be named plainly (no quote, backslash,
				// brace or expansion: r\ead, e{v,v}al are read and eval)
				// and be no builtin but those that set no variable
				name := src.of(n.Args[0])
				if !plainName().MatchString(name) || (bashBuiltins[name] && !quietBuiltins[name]) {
					ok = false
				}
			}
		case *syntax.ForClause:
			if it, isIter := n.Loop.(*syntax.WordIter); isIter && it.Name != nil {
				count[it.Name.Value]++
			}
		case *syntax.DeclClause, *syntax.LetClause, *syntax.FuncDecl, *syntax.ArithmCmd, *syntax.ArithmExp,
			*syntax.CoprocClause, *syntax.TestClause:
			ok = false
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				ok = false
			}
		}
		return ok
	})
	b := bindings{ok: ok, count: count}
	if !ok {
		return nil, b
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
				!b.canBind(a.Name.Value) {
				continue
			}
			p := wordPath(src, a.Value)
			if p.Dynamic || p.Glob || p.Path == "" || strings.ContainsAny(p.Path, " \t\n*?[") {
				continue
			}
			out[a.Name.Value] = assignedPath{end: first.End().Offset(), path: p}
		}
	}
	return out, b
}
