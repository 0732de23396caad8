package shell

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker collects the commands of one Parse call. It and its parser
// belong to that call alone.
type walker struct {
	ctx     context.Context
	parser  *syntax.Parser
	cmds    []Command
	pipes   int // pipeline numbers handed out
	scripts int // nested scripts parsed
	parsed  int // bytes parsed, nested scripts included
	nwords  int // words after brace expansion
	// substCmds maps each command and process substitution walked to the
	// names of the commands it runs, for Command.CodeFrom.
	substCmds map[syntax.Node][]string
	// links are the substitutions whose output each reported command
	// runs as code, resolved into CodeFrom once the walk is over.
	links []link
	// at is where the next command runs (dirs.go); pending where a cd
	// being walked moves the shell. cdFuncs are the shell functions
	// defined so far whose bodies change directory.
	at      where
	pending *where
	cdFuncs map[string]bool
	// cdpath: the line names CDPATH, so a cd to a bare relative name may
	// lead into any directory CDPATH lists (CDPATH=/ cd etc is /etc).
	cdpath bool
	// assigned are the variables the line sets once at its top level to
	// a path known in advance (assigned.go).
	assigned map[string]assignedPath
	// binds says which variables a for loop may bind (assigned.go).
	binds bindings
	// programs are the words the line has made run other programs
	// (renamed.go): "n:NAME" a command name, "f:PATH" a file.
	programs map[string]arg
	// asWritten is set while a command run by such a name is walked as
	// written (renamed.go).
	asWritten bool
}

// A link says that the command at index cmd runs, as code, the output
// of the substitutions nodes.
type link struct {
	cmd   int
	nodes []syntax.Node
}

// A scope is what a list of statements inherits from where it appears.
type scope struct {
	src       source
	depth     int // recursion of the walk
	level     int // scripts deep: 0 for the line itself
	wrappedBy []string
	dynamic   bool       // everything here runs with unknown arguments
	redirs    []Redirect // redirections of enclosing compound commands
	redirsDyn bool       // whether any of them has a dynamic target
	slot      *slot      // non-nil: a lone command here runs in this slot
	holes     []span     // parts of src substituted by an outer shell
	// codeFrom are the substitutions whose output became part of this
	// script's text (bash -c "$(curl …)"): every command here runs it.
	codeFrom   []syntax.Node
	function   string // the function whose body this is, "" outside any
	background bool   // commands here run in the background (&)
	// loopPaths are the variables of the for loops around here that take
	// the names one word lists (for f in *.md): each read as that word's
	// path wherever a command's word starts with it ("$f", "$d/dist").
	loopPaths map[string]PathInfo
}

// A pipeline is numbered when its first command is reported, so that
// numbers have no gaps.
type pipeline struct{ id int }

// A slot is one element of a pipeline.
type slot struct {
	pipe  *pipeline
	index int
	// shared reports that the pipeline has other elements, so that the
	// lone commands of a compound element or of a nested script (curl … |
	// bash -c 'sh') take this slot rather than pipelines of their own.
	shared bool
}

func newSlot() *slot { return &slot{pipe: &pipeline{id: -1}} }

// child returns a scope one level deeper, or ErrTooDeep.
func (sc *scope) child() (*scope, error) {
	if sc.depth >= maxDepth {
		return nil, fmt.Errorf("%w: the syntax tree is more than %d levels deep", ErrTooDeep, maxDepth)
	}
	c := *sc
	c.depth++
	return &c, nil
}

// sub returns the scope of a command substitution, process substitution,
// function body or similar: the same script, a fresh pipeline context.
func (sc *scope) sub() (*scope, error) {
	c, err := sc.child()
	if err != nil {
		return nil, err
	}
	c.redirs, c.redirsDyn, c.slot = nil, false, nil
	return c, nil
}

// within returns the scope inside a compound element in slot sl.
func (sc *scope) within(sl *slot, redirs []Redirect, dyn bool) (*scope, error) {
	c, err := sc.child()
	if err != nil {
		return nil, err
	}
	c.redirs = append(slices.Clip(sc.redirs), redirs...)
	c.redirsDyn = sc.redirsDyn || dyn
	c.slot = nil
	if sl.shared {
		c.slot = sl
	}
	return c, nil
}

