-- Script tests for the tool module.
local tool = require("tool")
local expect = require("expect")

-- kind: one name per agent's shell tool, case-insensitive
for _, name in ipairs({ "Bash", "bash", "run_shell_command", "exec", "shell", "Shell", "powershell" }) do
  expect.eq(tool.kind(name), "shell", name)
end
expect.eq(tool.kind("Write"), "write")
expect.eq(tool.kind("write_file"), "write")
expect.eq(tool.kind("MultiEdit"), "edit")
expect.eq(tool.kind("replace"), "edit")
expect.eq(tool.kind("apply_patch"), "patch")
expect.eq(tool.kind("read_file"), "read")
expect.eq(tool.kind("WebFetch"), "fetch")
expect.eq(tool.kind("google_web_search"), "search")
expect.eq(tool.kind("mcp__github__create_issue"), "mcp")
expect.eq(tool.kind("mcp_github_create_issue"), "mcp")
expect.eq(tool.kind("MCP:create_issue"), "mcp")
expect.eq(tool.kind("frobnicate"), "other")
expect.eq(tool.kind(nil), "other")

-- kind with a pack's settings
local config = { shell_tools = { "run_tests" }, other_tools = { "Bash" }, protected = { "/data" } }
expect.eq(tool.kind("Run_Tests", config), "shell")
expect.eq(tool.kind("Bash", config), "other")
expect.eq(tool.kind("Bash", {}), "shell")
expect.fails(function() return tool.kind("x", { shell_tools = 3 }) end, "shell_tools: want a list of tool names")
expect.fails(function() return tool.kind("x", { shell_tools = { "a" }, read_tools = { "A" } }) end,
  "listed in both shell_tools and read_tools")
expect.fails(function() return tool.kind(42) end, "argument 1 (tool_name): want string")

-- command: every shape a shell call comes in
expect.eq(tool.command({ command = "rm -rf /" }), "rm -rf /")
expect.eq(tool.command({ command = { "bash", "-lc", "make test" } }), "make test")
expect.eq(tool.command({ command = { "git", "commit", "-m", "a b" } }), "git commit -m 'a b'")
expect.eq(tool.command({ cmd = "ls" }), "ls")
expect.eq(tool.command({ content = "pwd", args = {}, kwargs = {} }), "pwd")
expect.eq(tool.command('{"command": "npm test"}'), "npm test")
expect.eq(tool.command({ file_path = "/a" }), nil)
expect.eq(tool.command({}), nil)
expect.eq(tool.command(nil), nil)
expect.eq(tool.command({ command = "*** Begin Patch\n*** Add File: a\n*** End Patch" }), nil)
expect.fails(function() return tool.command({ command = { "rm", {} } }) end, "command[2]: want a string")

-- paths
expect.eq(tool.paths("Write", { file_path = "src/a.go" }, "/w"), { "/w/src/a.go" })
expect.eq(tool.paths("Write", { file_path = "src/a.go" }), { "src/a.go" })
expect.eq(tool.paths("read_file", { absolute_path = "/etc/passwd" }, "/w"), { "/etc/passwd" })
expect.eq(tool.paths("MultiEdit", { file_path = "/w/a", edits = { { old_string = "x", new_string = "y" } } }), { "/w/a" })
expect.eq(tool.paths("apply_patch",
  { command = "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n*** Delete File: c\n*** End Patch\n" }, "/w"),
  { "/w/a.go", "/w/b.go", "/w/c" })
expect.eq(tool.paths("save", { content = "x", args = { "notes.md" }, kwargs = {} }, "/w"), { "/w/notes.md" })
expect.eq(tool.paths("Bash", { command = "cat /etc/passwd" }, "/w"), {})
expect.eq(tool.paths("Write", nil, "/w"), {})
expect.eq(tool.paths("save_notes", { args = { "n" }, content = "" }, "/w", { write_tools = { "save_notes" } }), { "/w/n" })
expect.fails(function() return tool.paths("Write", {}, "w") end, "argument 3 (cwd): want an absolute path")

-- mcp
expect.eq(tool.mcp("mcp__github__create_issue"), { server = "github", tool = "create_issue" })
expect.eq(tool.mcp("Bash"), nil)
expect.eq(tool.mcp(nil), nil)

-- shell: which shell runs a shell tool's lines
expect.eq(tool.shell("powershell"), "powershell")
expect.eq(tool.shell("PowerShell"), "powershell")
expect.eq(tool.shell("Bash"), "sh")
expect.eq(tool.shell("run_shell_command"), "sh")
expect.eq(tool.shell("Write"), nil)
expect.eq(tool.shell("frobnicate"), nil)
expect.eq(tool.shell(nil), nil)
expect.eq(tool.shell("run_tests", { shell_tools = { "run_tests" } }), "sh")
expect.eq(tool.shell("powershell", { other_tools = { "powershell" } }), nil)
expect.fails(function() return tool.shell("x", { shell_tools = 1 }) end, "shell_tools: want a list of tool names")

-- typed into a running session: Codex's write_stdin, Copilot's write_bash
expect.eq(tool.kind("write_stdin"), "shell")
expect.eq(tool.kind("write_bash"), "shell")
expect.eq(tool.command({ session_id = 1, chars = "rm -rf /\n" }), "rm -rf /\n")
expect.eq(tool.command({ sessionId = "s", input = "rm -rf /{enter}" }), "rm -rf /\n")

-- dir: the directory a shell call runs in, under each agent's key
expect.eq(tool.dir({ command = "ls", workdir = "/w/sub" }), "/w/sub")
expect.eq(tool.dir({ command = { "bash", "-lc", "ls" }, working_directory = "sub" }), "sub")
expect.eq(tool.dir({ command = "ls", dir_path = ".claude" }), ".claude")
expect.eq(tool.dir({ command = "ls", directory = "old" }), "old")
expect.eq(tool.dir({ command = "ls", cwd = "/w/x" }), "/w/x")
expect.eq(tool.dir({ command = "ls" }), nil)
expect.eq(tool.dir({ command = "ls", workdir = "" }), nil)
expect.eq(tool.dir('{"command": "ls", "dir_path": "b"}'), "b")
expect.eq(tool.dir(nil), nil)
