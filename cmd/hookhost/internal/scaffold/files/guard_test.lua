-- Tests of guard.lua. Each global function named test_... is a test: it
-- fires events through the real hooks of this directory with hook.fire
-- and checks the results with the expect module. Run them with
-- `hookhost test` (docs/testing.md).
local expect = require("expect")

-- bash fires the event Claude Code's Bash tool would.
local function bash(command)
  return hook.fire("tool.execute.pre", {
    tool_name = "Bash", params = { command = command }, cwd = "/work/project",
  })
end

function test_denies_rm_of_root()
  local r = bash("rm -rf /")
  expect.action(r, "deny")
  expect.reason_contains(r, "/")
  expect.hook(r, "guard.lua:no-rm-root")
end

function test_sees_through_sudo_and_lists()
  expect.action(bash("cd /tmp && sudo rm -r -f ~"), "deny")
  expect.action(bash("bash -c 'rm --recursive /'"), "deny")
end

function test_lets_ordinary_deletes_through()
  expect.action(bash("rm -rf ./build"), "continue")
  expect.action(bash("rm /tmp/scratch.txt"), "continue")
end

function test_data_is_not_a_command()
  expect.action(bash('echo "rm -rf /"'), "continue")
  expect.action(bash("grep -r 'rm -rf /' docs"), "continue")
end

function test_other_tools_are_not_shell()
  local r = hook.fire("tool.execute.pre", { tool_name = "Read", params = { file_path = "/" } })
  expect.action(r, "continue")
  expect.ran(r, "guard.lua:no-rm-root")
end

function test_every_agents_shell_tool()
  -- Codex's shell tool sends an argv list; Gemini CLI says run_shell_command.
  local r = hook.fire("tool.execute.pre", {
    tool_name = "shell", params = { command = { "bash", "-lc", "rm -rf ~" } }, cwd = "/work/project",
  })
  expect.action(r, "deny")
  r = hook.fire("tool.execute.pre", { tool_name = "run_shell_command", params = { command = "sudo rm -r /" } })
  expect.action(r, "deny")
  expect.action(hook.fire("tool.execute.pre", { tool_name = "Bash", params = {} }), "continue")
end

function test_asks_about_what_it_cannot_read()
  -- over the parser's 16 KiB: a long here-document asks, it is not refused
  local long = "cat > notes.txt <<'EOF'\n" .. string.rep("a line of notes\n", 1100) .. "EOF"
  local r = bash(long)
  expect.action(r, "ask")
  expect.reason_contains(r, "bytes")
  expect.action(bash("echo ((("), "ask")
end
