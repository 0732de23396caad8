package tool

// The kinds of tool call, in documentation order.
const (
	Shell  = "shell"  // runs a shell line
	Write  = "write"  // creates or overwrites a file with content it is given
	Edit   = "edit"   // changes part of an existing file
	Patch  = "patch"  // applies a patch whose body names the files it changes
	Read   = "read"   // reads, lists or searches local files
	Fetch  = "fetch"  // fetches a URL
	Search = "search" // searches the web
	MCP    = "mcp"    // a tool of an MCP server
	Other  = "other"  // anything else, including every unknown name
)

// Kinds lists the kinds in documentation order.
var Kinds = []string{Shell, Write, Edit, Patch, Read, Fetch, Search, MCP, Other}

// An Agent is one row of the table: the built-in tools of one agent
// hookhost speaks to, by kind. Names are matched case-insensitively; a
// name missing here is "other".
type Agent struct {
	Name string
	// Source says where the names were read, for whoever updates them.
	Source string
	Tools  map[string][]string
	// PowerShell names the shell tools whose lines PowerShell runs, not
	// a POSIX shell (tool.shell): C:\Windows is a path there, and the
	// backtick, not the backslash, escapes.
	PowerShell []string
}

// Agents is the table. Every agent hookhost speaks to has a row; a name
// that two agents share has the same kind in both (a test checks it).
// The rows are the only place the names live: kind, paths and the
// table in docs/stdlib.md are all derived from them.
func Agents() []Agent {
	return []Agent{
		claudeCode(),
		codexCLI(),
		geminiCLI(),
		picoClaw(),
		gptme(),
		bub(),
		openClaw(),
		cursor(),
		copilotCLI(),
		mcpFilesystem(),
		otherNames(),
	}
}

// The rows follow, one function each in the order above, so that an
// agent's names read (and change) together.

func claudeCode() Agent {
	return Agent{Name: "Claude Code",
		Source: "Claude Code's tool reference (docs.anthropic.com, tools available to Claude) and its hook payloads",
		Tools: map[string][]string{
			Shell: {"Bash"},
			Write: {"Write"},
			Edit:  {"Edit", "MultiEdit", "NotebookEdit"},
			Read:  {"Read", "NotebookRead", "Grep", "Glob", "LS"},
			Fetch: {"WebFetch"}, Search: {"WebSearch"},
			Other: {"Task", "TodoWrite", "BashOutput", "KillShell", "ExitPlanMode", "SlashCommand"},
		}}
}

func codexCLI() Agent {
	return Agent{Name: "Codex CLI",
		Source: "Codex's hook payloads (Bash with a string command, apply_patch with the patch as command) and its model tools (shell with an argv list, exec_command, local_shell, shell_command; write_stdin types chars into an exec_command session)",
		Tools: map[string][]string{
			Shell:  {"Bash", "shell", "exec_command", "local_shell", "shell_command", "container.exec", "write_stdin"},
			Patch:  {"apply_patch"},
			Read:   {"view_image"},
			Search: {"web_search"},
			Other:  {"update_plan"},
		}}
}

func geminiCLI() Agent {
	return Agent{Name: "Gemini CLI",
		Source: "gemini-cli packages/core/src/tools (each tool's Name)",
		Tools: map[string][]string{
			Shell: {"run_shell_command"},
			Write: {"write_file"},
			Edit:  {"replace"},
			Read:  {"read_file", "read_many_files", "glob", "search_file_content", "grep_search", "list_directory"},
			Fetch: {"web_fetch"}, Search: {"google_web_search"},
			Other: {"save_memory", "write_todos"},
		}}
}

func picoClaw() Agent {
	return Agent{Name: "PicoClaw",
		Source: "sipeed/picoclaw pkg/tools (each tool's Name(); MCP tools are mcp_<server>_<tool>)",
		Tools: map[string][]string{
			Shell: {"exec"},
			Write: {"write_file", "append_file"},
			Edit:  {"edit_file"},
			Read:  {"read_file", "list_dir"},
			Fetch: {"web_fetch"}, Search: {"web_search"},
			Other: {"spawn", "subagent", "cron", "message", "send_file"},
		}}
}

