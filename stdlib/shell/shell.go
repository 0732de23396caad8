package shell

import (
	"context"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A Command is one simple command that a line would run.
type Command struct {
	// Name is the base name of Argv[0] ("rm" for /bin/rm). For a dynamic
	// Argv[0] it is the static part after the last slash ("rm" for
	// $HOME/bin/rm), or Argv[0] itself when there is none.
	Name string
	// Argv is the command and its arguments after quote removal and
	// brace expansion, with wrappers stripped. A dynamic word appears as
	// its source text, exactly as written.
	Argv []string
	// WrappedBy lists the wrappers the command runs under, outermost
	// first ("sudo", "env", "bash" for bash -c, "time", …). Never nil.
	WrappedBy []string
	// Redirects lists the command's redirections, its own first, then
	// those of enclosing compound commands and wrappers. Never nil.
	Redirects []Redirect
	// Pipeline numbers the pipelines of the line from 0, in the order in
	// which their first command is reported; a lone command is a pipeline
	// of its own.
	Pipeline int
	// Position is the command's 0-based place in its pipeline: anything
	// above 0 reads the output of the element before it.
	Position int
	// Dynamic reports that the command cannot be known statically: a word
	// of Argv or a redirection target holds a variable, a ~, a glob or a
	// substitution, or the command runs under xargs or find -exec, or in
	// a script (bash -c "$X") that is itself dynamic.
	Dynamic bool
}

// A Redirect is one redirection of a command.
type Redirect struct {
	// Op is the operator as written: ">", ">>", "<", "<>", ">&", "<&",
	// ">|", "&>", "&>>", "<<", "<<-" or "<<<".
	Op string
	// Fd is the file descriptor redirected: the number written before the
	// operator, else 0 for input operators and 1 for output ones (and
	// for &> and &>>, which redirect 2 as well); -1 for {var}> forms.
	Fd int
	// Target is the file or descriptor after quote removal (as written
	// when dynamic), the here-string's text for <<<, and the body of a
	// here-document for << and <<-.
	Target string
}

// Parse returns the simple commands line would run, in source order. It
// fails when the line does not parse, exceeds a limit (see MaxLineBytes
// and the other limits), or ctx is done.
func Parse(ctx context.Context, line string) ([]Command, error) {
	if err := checkText(line); err != nil {
		return nil, err
	}
	w := &walker{ctx: ctx, parser: newParser(), parsed: len(line)}
	f, err := w.parser.Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, err
	}
	if err := w.stmts(&scope{src: source(line)}, f.Stmts); err != nil {
		return nil, err
	}
	if w.cmds == nil {
		return []Command{}, nil
	}
	return w.cmds, nil
}

// newParser returns a bash parser. A Parser is not safe for concurrent
// use, so each Parse or Split call makes its own.
func newParser() *syntax.Parser { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }

// HasFlag reports whether the command passes the flag: see the package
// HasFlag function.
func (c Command) HasFlag(short, long string) bool { return HasFlag(c.Argv, short, long) }

// Value returns the command as a neutral value, the map scripts receive:
// name, argv, wrapped_by, redirects (maps of op, fd, target), pipeline,
// position and dynamic. Numbers are int64.
func (c Command) Value() map[string]any {
	redirs := make([]any, len(c.Redirects))
	for i, r := range c.Redirects {
		redirs[i] = map[string]any{"op": r.Op, "fd": int64(r.Fd), "target": r.Target}
	}
	return map[string]any{
		"name":       c.Name,
		"argv":       stringList(c.Argv),
		"wrapped_by": stringList(c.WrappedBy),
		"redirects":  redirs,
		"pipeline":   int64(c.Pipeline),
		"position":   int64(c.Position),
		"dynamic":    c.Dynamic,
	}
}

// Values converts commands to the neutral list Parse's binding returns.
func Values(cmds []Command) []any {
	out := make([]any, len(cmds))
	for i, c := range cmds {
		out[i] = c.Value()
	}
	return out
}

func stringList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// String renders the command for test failures and logs.
func (c Command) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q", c.Argv)
	if len(c.WrappedBy) > 0 {
		fmt.Fprintf(&b, " wrapped_by=%q", c.WrappedBy)
	}
	for _, r := range c.Redirects {
		fmt.Fprintf(&b, " %d%s%q", r.Fd, r.Op, r.Target)
	}
	fmt.Fprintf(&b, " @%d.%d", c.Pipeline, c.Position)
	if c.Dynamic {
		b.WriteString(" dynamic")
	}
	return b.String()
}
