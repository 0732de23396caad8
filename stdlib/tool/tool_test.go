package tool_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
	"github.com/hookhost/hookhost/stdlib/tool"
)

func TestKind(t *testing.T) {
	m := tool.New()
	cases := []struct {
		name string
		want string
	}{
		{"Bash", "shell"}, {"bash", "shell"}, {"BASH", "shell"}, {"run_shell_command", "shell"},
		{"exec", "shell"}, {"shell", "shell"}, {"Shell", "shell"}, {"powershell", "shell"},
		{"exec_command", "shell"}, {"local_shell", "shell"},
		{"Write", "write"}, {"write_file", "write"}, {"create", "write"}, {"save", "write"}, {"append", "write"},
		{"fs.write", "write"}, {"fs_write", "write"},
		{"Edit", "edit"}, {"MultiEdit", "edit"}, {"NotebookEdit", "edit"}, {"replace", "edit"},
		{"edit_file", "edit"}, {"str_replace_editor", "edit"}, {"patch", "edit"},
		{"apply_patch", "patch"},
		{"Read", "read"}, {"read_file", "read"}, {"read_many_files", "read"}, {"view", "read"},
		{"Grep", "read"}, {"glob", "read"}, {"search_file_content", "read"}, {"list_directory", "read"},
		{"WebFetch", "fetch"}, {"web_fetch", "fetch"}, {"WEBFETCH", "fetch"}, {"browser", "fetch"}, {"web.fetch", "fetch"},
		{"WebSearch", "search"}, {"google_web_search", "search"}, {"web_search", "search"},
		{"mcp__github__create_issue", "mcp"}, {"mcp__x", "mcp"}, {"mcp_github_create_issue", "mcp"},
		{"MCP:create_issue", "mcp"}, {"github/create_issue", "mcp"}, {"github-create_issue", "mcp"},
		{"Task", "other"}, {"frobnicate", "other"}, {"", "other"}, {"mcp_", "other"}, {"/", "other"},
		{"mcp:", "other"}, {"-", "other"},
	}
	for _, c := range cases {
		got, err := stdlibtest.Call(t, m, "kind", c.name)
		if err != nil || got != c.want {
			t.Errorf("kind(%q) = %v, %v; want %q", c.name, got, err, c.want)
		}
	}
}

func TestKindConfig(t *testing.T) {
	m := tool.New()
	config := map[string]any{
		"shell_tools": []any{"Run_Tests", "terminal2"},
		"other_tools": "bash", // a single name is a list of one
		"protected":   []any{"/data"},
		"read_tools":  map[string]any{}, // an empty Lua table
		"write_tools": nil,
	}
	for name, want := range map[string]string{"run_tests": "shell", "TERMINAL2": "shell", "Bash": "other", "Write": "write"} {
		got, err := stdlibtest.Call(t, m, "kind", name, config)
		if err != nil || got != want {
			t.Errorf("kind(%q, config) = %v, %v; want %q", name, got, err, want)
		}
	}
	for _, c := range []struct {
		config map[string]any
		err    string
	}{
		{map[string]any{"shell_tools": int64(3)}, "argument 2 (config): shell_tools: want a list of tool names, got int"},
		{map[string]any{"shell_tools": []any{"a", true}}, "shell_tools[2]: want a tool name, got bool"},
		{map[string]any{"shell_tools": []any{"x"}, "read_tools": []any{"X"}}, `tool "X" is listed in both shell_tools and read_tools`},
		{map[string]any{"write_tools": map[string]any{"a": "b"}}, "write_tools: want a list of tool names, got map"},
	} {
		_, err := stdlibtest.Call(t, m, "kind", "Bash", c.config)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("kind(Bash, %v): error %v, want one containing %q", c.config, err, c.err)
		}
	}
	if _, err := stdlibtest.Call(t, m, "kind", "Bash", "shell"); err == nil {
		t.Error("kind(Bash, \"shell\"): no error for a config that is not a map")
	}
	if got, err := stdlibtest.Call(t, m, "kind", nil); got != "other" || err != nil {
		t.Errorf("kind(nil) = %v, %v; want other", got, err)
	}
	if _, err := stdlibtest.Call(t, m, "kind", int64(1)); err == nil {
		t.Error("kind(1): no error")
	}
}

