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
  if #line > shell.max_line_bytes then
    -- The parser reads at most 16 KiB, a bound on the work one check may
    -- do. A long here-document is legitimate: ask, do not refuse.
    return hook.ask(("the command is %d bytes, more than the %d the guard reads; run it unchecked?")
      :format(#line, shell.max_line_bytes))
  end
  local ok, cmds = pcall(shell.parse, line)
  if not ok then -- a line the guard cannot read is asked about, never let through
    return hook.ask("cannot read the command line (" .. tostring(cmds) .. "); run it unchecked?")
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