func gptme() Agent {
	return Agent{Name: "gptme",
		Source: "gptme/gptme gptme/tools (each ToolSpec's name); the bridge sends {content, args, kwargs}",
		Tools: map[string][]string{
			Shell: {"shell"},
			Write: {"save", "append"},
			Edit:  {"patch", "morph", "hashline_edit", "patch_anchored"},
			Patch: {"patch_many"},
			Read:  {"read", "view_anchored"},
			Fetch: {"browser"},
			Other: {"ipython", "tmux", "gh", "computer", "subagent", "todo", "complete"},
		}}
}

func bub() Agent {
	return Agent{Name: "bub",
		Source: "bubbuild/bub src/bub/builtin/tools.py (the model sees dots as underscores: fs.read is fs_read)",
		Tools: map[string][]string{
			Shell: {"bash"},
			Write: {"fs.write", "fs_write"},
			Edit:  {"fs.edit", "fs_edit"},
			Read:  {"fs.read", "fs_read"},
			Fetch: {"web.fetch", "web_fetch"},
			Other: {"bash.output", "bash_output", "bash.kill", "bash_kill", "subagent", "skill"},
		}}
}

func openClaw() Agent {
	return Agent{Name: "OpenClaw",
		Source: "OpenClaw's tool documentation (docs.openclaw.ai/tools: group:fs, group:runtime, group:web)",
		Tools: map[string][]string{
			Shell: {"exec"},
			Write: {"write"},
			Edit:  {"edit"},
			Patch: {"apply_patch"},
			Read:  {"read"},
			Fetch: {"web_fetch"}, Search: {"web_search"},
			Other: {"process", "browser_action", "canvas", "nodes", "message"},
		}}
}

func cursor() Agent {
	return Agent{Name: "Cursor",
		Source: "Cursor's hook payloads (preToolUse tool_name; MCP tools as MCP:<tool>)",
		Tools: map[string][]string{
			Shell: {"Shell"},
			Write: {"Write"},
			Read:  {"Read", "Grep"},
			Other: {"Task"},
		}}
}

func copilotCLI() Agent {
	return Agent{Name: "Copilot CLI",
		Source: "@github/copilot 1.0.63 app.js (preToolUse toolName; MCP tools as server-tool, server/tool at permissionRequest; write_bash types input into a bash session)",
		Tools: map[string][]string{
			Shell: {"bash", "powershell", "write_bash"},
			Write: {"create"},
			Edit:  {"edit", "str_replace_editor"},
			Patch: {"apply_patch"},
			Read:  {"view", "grep", "glob"},
			Fetch: {"web_fetch"},
			Other: {"task", "read_bash", "stop_bash", "list_bash", "store_memory", "report_intent", "update_todo"},
		},
		PowerShell: []string{"powershell"}}
}

func mcpFilesystem() Agent {
	return Agent{Name: "MCP filesystem server",
		Source: "modelcontextprotocol/servers src/filesystem: the tool after the server in mcp__filesystem__write_file (see tool.mcp)",
		Tools: map[string][]string{
			Write: {"write_file", "create_directory", "move_file"},
			Edit:  {"edit_file"},
			Read:  {"read_file", "read_text_file", "read_media_file", "read_multiple_files", "list_directory", "list_directory_with_sizes", "directory_tree", "search_files", "get_file_info", "list_allowed_directories"},
		}}
}

func otherNames() Agent {
	return Agent{Name: "other names",
		Source: "names other agents give the same tools (Cline, Roo, Windsurf, Anthropic's text editor tool), which the shipped packs have always accepted",
		Tools: map[string][]string{
			Shell:  {"sh", "run_command", "execute_command", "terminal"},
			Write:  {"write_to_file", "create_file", "delete_file", "remove_file", "rename_file", "copy_file"},
			Edit:   {"edit_file", "replace_in_file", "str_replace_based_edit_tool", "notebook_edit", "insert", "str_replace"},
			Read:   {"cat", "open_file", "list_files", "list_dir", "search_files", "file_search", "codebase_search", "find_files"},
			Fetch:  {"fetch", "fetch_url", "read_url", "http_get"},
			Search: {"websearch"},
		}}
}