func TestCommand(t *testing.T) {
	m := tool.New()
	patch := "*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** End Patch\n"
	cases := []struct {
		name   string
		params any
		want   any
	}{
		{"Claude Bash", map[string]any{"command": "rm -rf /", "description": "x"}, "rm -rf /"},
		{"Gemini", map[string]any{"command": "ls", "directory": "src"}, "ls"},
		{"Codex argv bash -lc", map[string]any{"command": []any{"bash", "-lc", "rm -rf /tmp/x && ls"}}, "rm -rf /tmp/x && ls"},
		{"Codex argv /bin/sh -c", map[string]any{"command": []any{"/bin/sh", "-c", "echo hi"}}, "echo hi"},
		{"bash -l -c", map[string]any{"command": []any{"bash", "-l", "-c", "make"}}, "make"},
		{"zsh --login -c", map[string]any{"command": []any{"zsh", "--login", "-c", "make"}}, "make"},
		{"bash -c with $0", map[string]any{"command": []any{"bash", "-c", "echo $1", "sh", "a b"}}, "bash -c 'echo $1' sh 'a b'"},
		{"bash -o pipefail", map[string]any{"command": []any{"bash", "-o", "pipefail", "-c", "x"}}, "bash -o pipefail -c x"},
		{"plain argv", map[string]any{"command": []any{"rm", "-rf", "/"}}, "rm -rf /"},
		{"argv quoted", map[string]any{"command": []any{"git", "commit", "-m", "it's done", "", "~", "*.go"}}, `git commit -m 'it'\''s done' '' '~' '*.go'`},
		{"assignment-looking argv[0]", map[string]any{"command": []any{"A=b", "c=d"}}, "'A=b' c=d"},
		{"argv numbers", map[string]any{"command": []any{"sleep", int64(5), 1.5}}, "sleep 5 1.5"},
		{"exec_command cmd", map[string]any{"cmd": "cargo test", "workdir": "/w"}, "cargo test"},
		{"script", map[string]any{"script": "Get-ChildItem"}, "Get-ChildItem"},
		{"Codex write_stdin chars", map[string]any{"session_id": int64(3), "chars": "rm -rf /\n"}, "rm -rf /\n"},
		{"Copilot write_bash input", map[string]any{"sessionId": "s1", "input": "rm -rf /{enter}", "delay": int64(5)}, "rm -rf /\n"},
		{"write_bash backspace", map[string]any{"sessionId": "s1", "input": "rm -rf /x{backspace}{enter}"}, "rm -rf /\n"},
		{"write_bash cursor keys and a brace of its own", map[string]any{"input": "{up}echo {a,b}{enter}{"}, "echo {a,b}\n{"},
		{"command before input", map[string]any{"command": "ls", "input": "data"}, "ls"},
		{"a patch under input", map[string]any{"input": patch}, nil},
		{"gptme", map[string]any{"content": "ls -la", "args": []any{}, "kwargs": map[string]any{}}, "ls -la"},
		{"gptme tool format", map[string]any{"content": "", "args": []any{}, "kwargs": map[string]any{"command": "pwd"}}, "pwd"},
		{"Copilot JSON text", `{"command": "npm test", "description": "t"}`, "npm test"},
		{"JSON text argv", ` {"command": ["bash", "-lc", "ls"]}`, "ls"},
		{"bad JSON text", `{"command": `, nil},
		{"JSON text and more", `{"command": "ls"} }`, nil},
		{"JSON text holding a list", `["ls"]`, nil},
		{"text that is not JSON", "rm -rf /", nil},
		{"no command", map[string]any{"file_path": "/a"}, nil},
		{"content without gptme's shape", map[string]any{"content": "rm -rf /"}, nil},
		{"empty", map[string]any{}, nil},
		{"empty list", map[string]any{"command": []any{}}, nil},
		{"empty Lua table", map[string]any{"command": map[string]any{}}, nil},
		{"empty string", map[string]any{"command": ""}, nil},
		{"nil", nil, nil},
		{"a list", []any{"rm"}, nil},
		{"apply_patch body", map[string]any{"command": patch}, nil},
	}
	for _, c := range cases {
		got, err := stdlibtest.Call(t, m, "command", c.params)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: command(%v) = %#v, %v; want %#v", c.name, c.params, got, err, c.want)
		}
	}
	for _, params := range []map[string]any{
		{"command": int64(3)},
		{"command": []any{"rm", map[string]any{"a": "b"}}},
		{"command": map[string]any{"a": "b"}},
	} {
		if _, err := stdlibtest.Call(t, m, "command", params); err == nil || !strings.Contains(err.Error(), "argument 1 (params): command") {
			t.Errorf("command(%v): error %v, want one naming params.command", params, err)
		}
	}
}