// stmts walks a list of statements. Where a cd of one may have failed,
// the next runs there too (statementEnd); after the last, what the list
// is part of decides: its failure is the list's (eval "cd x" && y).
func (w *walker) stmts(sc *scope, list []*syntax.Stmt) error {
	for i, st := range list {
		if i > 0 {
			w.statementEnd()
		}
		if err := w.stmt(sc, st); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) stmt(sc *scope, st *syntax.Stmt) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if st.Background {
		// a background job runs in a process of its own
		return w.isolated(func() error { return w.statement(sc, st) })
	}
	return w.statement(sc, st)
}

// statement walks st, whose background-ness stmt has seen to.
func (w *walker) statement(sc *scope, st *syntax.Stmt) error {
	if st.Background && !sc.background {
		bg := *sc
		bg.background = true
		sc = &bg
	}
	if bin, ok := st.Cmd.(*syntax.BinaryCmd); ok {
		if bin.Op == syntax.Pipe || bin.Op == syntax.PipeAll {
			return w.pipeline(sc, st)
		}
		return w.andOr(sc, st)
	}
	sl := sc.slot
	if sl == nil {
		sl = newSlot()
	}
	return w.element(sc, st, sl)
}

// pipeline walks a | b | c, whose elements share a pipeline number.
func (w *walker) pipeline(sc *scope, st *syntax.Stmt) error {
	p := &pipeline{id: -1}
	for i, el := range operands(st, isPipe) {
		// each element runs in a subshell of its own
		if err := w.isolated(func() error { return w.element(sc, el, &slot{pipe: p, index: i, shared: true}) }); err != nil {
			return err
		}
	}
	return nil
}

// andOr walks a && b || c, whose operands are statements of their own.
// An operand after || runs when what came before failed, so a cd
// before it may not have run: from there on the directory is unknown.
//
// Two cases are known: cd x || y runs y only where cd failed, in the
// directory the line was in; and cd x || exit (or return, or a block
// that ends with one) goes on only where the cd succeeded.
func (w *walker) andOr(sc *scope, st *syntax.Stmt) error {
	entry := w.at
	ors := orsBefore(st)
	list := operands(st, func(op syntax.BinCmdOperator) bool { return !isPipe(op) })
	var succeeded where // where the line is when all before the first || succeeded
	allLeave := true
	for i, el := range list {
		if ors[i] {
			if !slices.Contains(ors[:i], true) {
				succeeded = w.at
			}
			allLeave = allLeave && leaves(el)
			if i == 1 && isCall(list[0]) {
				w.at, w.pending = entry, nil // the lone command before failed
			} else {
				w.unsureSince(entry.dir)
			}
		}
		if err := w.stmt(sc, el); err != nil {
			return err
		}
	}
	switch {
	case !slices.Contains(ors, true):
	case allLeave: // a cd that fails here ends the line
		w.at = succeeded
		w.at.failed = entry.failed
	case w.at.dir != entry.dir || succeeded.dir != entry.dir:
		w.at = where{dir: DirUnknown, errexit: w.at.errexit}
	}
	return nil
}

// isCall reports whether st is one simple command.
func isCall(st *syntax.Stmt) bool {
	_, ok := st.Cmd.(*syntax.CallExpr)
	return ok && !st.Background
}

// leaves reports whether st is exit or return, or a block that ends
// with one, after which the line does not go on.
func leaves(st *syntax.Stmt) bool {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		name := c.Args[0].Lit()
		return name == "exit" || name == "return"
	case *syntax.Block:
		return len(c.Stmts) > 0 && leaves(c.Stmts[len(c.Stmts)-1])
	}
	return false
}

// orsBefore reports, for each operand of the and-or list st (in the
// order operands gives them), whether it follows ||. The parser nests
// the list to the left: the operator before the last operand is st's.
func orsBefore(st *syntax.Stmt) []bool {
	var rev []bool
	for bin, _ := st.Cmd.(*syntax.BinaryCmd); bin != nil && !isPipe(bin.Op); bin, _ = bin.X.Cmd.(*syntax.BinaryCmd) {
		rev = append(rev, bin.Op == syntax.OrStmt)
	}
	out := make([]bool, len(rev)+1)
	for i, or := range rev {
		out[len(rev)-i] = or
	}
	return out
}

