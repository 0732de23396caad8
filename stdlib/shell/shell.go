package shell

import (
	"context"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookhost/hookhost/stdlib"
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
	// Paths holds each word of Argv read as a path, normalised (see
	// PathInfo): Paths[i] is Argv[i]'s. Never nil.
	Paths []PathInfo
	// Roles holds what the program does with each word of Argv (see
	// Roles and the Role constants): Roles[i] is Argv[i]'s. A pattern,
	// a filter, a script or data is not a path. Never nil.
	Roles []string
	// Function is the name of the shell function whose body holds the
	// command, "" outside any: in `f(){ f|f& };f` both inner calls have
	// Function "f".
	Function string
	// Background reports that the command runs asynchronously: it, or
	// the pipeline or list it is in, ends with &.
	Background bool
	// CodeFrom names the commands whose output this command runs as
	// code: for a shell or interpreter reading its script from a pipe
	// (curl … | sh), the commands before it in the pipeline; for one
	// given a process substitution as its script (bash <(curl …)), the
	// commands in it; for every command of a script whose text holds a
	// substitution (sh -c "$(curl …)", eval "$(wget -qO- …)"), the
	// commands in the substitution. Never nil.
	CodeFrom []string
	// Lang is the language of the code the command runs, for a shell or
	// interpreter reported itself: "sh", "python", "perl", "ruby",
	// "node", "php" or "lua"; "" for any other command.
	Lang string
	// Code is the code an interpreter runs given on its command line
	// (python -c, perl -e, node -e, …) or in a here-document or
	// here-string; "" when it runs a file or reads a pipe.
	Code string
	// Dir is the directory the command runs in as far as the line says,
	// relative to where the line starts: "" there, else where the cd,
	// pushd and popd before it in the same shell lead ("/tmp",
	// "build/out", "~", ".."), or DirUnknown ("?") where the line cannot
	// tell (see dirs.go: subshells, pipeline elements, substitutions and
	// nested shells keep their cd to themselves).
	Dir string
	// AltDirs are where else the command runs when a cd before it
	// failed and the line went on (cd /tmp/gone; rm -rf * runs in the
	// line's directory, ""), in the same form as Dir. Never nil.
	AltDirs []string
	// Calls are the calls in Code that delete files or run commands
	// (see CodeCalls). The commands that "shell" calls with a literal
	// command line and "exec" calls run are reported too, wrapped by
	// the interpreter. Never nil.
	Calls []Call
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
	w := &walker{ctx: ctx, parser: newParser(), parsed: len(line), cdpath: strings.Contains(line, "CDPATH")}
	f, err := w.parser.Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, err
	}
	w.assigned, w.binds = lineAssignments(f, source(line))
	if err := w.stmts(&scope{src: source(line)}, f.Stmts); err != nil {
		return nil, err
	}
	w.resolveLinks()
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
// position, dynamic, paths (maps of path, prefix, glob, dynamic), roles,
// in_function, background, code_from, lang, code, calls (maps of kind,
// func, args, paths, recursive, dynamic), dir and alt_dirs. Numbers are
// int64.
func (c Command) Value() map[string]any { return c.record().Map() }

// commandKeys are the keys of a command's record (Value lists them).
var commandKeys = stdlib.NewRecordKeys("name", "argv", "wrapped_by", "redirects", "pipeline", "position",
	"dynamic", "paths", "roles", "in_function", "background", "code_from", "lang", "code", "calls", "dir",
	"alt_dirs")

// redirectKeys are the keys of a redirection's record.
var redirectKeys = stdlib.NewRecordKeys("op", "fd", "target")

// record is the command as the Record engines convert (one home for the
// keys and values Value returns).
func (c Command) record() stdlib.Record {
	redirs := make([]any, len(c.Redirects))
	for i, r := range c.Redirects {
		redirs[i] = stdlib.Record{Keys: redirectKeys, Values: []any{int64(r.Fd), r.Op, r.Target}} // fd, op, target
	}
	paths := make([]any, len(c.Paths))
	for i, p := range c.Paths {
		paths[i] = p.record()
	}
	// in the order of commandKeys (byte order); TestRecordKeys checks it
	return stdlib.Record{Keys: commandKeys, Values: []any{
		stringList(c.AltDirs),   // alt_dirs
		stringList(c.Argv),      // argv
		c.Background,            // background
		callRecords(c.Calls),    // calls
		c.Code,                  // code
		stringList(c.CodeFrom),  // code_from
		c.Dir,                   // dir
		c.Dynamic,               // dynamic
		c.Function,              // in_function
		c.Lang,                  // lang
		c.Name,                  // name
		paths,                   // paths
		int64(c.Pipeline),       // pipeline
		int64(c.Position),       // position
		redirs,                  // redirects
		stringList(c.Roles),     // roles
		stringList(c.WrappedBy), // wrapped_by
	}}
}

// CallValues converts calls to the neutral list scripts receive.
func CallValues(calls []Call) []any { return stdlib.Plain(callRecords(calls)).([]any) }

func callRecords(calls []Call) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		out[i] = c.record()
	}
	return out
}

// Values converts commands to neutral values: the list of maps that
// Parse's binding (which returns Records) stands for.
func Values(cmds []Command) []any { return stdlib.Plain(Records(cmds)).([]any) }

// Records converts commands to what Parse's binding returns: Values'
// maps as stdlib.Records, which engines convert without the maps.
func Records(cmds []Command) []any {
	out := make([]any, len(cmds))
	for i, c := range cmds {
		out[i] = c.record()
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