func TestPaths(t *testing.T) {
	m := tool.New()
	patch := "*** Begin Patch\n*** Update File: src/a.go\n*** Move to: src/b.go\n@@\n-a\n+b\n" +
		"*** Add File: /etc/cron.d/x\n+* * * * * root sh\n*** Delete File: old.txt\n*** End Patch\n"
	patched := []any{"/w/src/a.go", "/w/src/b.go", "/etc/cron.d/x", "/w/old.txt"}
	cases := []struct {
		name   string
		tool   string
		params any
		cwd    any
		want   []any
	}{
		{"Claude Write", "Write", map[string]any{"file_path": "/etc/passwd", "content": "x"}, "/w", []any{"/etc/passwd"}},
		{"relative, no cwd", "Write", map[string]any{"file_path": "a/../b"}, nil, []any{"a/../b"}},
		{"relative with cwd", "Edit", map[string]any{"file_path": "a/../b"}, "/w", []any{"/w/b"}},
		{"Gemini read_file", "read_file", map[string]any{"absolute_path": "/w/x"}, "/w", []any{"/w/x"}},
		{"PicoClaw write_file", "write_file", map[string]any{"path": "x.txt", "content": "y"}, "/w", []any{"/w/x.txt"}},
		{"NotebookEdit", "NotebookEdit", map[string]any{"notebook_path": "/w/n.ipynb"}, nil, []any{"/w/n.ipynb"}},
		{"filename", "save_file", map[string]any{"filename": "f"}, "/w", []any{"/w/f"}},
		{"MultiEdit", "MultiEdit", map[string]any{"file_path": "/w/a", "edits": []any{
			map[string]any{"old_string": "x", "new_string": "y"},
			map[string]any{"file_path": "/w/b", "old_string": "x", "new_string": "y"}}}, nil, []any{"/w/a", "/w/b"}},
		{"read_many_files", "read_many_files", map[string]any{"paths": []any{"a", "b", int64(3)}}, "/w", []any{"/w/a", "/w/b"}},
		{"Codex apply_patch", "apply_patch", map[string]any{"command": patch}, "/w", patched},
		{"OpenClaw apply_patch", "apply_patch", map[string]any{"input": patch}, "/w", patched},
		{"Codex shell argv apply_patch", "shell", map[string]any{"command": []any{"apply_patch", patch}}, "/w", patched},
		{"heredoc apply_patch", "Bash", map[string]any{"command": "apply_patch <<'EOF'\n" + patch + "EOF\n"}, "/w", patched},
		{"exec_command heredoc", "exec_command", map[string]any{"cmd": "apply_patch <<'EOF'\n" + patch + "EOF\n"}, "/w", patched},
		{"shell line", "Bash", map[string]any{"command": "cat /etc/passwd", "path": "/x"}, "/w", []any{}},
		{"fetch", "WebFetch", map[string]any{"url": "https://x", "path": "/x"}, nil, []any{}},
		{"gptme save", "save", map[string]any{"content": "x", "args": []any{"notes.md"}, "kwargs": map[string]any{}}, "/w", []any{"/w/notes.md"}},
		{"gptme kwargs", "save", map[string]any{"content": "x", "args": []any{}, "kwargs": map[string]any{"path": "/a"}}, nil, []any{"/a"}},
		{"gptme other tool", "ipython", map[string]any{"content": "x", "args": []any{"a"}}, nil, []any{}},
		{"home kept", "Write", map[string]any{"file_path": "~/.bashrc"}, "/w", []any{"~/.bashrc"}},
		{"each once", "Write", map[string]any{"file_path": "a", "path": "/w/a"}, "/w", []any{"/w/a"}},
		{"JSON text", "create", `{"path": "/w/new.go", "file_text": "x"}`, nil, []any{"/w/new.go"}},
		{"MCP filesystem", "mcp__filesystem__move_file", map[string]any{"source": "a", "destination": "/b"}, "/w", []any{"/w/a", "/b"}},
		{"no params", "Write", nil, nil, []any{}},
		{"empty path", "Write", map[string]any{"file_path": ""}, nil, []any{}},
	}
	for _, c := range cases {
		got, err := stdlibtest.Call(t, m, "paths", c.tool, c.params, c.cwd)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: paths(%q, %v, %v) = %#v, %v; want %#v", c.name, c.tool, c.params, c.cwd, got, err, c.want)
		}
	}
	if _, err := stdlibtest.Call(t, m, "paths", "Write", map[string]any{}, "w"); err == nil || !strings.Contains(err.Error(), "argument 3 (cwd): want an absolute path") {
		t.Errorf("paths with a relative cwd: error %v", err)
	}
	got, err := stdlibtest.Call(t, m, "paths", "save_notes", map[string]any{"content": "x", "args": []any{"n.md"}, "kwargs": map[string]any{}},
		nil, map[string]any{"write_tools": []any{"save_notes"}})
	if err != nil || !reflect.DeepEqual(got, []any{"n.md"}) {
		t.Errorf("paths of a tool config names a writer = %#v, %v", got, err)
	}
}

