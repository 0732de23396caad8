package tool

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// New returns the tool module. Its table is built once here; the module
// holds no other state and is safe for concurrent use.
func New() stdlib.Module {
	t := newTable(Agents())
	ps := powerShellTools(Agents())
	opt := stdlib.Opt // every parameter may be missing: a missing tool name is an unknown one ("other")
	return stdlib.Module{
		Name: "tool",
		Doc:  "what an agent's tool call is, whatever the agent calls its tools",
		Funcs: []stdlib.Func{
			{Name: "kind", Params: []stdlib.Param{opt("tool_name"), opt("config")}, Impl: t.kindFunc,
				Doc: `the kind of the tool: "shell", "write", "edit", "patch", "read", "fetch", "search", "mcp" or "other"`},
			{Name: "shell", Params: []stdlib.Param{opt("tool_name"), opt("config")}, Impl: func(c *stdlib.Call) (any, error) { return t.shellFunc(c, ps) },
				Doc: `the shell a shell tool's lines are for: "powershell" or "sh"; nil for a tool that is not a shell`},
			{Name: "command", Params: []stdlib.Param{opt("params")}, Impl: command,
				Doc: "the shell line a shell call runs (an argv list unwrapped or quoted), or nil"},
			{Name: "dir", Params: []stdlib.Param{opt("params")}, Impl: dir,
				Doc: "the directory a shell call's params say it runs in (workdir, working_directory, dir_path, directory, cwd), or nil"},
			{Name: "paths", Params: []stdlib.Param{opt("tool_name"), opt("params"), opt("cwd"), opt("config")}, Impl: t.pathsFunc,
				Doc: "the files a call writes or reads, absolute when cwd is given"},
			{Name: "mcp", Params: []stdlib.Param{opt("tool_name")}, Impl: mcpFunc,
				Doc: "{server, tool} of an MCP tool's name, or nil"},
		},
	}
}

// A table maps lower-cased tool names to their kinds.
type table map[string]string

func newTable(agents []Agent) table {
	t := table{}
	for _, a := range agents {
		for kind, names := range a.Tools {
			for _, n := range names {
				t[strings.ToLower(n)] = kind
			}
		}
	}
	return t
}

// kind returns the kind of name: the operator's extra names first, then
// the table, then the MCP naming schemes, else Other.
func (t table) kind(name string, extra map[string]string) string {
	lower := strings.ToLower(name)
	if k, ok := extra[lower]; ok {
		return k
	}
	if k, ok := t[lower]; ok {
		return k
	}
	if splitMCP(name) != nil {
		return MCP
	}
	return Other
}

// settingKeys are the settings that extend the table: "<kind>_tools",
// in the order of Kinds.
var settingKeys = func() []string {
	keys := make([]string, len(Kinds))
	for i, k := range Kinds {
		keys[i] = k + "_tools"
	}
	return keys
}()

// extraKinds reads the operator's additions to the table from a pack's
// settings: a list of names under "<kind>_tools" for each kind
// (shell_tools, write_tools, …, other_tools). Other keys are the pack's
// own settings and are ignored. A name listed under two kinds is an
// error, and so is a value that is not a name or a list of names: a
// setting the guard cannot use must not be ignored quietly.
func extraKinds(c *stdlib.Call, arg int) (map[string]string, error) {
	if !c.Present(arg) {
		return nil, nil
	}
	config, err := c.Map(arg)
	if err != nil {
		return nil, err
	}
	var extra map[string]string
	for i, kind := range Kinds {
		key := settingKeys[i]
		v, ok := config[key]
		if !ok || v == nil {
			continue
		}
		var names []any
		switch v := v.(type) {
		case string:
			names = []any{v}
		case []any:
			names = v
		case map[string]any:
			if len(v) != 0 {
				return nil, fmt.Errorf("argument %d (config): %s: want a list of tool names, got map", arg+1, key)
			}
		default:
			return nil, fmt.Errorf("argument %d (config): %s: want a list of tool names, got %s", arg+1, key, stdlib.TypeName(v))
		}
		for j, n := range names {
			s, ok := n.(string)
			if !ok {
				return nil, fmt.Errorf("argument %d (config): %s[%d]: want a tool name, got %s", arg+1, key, j+1, stdlib.TypeName(n))
			}
			lower := strings.ToLower(s)
			if extra == nil {
				extra = map[string]string{}
			}
			if prev, dup := extra[lower]; dup && prev != kind {
				return nil, fmt.Errorf("argument %d (config): tool %q is listed in both %s_tools and %s", arg+1, s, prev, key)
			}
			extra[lower] = kind
		}
	}
	return extra, nil
}

