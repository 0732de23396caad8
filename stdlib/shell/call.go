package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A run is one simple command on its way to being reported, through
// however many wrappers.
type run struct {
	sc        *scope
	stmt      *syntax.Stmt // for here-documents fed to a shell; nil for decl
	redirs    []Redirect   // its own, then inherited
	redirsDyn bool
	slot      *slot
	// stdinNodes are the substitutions in its standard input
	// redirections (sh < <(curl …)), whose output a command reading
	// code from standard input runs.
	stdinNodes []syntax.Node
}

// call walks a simple command: the substitutions of its assignments, the
// command itself (unwrapped), then the substitutions of its words.
func (w *walker) call(sc *scope, st *syntax.Stmt, c *syntax.CallExpr, r *run) error {
	if err := w.assigns(sc, c.Assigns); err != nil {
		return err
	}
	if len(c.Args) == 0 { // assignments only: X=1, or X=1 > file
		return w.bare(sc, st, r)
	}
	var args []arg
	for _, word := range c.Args {
		more := expand(sc.src, word)
		if (len(sc.loopPaths) > 0 || (len(w.assigned) > 0 && sc.level == 0)) && len(more) == 1 && more[0].dynamic {
			if p, ok := boundWordPath(sc, w.assigned, word); ok {
				more[0].path, more[0].hasPath = p, true
			}
		}
		if w.nwords += len(more); w.nwords > maxWords {
			return fmt.Errorf("%w: more than %d words", ErrTooMany, maxWords)
		}
		args = append(args, more...)
	}
	r.sc, r.stmt = sc, st
	r.redirs = append(r.redirs, sc.redirs...)
	r.redirsDyn = r.redirsDyn || sc.redirsDyn
	if err := w.run(r, args, sc.wrappedBy, sc.dynamic, 0); err != nil {
		return err
	}
	if err := w.words(sc, c.Args...); err != nil {
		return err
	}
	w.applyDir()
	return nil
}

// bare reports a statement that runs no command but has redirections
// of its own (> file, X=1 2> log) as the command ":" with them, which is
// what it does: it opens, creates or truncates their files all the same.
// A statement with neither runs nothing and is not reported.
func (w *walker) bare(sc *scope, st *syntax.Stmt, r *run) error {
	if len(st.Redirs) == 0 {
		return nil
	}
	r.sc, r.stmt = sc, st
	r.redirs = append(r.redirs, sc.redirs...)
	r.redirsDyn = r.redirsDyn || sc.redirsDyn
	return w.run(r, []arg{staticArg(":")}, sc.wrappedBy, sc.dynamic, 0)
}

// run reports args as a command, unwrapping wrappers first. wrapped and
// dyn are what the wrappers around it so far imply.
func (w *walker) run(r *run, args []arg, wrapped []string, dyn bool, hops int) error {
	if len(args) == 0 {
		return nil
	}
	if !args[0].dynamic && len(w.programs) > 0 && !w.asWritten { // a name the line gave a program (renamed.go)
		if p, ok := w.programFor(args[0].text, w.at.dir); ok {
			w.asWritten = true // as written too: the name may not run the program (renamed.go)
			err := w.run(r, args, wrapped, dyn, hops)
			w.asWritten = false
			if err != nil {
				return err
			}
			if p.dynamic && p.text == "" { // one of two programs (renamed.go): no name
				p = args[0]
				p.dynamic, p.holes, p.base, p.hasPath = true, []span{{0, len(p.raw)}}, "", false
			}
			args = append([]arg{p}, args[1:]...)
		}
	}
	unwrap := lookupWrapper(args[0].base)
	if args[0].dynamic || unwrap == nil {
		return w.emit(r, args, wrapped, dyn, nil)
	}
	if hops >= maxWrappers { // reporting the wrapper would hide the command
		return fmt.Errorf("%w: more than %d wrappers around a command", ErrTooDeep, maxWrappers)
	}
	u := unwrap(args)
	if u.none() {
		return w.emit(r, args, wrapped, dyn, nil)
	}
	inner := append(slices.Clip(wrapped), args[0].base)
	if u.interp != nil {
		return w.interp(r, args, wrapped, inner, dyn, hops, u.interp)
	}
	if u.self {
		if err := w.emit(r, args, wrapped, dyn, u.code); err != nil {
			return err
		}
	}
	for _, argv := range u.argvs {
		if err := w.run(r, argv, inner, dyn || u.dynamic, hops+1); err != nil {
			return err
		}
	}
	for _, s := range u.scripts {
		if err := w.scriptOrSelf(r, s, args, wrapped, inner, dyn || u.dynamic, u.self); err != nil {
			return err
		}
	}
	if !u.stdin {
		return nil
	}
	// The here-document is the script here, not its commands' input.
	fed := *r
	fed.redirs = slices.DeleteFunc(slices.Clone(r.redirs), func(rd Redirect) bool { return isStdinData(rd) && rd.Fd == u.fd })
	for _, s := range fdScripts(r, u.fd) {
		if u.code != nil && u.code.lang == "powershell" { // pwsh -Command - <<< '…'
			s = scriptText{text: PowerShell(s.text), dynamic: s.dynamic}
		}
		if err := w.script(&fed, s, inner, dyn); err != nil {
			return err
		}
	}
	return nil
}