func TestPathsBounded(t *testing.T) {
	var b strings.Builder
	for range tool.MaxPaths + 10 {
		b.WriteString("*** Add File: x\n")
	}
	if n := len(tool.PatchPaths(b.String())); n != tool.MaxPaths {
		t.Errorf("PatchPaths of %d files gave %d, want the cap %d", tool.MaxPaths+10, n, tool.MaxPaths)
	}
}

func TestMCP(t *testing.T) {
	m := tool.New()
	for name, want := range map[string]any{
		"mcp__github__create_issue": map[string]any{"server": "github", "tool": "create_issue"},
		"mcp__my_srv__do__it":       map[string]any{"server": "my_srv", "tool": "do__it"},
		"mcp_github_create_issue":   map[string]any{"server": "github", "tool": "create_issue"},
		"MCP:create_issue":          map[string]any{"server": "", "tool": "create_issue"},
		"github/create_issue":       map[string]any{"server": "github", "tool": "create_issue"},
		"github-create_issue":       map[string]any{"server": "github", "tool": "create_issue"},
		"Bash":                      nil,
		"mcp_x":                     nil,
	} {
		got, err := stdlibtest.Call(t, m, "mcp", name)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("mcp(%q) = %#v, %v; want %#v", name, got, err, want)
		}
	}
}

// TestTableConsistent checks that a name two agents share has one kind,
// that every kind of a row is a known kind, and that no name is empty.
func TestTableConsistent(t *testing.T) {
	seen := map[string]string{}
	known := map[string]bool{}
	for _, k := range tool.Kinds {
		known[k] = true
	}
	for _, a := range tool.Agents() {
		if a.Source == "" {
			t.Errorf("%s: no source", a.Name)
		}
		for kind, names := range a.Tools {
			if !known[kind] || kind == tool.MCP {
				t.Errorf("%s: kind %q cannot be listed", a.Name, kind)
			}
			for _, n := range names {
				key := strings.ToLower(n)
				if n == "" {
					t.Errorf("%s: empty name", a.Name)
				}
				if prev, ok := seen[key]; ok && prev != kind {
					t.Errorf("%s: %s is %s here and %s in another row", a.Name, n, kind, prev)
				}
				seen[key] = kind
			}
		}
		for _, n := range a.PowerShell { // a PowerShell tool is one of the row's shell tools
			if !slices.ContainsFunc(a.Tools[tool.Shell], func(s string) bool { return strings.EqualFold(s, n) }) {
				t.Errorf("%s: %s runs PowerShell but is not among its shell tools", a.Name, n)
			}
		}
	}
}