func isPipe(op syntax.BinCmdOperator) bool { return op == syntax.Pipe || op == syntax.PipeAll }

// operands flattens a chain of binary commands whose operators satisfy
// keep. The parser nests chains to the left, so following X iteratively
// keeps long chains off the stack.
func operands(st *syntax.Stmt, keep func(syntax.BinCmdOperator) bool) []*syntax.Stmt {
	var rights []*syntax.Stmt
	for {
		bin, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || !keep(bin.Op) {
			break
		}
		rights = append(rights, bin.Y)
		st = bin.X
	}
	out := append(make([]*syntax.Stmt, 0, len(rights)+1), st)
	for i := len(rights) - 1; i >= 0; i-- {
		out = append(out, rights[i])
	}
	return out
}

// element walks one element of a pipeline, which runs in slot sl.
func (w *walker) element(sc *scope, st *syntax.Stmt, sl *slot) error {
	redirs, dyn := w.redirects(sc.src, st.Redirs)
	var err error
	switch cmd := st.Cmd.(type) {
	case nil: // redirections alone: "> file"
		err = w.bare(sc, st, &run{redirs: redirs, redirsDyn: dyn, slot: sl})
	case *syntax.CallExpr:
		err = w.call(sc, st, cmd, &run{redirs: redirs, redirsDyn: dyn, slot: sl, stdinNodes: fdSubsts(sc.src, st.Redirs, 0)})
	default:
		var inner *scope
		if inner, err = sc.within(sl, redirs, dyn); err == nil {
			err = w.compound(inner, cmd, sl)
		}
	}
	if err != nil {
		return err
	}
	return w.redirectWords(sc, st.Redirs)
}

// compound walks a command other than a simple one. sc is the scope
// inside it; sl is the slot the command itself runs in.
func (w *walker) compound(sc *scope, cmd syntax.Command, sl *slot) error {
	switch c := cmd.(type) {
	case *syntax.Subshell:
		return w.isolated(func() error { return w.stmts(sc, c.Stmts) })
	case *syntax.Block:
		return w.stmts(sc, c.Stmts)
	case *syntax.BinaryCmd:
		return w.stmts(sc, []*syntax.Stmt{c.X, c.Y})
	case *syntax.IfClause:
		return w.ifClause(sc, c)
	case *syntax.WhileClause:
		return w.loop(func() error { return w.lists(sc, c.Cond, c.Do) })
	case *syntax.ForClause:
		return w.loop(func() error { return w.forClause(sc, c) })
	case *syntax.CaseClause:
		return w.caseClause(sc, c)
	case *syntax.FuncDecl:
		return w.funcBody(sc, c)
	case *syntax.TestDecl:
		if err := w.words(sc, c.Description); err != nil {
			return err
		}
		return w.body(sc, c.Body)
	case *syntax.ArithmCmd:
		return w.arithm(sc, c.X, 0)
	case *syntax.TestClause:
		return w.test(sc, c.X, 0)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			if err := w.arithm(sc, x, 0); err != nil {
				return err
			}
		}
		return nil
	case *syntax.DeclClause:
		return w.decl(sc, c, sl)
	case *syntax.TimeClause:
		return w.timeClause(sc, c)
	case *syntax.CoprocClause:
		if err := w.words(sc, c.Name); err != nil {
			return err
		}
		return w.body(sc, c.Stmt)
	}
	return nil
}

// lists walks several statement lists in order.
func (w *walker) lists(sc *scope, lists ...[]*syntax.Stmt) error {
	for _, l := range lists {
		if err := w.stmts(sc, l); err != nil {
			return err
		}
	}
	return nil
}

// ifClause walks if/elif/else; a branch after a cd in an earlier one,
// and what follows the clause, run where the line cannot tell.
func (w *walker) ifClause(sc *scope, c *syntax.IfClause) error {
	entry := w.at.dir
	for ; c != nil; c = c.Else {
		w.unsureSince(entry)
		if err := w.lists(sc, c.Cond, c.Then); err != nil {
			return err
		}
	}
	w.unsureSince(entry)
	return nil
}