// scriptOrSelf walks a script a wrapper runs. A script made from a
// substitution's output that reports no command of its own (bash -c
// "# $(curl …)") reports the wrapper instead, so that what it runs is
// not lost.
func (w *walker) scriptOrSelf(r *run, s scriptText, args []arg, wrapped, inner []string, dyn, self bool) error {
	before := len(w.cmds)
	if err := w.script(r, s, inner, dyn); err != nil {
		return err
	}
	if len(w.cmds) > before || len(s.substs) == 0 || self {
		return nil
	}
	return w.emit(r, args, wrapped, dyn, &codeInfo{lang: "sh", nodes: s.substs})
}

// isStdinData reports whether a redirection feeds text, not a file.
func isStdinData(r Redirect) bool { return r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" }

// codeInfo is what a command that runs code is reported with.
type codeInfo struct {
	lang  string
	code  string
	calls []Call
	nodes []syntax.Node // substitutions whose output it runs
	stdin bool          // it reads its code from standard input
	fd    int           // or from this descriptor (bash /dev/fd/3 3< <(…))
	// argScript: its script is the next argument, which the line does
	// not give (bash -c and nothing after): under a wrapper that adds
	// arguments at run time (xargs, parallel), the script is what that
	// wrapper reads, the output of the commands piped into it.
	argScript bool
}

// emit reports one command.
func (w *walker) emit(r *run, args []arg, wrapped []string, dyn bool, ci *codeInfo) error {
	if len(w.cmds) >= MaxCommands {
		return fmt.Errorf("%w: more than %d", ErrTooMany, MaxCommands)
	}
	if r.slot.pipe.id < 0 {
		r.slot.pipe.id = w.pipes
		w.pipes++
	}
	c := Command{
		Name:      args[0].base,
		Argv:      make([]string, len(args)),
		WrappedBy: append([]string{}, wrapped...),
		Redirects: append([]Redirect{}, r.redirs...),
		Pipeline:  r.slot.pipe.id,
		Position:  r.slot.index,
		Dynamic:   dyn || r.redirsDyn,
		Paths:     make([]PathInfo, len(args)),
		CodeFrom:  []string{},
		Calls:     []Call{},
	}
	for i, a := range args {
		c.Argv[i] = a.text
		c.Paths[i] = a.pathOf()
		c.Dynamic = c.Dynamic || a.dynamic
	}
	c.Roles = Roles(c.Argv)
	c.Dir, c.AltDirs = w.at.dir, slices.Clone(w.at.alts)
	if c.AltDirs == nil {
		c.AltDirs = []string{}
	}
	var nodes []syntax.Node
	if r.sc != nil {
		w.follow(&c, wrapped[min(len(r.sc.wrappedBy), len(wrapped)):])
		c.Function, c.Background = r.sc.function, r.sc.background
		nodes = r.sc.codeFrom
	}
	if ci != nil {
		c.Lang, c.Code = ci.lang, ci.code
		if ci.calls != nil {
			c.Calls = ci.calls
		}
		nodes = append(slices.Clip(nodes), ci.nodes...)
		if ci.stdin {
			nodes = append(nodes, r.stdinNodes...)
			c.CodeFrom = w.upstream(c)
		}
		if ci.fd > 0 && r.stmt != nil && r.sc != nil {
			nodes = append(nodes, fdSubsts(r.sc.src, r.stmt.Redirs, ci.fd)...)
		}
		if ci.argScript && dyn {
			c.CodeFrom = w.upstream(c) // echo 'rm -rf ~' | xargs -0 bash -c
		}
	}
	if len(nodes) > 0 {
		w.links = append(w.links, link{cmd: len(w.cmds), nodes: nodes})
	}
	w.recordPrograms(&c, args)
	w.cmds = append(w.cmds, c)
	return nil
}

// upstream returns the names of the commands before c in its pipeline,
// whose output c reads.
func (w *walker) upstream(c Command) []string {
	out := []string{}
	for _, p := range w.cmds {
		if p.Pipeline == c.Pipeline && p.Position < c.Position {
			out = appendNew(out, p.Name)
		}
	}
	return out
}

// resolveLinks fills in CodeFrom from the substitutions each command
// runs the output of, now that all of them have been walked.
func (w *walker) resolveLinks() {
	for _, l := range w.links {
		c := &w.cmds[l.cmd]
		for _, n := range l.nodes {
			c.CodeFrom = appendNew(c.CodeFrom, w.substCmds[n]...)
		}
	}
}

// A scriptText is shell source that a wrapper runs: the argument of
// bash -c, eval's words, a here-document fed to sh.
type scriptText struct {
	text    string
	dynamic bool          // the text itself is only known at run time
	holes   []span        // parts of text the outer shell substitutes (see arg.holes)
	substs  []syntax.Node // the substitutions among them, whose output is code
}

// script parses and walks a nested script. Its commands run wrapped by
// wrapped, inherit the command's redirections, and take its pipeline
// slot when that is shared.
func (w *walker) script(r *run, s scriptText, wrapped []string, dyn bool) error {
	name := wrapped[len(wrapped)-1]
	if err := w.admit(r.sc, s.text); err != nil {
		return fmt.Errorf("%s script: %w", name, err)
	}
	f, err := w.parser.Parse(strings.NewReader(s.text), "")
	if err != nil {
		return fmt.Errorf("%s script: %w", name, err)
	}
	inner, err := r.sc.child()
	if err != nil {
		return err
	}
	inner.src, inner.level, inner.wrappedBy = source(s.text), r.sc.level+1, wrapped
	inner.dynamic, inner.holes = dyn || s.dynamic, s.holes
	inner.codeFrom = append(slices.Clip(r.sc.codeFrom), s.substs...)
	inner.redirs, inner.redirsDyn, inner.slot = r.redirs, r.redirsDyn, nil
	if r.slot.shared {
		inner.slot = r.slot
	}
	if name == "eval" { // eval runs its script in the shell itself
		return w.stmts(inner, f.Stmts)
	}
	return w.isolated(func() error { return w.stmts(inner, f.Stmts) })
}

// admit applies the limits on nested scripts before one is parsed.
func (w *walker) admit(sc *scope, text string) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if sc.level+1 > MaxScriptDepth {
		return fmt.Errorf("%w: scripts nest more than %d levels", ErrTooDeep, MaxScriptDepth)
	}
	if w.scripts++; w.scripts > maxScripts {
		return fmt.Errorf("%w: more than %d nested scripts", ErrTooMany, maxScripts)
	}
	if w.parsed += len(text); w.parsed > maxParsedBytes {
		return fmt.Errorf("%w: nested scripts add up to more than %d bytes", ErrTooLong, maxParsedBytes)
	}
	return checkText(text)
}

