package shell

import (
	"errors"
	"fmt"

	"github.com/hookhost/hookhost/stdlib"
)

// New returns the shell module: parse, split, has_flag and code_calls
// over neutral values. It keeps the commands of the last few lines parse
// read (see parseCache) and is safe for concurrent use.
func New() stdlib.Module {
	parses := &parseCache{}
	return stdlib.Module{
		Name: "shell",
		Doc:  "Parse shell command lines into the simple commands they would run.",
		// max_line_bytes is the longest line parse reads: a guard can
		// tell a line over it from one that does not parse. copiers are
		// the programs whose copies parse follows (a guard that judges
		// copying a program's file needs the same list).
		// windows_shells are the programs that start PowerShell or
		// cmd.exe, whose lines parse reads as PowerShell, each with which
		// of the two it starts.
		// shells are the programs whose -c argument or standard input is
		// a shell script, as parse reads them.
		Consts: map[string]any{"max_line_bytes": int64(MaxLineBytes), "copiers": copierNames(), "shells": shellNames(),
			"windows_shells": windowsShellConst()},
		Funcs: []stdlib.Func{
			{
				Name:   "parse",
				Params: []stdlib.Param{stdlib.P("line")},
				Doc:    "parse(line) returns the simple commands line would run, in source order.",
				Impl:   parses.parseImpl,
			},
			{
				Name:   "salvage",
				Params: []stdlib.Param{stdlib.P("line")},
				Doc:    "salvage(line) returns {commands, unparsed}: the commands of the parts of a line that parse, for a line that does not parse whole.",
				Impl:   parses.salvageImpl,
			},
			{
				Name:   "powershell",
				Params: []stdlib.Param{stdlib.P("line")},
				Doc:    "powershell(line) rewrites a PowerShell line as the POSIX shell line that runs the same commands on the same paths, for parse.",
				Impl:   powershellImpl,
			},
			{
				Name:   "split",
				Params: []stdlib.Param{stdlib.P("line")},
				Doc:    "split(line) returns the shell words of line, after quote removal.",
				Impl:   splitImpl,
			},
			{
				Name:   "has_flag",
				Params: []stdlib.Param{stdlib.P("cmd"), stdlib.Opt("short"), stdlib.Opt("long")},
				Doc:    "has_flag(cmd, short, long) reports whether a parsed command (or an argv list) passes a flag.",
				Impl:   hasFlagImpl,
			},
			{
				Name:   "roles",
				Params: []stdlib.Param{stdlib.P("argv")},
				Doc:    "roles(argv) returns the role of each word of an argv list (or a parsed command's argv), as parse gives them: for a command a guard builds itself.",
				Impl:   rolesImpl,
			},
			{
				Name:   "code_calls",
				Params: []stdlib.Param{stdlib.P("lang"), stdlib.P("code")},
				Doc:    "code_calls(lang, code) returns the calls in a python, perl, ruby, node, php or lua program that delete files or run commands.",
				Impl:   codeCallsImpl,
			},
		},
	}
}

// Records are built anew for each call of parse and salvage: what a
// script is given is its own, and the cached commands are never handed
// out.

func (p *parseCache) parseImpl(c *stdlib.Call) (any, error) {
	line, err := c.String(0)
	if err != nil {
		return nil, err
	}
	cmds, err := p.parse(c.Context, line)
	if err != nil {
		return nil, err
	}
	return Records(cmds), nil
}

// salvageImpl is Salvage, with the parse of a line that parses whole
// shared with parse (the shipped packs salvage and parse the same line).
func (p *parseCache) salvageImpl(c *stdlib.Call) (any, error) {
	line, err := c.String(0)
	if err != nil {
		return nil, err
	}
	var cmds []Command
	unparsed := []string{}
	if len(line) > MaxLineBytes {
		cmds, unparsed, err = Salvage(c.Context, line) // its error for a line too long
	} else if cmds, err = p.parse(c.Context, line); err != nil {
		cmds, unparsed, err = salvageParts(c.Context, line)
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"commands": Records(cmds), "unparsed": stringList(unparsed)}, nil
}

func codeCallsImpl(c *stdlib.Call) (any, error) {
	lang, err := c.String(0)
	if err != nil {
		return nil, err
	}
	code, err := c.String(1)
	if err != nil {
		return nil, err
	}
	calls, err := CodeCalls(lang, code)
	if err != nil {
		return nil, err
	}
	return callRecords(calls), nil
}

func powershellImpl(c *stdlib.Call) (any, error) {
	line, err := c.String(0)
	if err != nil {
		return nil, err
	}
	if len(line) > MaxLineBytes { // what parse would refuse; the rewriting is linear
		return nil, fmt.Errorf("%w: %d bytes (the limit is %d)", ErrTooLong, len(line), MaxLineBytes)
	}
	return PowerShell(line), nil
}

func splitImpl(c *stdlib.Call) (any, error) {
	line, err := c.String(0)
	if err != nil {
		return nil, err
	}
	words, err := Split(line)
	if err != nil {
		return nil, err
	}
	return stringList(words), nil
}

func hasFlagImpl(c *stdlib.Call) (any, error) {
	argv, err := argvOf(c.Any(0))
	if err != nil {
		return nil, fmt.Errorf("argument 1 (cmd): %w", err)
	}
	short, err := c.OptString(1, "")
	if err != nil {
		return nil, err
	}
	long, err := c.OptString(2, "")
	if err != nil {
		return nil, err
	}
	if err := checkFlags(short, long); err != nil {
		return nil, err
	}
	return HasFlag(argv, short, long), nil
}

func rolesImpl(c *stdlib.Call) (any, error) {
	argv, err := argvOf(c.Any(0))
	if err != nil {
		return nil, fmt.Errorf("argument 1 (argv): %w", err)
	}
	roles := Roles(argv)
	out := make([]any, len(roles))
	for i, r := range roles {
		out[i] = r
	}
	return out, nil
}

// checkFlags rejects flag names that could never match, which are
// mistakes in a guard rather than answers.
func checkFlags(short, long string) error {
	s := []rune(trimDash(short, 1))
	switch {
	case short == "" && long == "":
		return errors.New("want a short or a long flag, got neither")
	case short != "" && len(s) != 1:
		return fmt.Errorf("argument 2 (short): want one character such as \"r\" or \"-r\", got %q", short)
	case long != "" && trimDash(long, 2) == "":
		return fmt.Errorf("argument 3 (long): want a name such as \"recursive\", got %q", long)
	}
	return nil
}

// argvOf reads has_flag's first argument: a command map as parse returns
// it, or an argv list.
func argvOf(v any) ([]string, error) {
	if m, ok := v.(map[string]any); ok && len(m) > 0 { // an empty Lua table is an empty list
		list, ok := m["argv"]
		if !ok {
			return nil, errors.New("want a command from shell.parse (a map with argv) or an argv list, got a map without argv")
		}
		v = list
	}
	var list []any
	switch l := v.(type) {
	case []any:
		list = l
	case map[string]any:
		if len(l) > 0 {
			return nil, errors.New("argv: want a list, got a map")
		}
	default:
		return nil, fmt.Errorf("want a command from shell.parse or an argv list, got %s", stdlib.TypeName(v))
	}
	argv := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("argv[%d]: want string, got %s", i, stdlib.TypeName(e))
		}
		argv[i] = s
	}
	return argv, nil
}
