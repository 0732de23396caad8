-- A guardrail in Lua: deny a recursive rm of the root or the home
-- directory, however the command line is written. shell.parse finds every
-- command the line would run: through pipes, lists, subshells,
-- substitutions, bash -c and wrappers such as sudo and env.
--
-- Its tests are in guard_test.lua; run them with `hookhost test`.
local shell = require("shell")
local tool = require("tool")

-- Arguments that name everything (see docs/stdlib.md#shell).
local protected = { ["/"] = true, ["/*"] = true, ["~"] = true, ["~/"] = true, ["$HOME"] = true }

hook.on("tool.execute.pre", function(tool_name, params)
  -- tool.kind knows every agent's shell tool (Claude Code's Bash, Gemini
  -- CLI's run_shell_command, PicoClaw's exec, …), and tool.command the
  -- line whatever shape it comes in (Codex's ["bash", "-lc", "…"]).
  if tool.kind(tool_name) ~= "shell" then
    return nil
  end
  local line = tool.command(params)
  if not line then
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
end, {
  name = "no-rm-root",
  priority = 50,
  -- A guard fails closed: should this function raise an error or run out
  -- of time, the default (skip) would let the command run unchecked; deny
  -- blocks it instead, naming this hook and what went wrong.
  error_behavior = "deny",
  timeout_behavior = "deny",
})