// fdScripts returns the here-documents and here-strings that a shell
// reading its script from descriptor fd (0: standard input) is given.
func fdScripts(r *run, fd int) []scriptText {
	if r.stmt == nil {
		return nil
	}
	var out []scriptText
	for _, rd := range r.stmt.Redirs {
		if n := 0; rd.N != nil {
			if v, err := strconv.Atoi(rd.N.Value); err != nil || v != fd {
				continue
			}
		} else if fd != n {
			continue
		}
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			out = append(out, script(heredocBody(r.sc.src, rd)))
		case syntax.WordHdoc:
			out = append(out, script(resolve(r.sc.src, rd.Word, unquoted)))
		}
	}
	return out
}

// heredocBody resolves a here-document's body: verbatim when its
// delimiter is quoted, else with expansions as in double quotes. A
// dynamic body is shown in its raw form, since the parser's end position
// for a body runs past it into the delimiter. <<- strips leading tabs
// (stripping a static body again is harmless).
func heredocBody(src source, rd *syntax.Redirect) arg {
	var a arg
	switch {
	case rd.Hdoc == nil:
		a = staticArg("")
	case isQuoted(rd.Word):
		var b strings.Builder
		for _, p := range rd.Hdoc.Parts {
			if lit, ok := p.(*syntax.Lit); ok {
				b.WriteString(lit.Value)
			}
		}
		a = staticArg(b.String())
	case rd.Op == syntax.DashHdoc:
		a = resolve(src, rd.Hdoc, heredocTab)
	default:
		a = resolve(src, rd.Hdoc, heredoc)
	}
	if rd.Op == syntax.DashHdoc && !a.dynamic {
		a = staticArg(stripTabs(a.raw, true))
	}
	if a.dynamic {
		a.text = a.raw
	}
	return a
}

