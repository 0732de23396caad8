-- A guardrail in Lua: deny a recursive rm of the root or the home
-- directory, however the command line is written. shell.parse finds every
-- command the line would run: through pipes, lists, subshells,
-- substitutions, bash -c and wrappers such as sudo and env.
--
-- Its tests are in guard_test.lua; run them with `hookhost test`.
local shell = require("shell")

-- Arguments that name everything (see docs/stdlib.md#shell).
local protected = { ["/"] = true, ["/*"] = true, ["~"] = true, ["~/"] = true, ["$HOME"] = true }

-- The shell tools of the common agents, lower-case: Claude Code and Codex
-- say "Bash", Gemini CLI "run_shell_command", PicoClaw "exec".
local shell_tools = { bash = true, run_shell_command = true, exec = true, shell = true }

hook.on("tool.execute.pre", function(tool_name, params)
  if type(tool_name) ~= "string" or not shell_tools[tool_name:lower()] then
    return nil
  end
  local line = type(params) == "table" and params.command
  if type(line) ~= "string" then
    return nil
  end
  local ok, cmds = pcall(shell.parse, line)
  if not ok then -- fail closed: a line nobody can read is not run
    return hook.deny("cannot read the command line: " .. tostring(cmds))
  end
  for _, cmd in ipairs(cmds) do
    if cmd.name == "rm" and shell.has_flag(cmd, "r", "recursive") then
      for i = 2, #cmd.argv do
        if protected[cmd.argv[i]] then
          return hook.deny("refusing to delete " .. cmd.argv[i] .. " recursively")
        end
      end
    end
  end
end, { name = "no-rm-root", priority = 50 })