func (t table) kindFunc(c *stdlib.Call) (any, error) {
	name, err := c.OptString(0, "")
	if err != nil {
		return nil, err
	}
	extra, err := extraKinds(c, 1)
	if err != nil {
		return nil, err
	}
	return t.kind(name, extra), nil
}

// powerShellTools are the lower-cased names of the shell tools whose
// lines are PowerShell's.
func powerShellTools(agents []Agent) map[string]bool {
	out := map[string]bool{}
	for _, a := range agents {
		for _, n := range a.PowerShell {
			out[strings.ToLower(n)] = true
		}
	}
	return out
}

// shellFunc says which shell runs a shell tool's lines: "powershell"
// for the tools the table marks, "sh" for every other one of kind
// shell (the operator's shell_tools too), nil for the rest.
func (t table) shellFunc(c *stdlib.Call, powerShell map[string]bool) (any, error) {
	name, err := c.OptString(0, "")
	if err != nil {
		return nil, err
	}
	extra, err := extraKinds(c, 1)
	if err != nil {
		return nil, err
	}
	if t.kind(name, extra) != Shell {
		return nil, nil
	}
	if powerShell[strings.ToLower(name)] {
		return "powershell", nil
	}
	return "sh", nil
}

// An mcpName is an MCP tool's name taken apart.
type mcpName struct{ server, tool string }

// splitMCP takes apart the names agents give MCP tools:
// mcp__server__tool (Claude Code, Codex), mcp_server_tool (Gemini CLI,
// PicoClaw; split at the first underscore after mcp_, since either part
// may hold more), MCP:tool (Cursor, which names no server) and
// server/tool (Copilot CLI at permissionRequest). Copilot's server-tool
// is recognised by kind only when the name is not in the table, and is
// split at its first hyphen.
func splitMCP(name string) *mcpName {
	lower := strings.ToLower(name)
	switch {
	case strings.HasPrefix(lower, "mcp__"):
		rest := name[len("mcp__"):]
		if server, tool, ok := strings.Cut(rest, "__"); ok && server != "" && tool != "" {
			return &mcpName{server, tool}
		}
		if rest != "" {
			return &mcpName{rest, ""}
		}
	case strings.HasPrefix(lower, "mcp_"):
		rest := name[len("mcp_"):]
		if server, tool, ok := strings.Cut(rest, "_"); ok && server != "" && tool != "" {
			return &mcpName{server, tool}
		}
	case strings.HasPrefix(lower, "mcp:"):
		if tool := strings.TrimSpace(name[len("mcp:"):]); tool != "" {
			return &mcpName{"", tool}
		}
	case strings.Contains(name, "/"):
		if server, tool, ok := strings.Cut(name, "/"); ok && server != "" && tool != "" && !strings.Contains(tool, "/") {
			return &mcpName{server, tool}
		}
	case strings.Contains(name, "-"):
		if server, tool, ok := strings.Cut(name, "-"); ok && server != "" && tool != "" {
			return &mcpName{server, tool}
		}
	}
	return nil
}

func mcpFunc(c *stdlib.Call) (any, error) {
	name, err := c.OptString(0, "")
	if err != nil {
		return nil, err
	}
	m := splitMCP(name)
	if m == nil {
		return nil, nil
	}
	return map[string]any{"server": m.server, "tool": m.tool}, nil
}

// names returns the names of one kind in a row, sorted as written.
func (a Agent) names(kind string) []string {
	out := append([]string(nil), a.Tools[kind]...)
	sort.Strings(out)
	return out
}