// redirects converts a statement's redirections and reports whether a
// file or descriptor target is dynamic (a here-document's body or a
// here-string is data, not a target, and does not count).
func (w *walker) redirects(src source, rs []*syntax.Redirect) ([]Redirect, bool) {
	out := make([]Redirect, 0, len(rs))
	dyn := false
	for _, rd := range rs {
		var target arg
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			target = heredocBody(src, rd)
		case syntax.WordHdoc:
			target = resolve(src, rd.Word, unquoted)
		default:
			target = resolve(src, rd.Word, unquoted)
			dyn = dyn || target.dynamic
		}
		out = append(out, Redirect{Op: rd.Op.String(), Fd: redirFd(rd), Target: target.text})
	}
	return out, dyn
}

// redirFd returns the descriptor a redirection applies to.
func redirFd(rd *syntax.Redirect) int {
	if rd.N != nil {
		if n, err := strconv.Atoi(rd.N.Value); err == nil {
			return n
		}
		return -1 // {var}>file: the shell picks the descriptor
	}
	switch rd.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return 0
	}
	return 1
}

// decl reports a declaration builtin (export, declare, local, readonly,
// typeset, nameref) as a command, then walks its substitutions.
func (w *walker) decl(sc *scope, c *syntax.DeclClause, sl *slot) error {
	args := []arg{staticArg(c.Variant.Value)}
	for _, a := range c.Args {
		args = append(args, assignArg(sc.src, a))
	}
	r := &run{sc: sc, redirs: sc.redirs, redirsDyn: sc.redirsDyn, slot: sl}
	if err := w.emit(r, args, sc.wrappedBy, sc.dynamic, nil); err != nil {
		return err
	}
	return w.assigns(sc, c.Args)
}

// assignArg renders one argument of a declaration: NAME=value, a bare
// name, or an option.
func assignArg(src source, a *syntax.Assign) arg {
	if a.Naked && a.Name == nil {
		return resolve(src, a.Value, unquoted)
	}
	if a.Index != nil || a.Array != nil || (a.Value != nil && resolve(src, a.Value, unquoted).dynamic) {
		text := src.of(a)
		return arg{text: text, raw: text, base: text, dynamic: hasExpansion(a)}
	}
	if a.Naked {
		return staticArg(a.Name.Value)
	}
	op := "="
	if a.Append {
		op = "+="
	}
	return staticArg(a.Name.Value + op + resolve(src, a.Value, unquoted).text)
}

// hasExpansion reports whether anything under n is expanded at run time.
func hasExpansion(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			found = true
		}
		return !found
	})
	return found
}