func (w *walker) forClause(sc *scope, c *syntax.ForClause) error {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if err := w.words(sc, l.Items...); err != nil {
			return err
		}
		if len(l.Items) == 1 && l.Name != nil && sc.level == 0 && w.binds.canBind(l.Name.Value) &&
			!strings.ContainsAny(sc.src.of(l.Items[0]), "{ \t\n\\'\"") {
			// for f in GLOB: $f is one of the names GLOB matches, which
			// is what a guard needs to know of the paths made of it (a
			// word that brace-expands, or holds quoted or escaped white
			// space, is several words or splits: not bound)
			if p := wordPath(sc.src, l.Items[0]); !p.Dynamic {
				inner := *sc
				inner.loopPaths = maps.Clone(sc.loopPaths)
				if inner.loopPaths == nil {
					inner.loopPaths = map[string]PathInfo{}
				}
				inner.loopPaths[l.Name.Value] = p
				return w.stmts(&inner, c.Do)
			}
		}
	case *syntax.CStyleLoop:
		for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
			if err := w.arithm(sc, x, 0); err != nil {
				return err
			}
		}
	}
	return w.stmts(sc, c.Do)
}

func (w *walker) caseClause(sc *scope, c *syntax.CaseClause) error {
	if err := w.words(sc, c.Word); err != nil {
		return err
	}
	entry := w.at.dir
	for _, item := range c.Items {
		w.unsureSince(entry) // only one branch runs
		if err := w.words(sc, item.Patterns...); err != nil {
			return err
		}
		if err := w.stmts(sc, item.Stmts); err != nil {
			return err
		}
	}
	w.unsureSince(entry)
	return nil
}

// body walks a function body or coprocess, which runs apart from the
// pipeline and redirections around its definition.
func (w *walker) body(sc *scope, st *syntax.Stmt) error {
	inner, err := sc.sub()
	if err != nil || st == nil {
		return err
	}
	return w.isolated(func() error { return w.stmt(inner, st) })
}

// funcBody walks a function's body: its commands are reported with the
// function's name, and not in the background unless the body says so.
func (w *walker) funcBody(sc *scope, c *syntax.FuncDecl) error {
	inner, err := sc.sub()
	if err != nil || c.Body == nil {
		return err
	}
	inner.background = false
	if c.Name != nil {
		inner.function = c.Name.Value
	}
	// The body runs when the function is called, not here; a call of a
	// function whose body changes directory leaves it unknown.
	entry := w.at.dir
	return w.isolated(func() error {
		err := w.stmt(inner, c.Body)
		if w.at.dir != entry && c.Name != nil {
			if w.cdFuncs == nil {
				w.cdFuncs = map[string]bool{}
			}
			w.cdFuncs[c.Name.Value] = true
		}
		return err
	})
}

// timeClause walks "time cmd": cmd is reported wrapped by "time".
func (w *walker) timeClause(sc *scope, c *syntax.TimeClause) error {
	if c.Stmt == nil {
		return nil
	}
	sc.wrappedBy = append(slices.Clip(sc.wrappedBy), "time")
	return w.stmt(sc, c.Stmt)
}

// fdSubsts returns the substitutions in a statement's input redirections
// of descriptor fd (0: standard input): < <(curl …), 3< <(curl …),
// <<< "$(curl …)" and unquoted here-documents.
func fdSubsts(src source, rs []*syntax.Redirect, fd int) []syntax.Node {
	var out []syntax.Node
	for _, rd := range rs {
		if redirFd(rd) != fd {
			continue
		}
		switch rd.Op {
		case syntax.RdrIn, syntax.WordHdoc:
			out = append(out, resolve(src, rd.Word, unquoted).substs...)
		case syntax.Hdoc, syntax.DashHdoc:
			if rd.Hdoc != nil && !isQuoted(rd.Word) {
				out = append(out, substsIn(rd.Hdoc)...)
			}
		}
	}
	return out
}
