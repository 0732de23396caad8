-- Refuse shell commands that would destroy the machine or the user's home:
-- rm -rf of /, ~ or everything, find / -delete, mkfs, dd onto a disk,
-- chmod/chown -R of /, and piping a download into a shell. The command is
-- parsed (shell module), so quoting, wrappers (sudo, env, bash -c …) and
-- compound lines (cd / && rm -fr *) do not hide it.
--
-- ctx.config.tools: tool names whose params.command is a shell line
-- (default bash, shell, sh, exec). ctx.config.protected: more paths
-- treated like / (for example /data).
local shell = require("shell")

local DEFAULT_TOOLS = { bash = true, shell = true, sh = true, exec = true, run_command = true }
local ROOTS = { ["/"] = true, ["/*"] = true, ["~"] = true, ["~/"] = true, ["~/*"] = true,
                ["*"] = true, ["."] = true, ["./"] = true, ["./*"] = true, [".."] = true,
                ["$HOME"] = true, ["${HOME}"] = true, ["$HOME/"] = true, ["$HOME/*"] = true }
local SYSTEM = { "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/root",
                 "/sbin", "/srv", "/usr", "/var" }

local function protected(target, extra)
  target = target:gsub('"', "")
  local t = target:gsub("/+$", "")
  if t == "" then t = "/" end
  if ROOTS[target] or ROOTS[t] then return true end
  for _, p in ipairs(SYSTEM) do
    if t == p or t == p .. "/*" then return true end
  end
  for _, p in ipairs(extra) do
    if t == p or t == p .. "/*" then return true end
  end
  return false
end

-- operands returns the arguments of argv that are not flags.
local function operands(argv)
  local out, ended = {}, false
  for i = 2, #argv do
    local a = argv[i]
    if ended or a:sub(1, 1) ~= "-" or a == "-" then
      out[#out + 1] = a
    elseif a == "--" then
      ended = true
    end
  end
  return out
end

local function hits(cmd, extra)
  local name = cmd.name
  if name == "rm" then
    local recursive = shell.has_flag(cmd, "r", "recursive") or shell.has_flag(cmd, "R", "")
    if recursive then
      for _, target in ipairs(operands(cmd.argv)) do
        if protected(target, extra) then
          return "rm -r of " .. target
        end
        if cmd.dynamic and target:find("[$`~*?]") then
          return "rm -r of " .. target .. ", which cannot be known before it runs", "ask"
        end
      end
    end
  elseif name == "find" then
    local args = table.concat(cmd.argv, " ")
    if cmd.argv[2] and protected(cmd.argv[2], extra)
       and (args:find(" -delete", 1, true) or args:find(" -exec rm", 1, true)) then
      return "find " .. cmd.argv[2] .. " deleting files"
    end
  elseif name:sub(1, 4) == "mkfs" or name == "wipefs" then
    return name .. " formats a disk"
  elseif name == "dd" then
    for i = 2, #cmd.argv do
      if cmd.argv[i]:sub(1, 8) == "of=/dev/" and cmd.argv[i] ~= "of=/dev/null" then
        return "dd onto " .. cmd.argv[i]:sub(4)
      end
    end
  elseif name == "chmod" or name == "chown" or name == "chgrp" then
    if shell.has_flag(cmd, "R", "recursive") then
      for _, target in ipairs(operands(cmd.argv)) do
        if protected(target, extra) then return name .. " -R of " .. target end
      end
    end
  end
  return nil
end

-- piped reports a download piped into a shell: curl … | sh.
local function piped(cmds)
  local fetch = {}
  for _, c in ipairs(cmds) do
    if c.name == "curl" or c.name == "wget" then fetch[c.pipeline] = true end
  end
  for _, c in ipairs(cmds) do
    local n = c.name
    if c.position > 0 and fetch[c.pipeline] and (n == "sh" or n == "bash" or n == "zsh" or n == "python" or n == "python3") then
      return "a download piped into " .. n
    end
  end
  return nil
end

hook.on("tool.execute.pre", function(tool_name, params, ctx)
  local tools = ctx.config.tools
  local known = DEFAULT_TOOLS
  if tools then
    known = {}
    for _, t in ipairs(tools) do known[t] = true end
  end
  if not known[tool_name] or type(params) ~= "table" or type(params.command) ~= "string" then
    return nil
  end
  local ok, cmds = pcall(shell.parse, params.command)
  if not ok then
    return hook.ask("the command could not be checked (" .. tostring(cmds) .. "); run it anyway?",
      { title = "Unchecked shell command", severity = "medium" })
  end
  local extra = ctx.config.protected or {}
  local unsure
  for _, cmd in ipairs(cmds) do
    local why, how = hits(cmd, extra)
    if why and how == "ask" then
      unsure = unsure or why
    elseif why then
      return hook.deny("refusing a destructive command: " .. why)
    end
  end
  local why = piped(cmds)
  if why then
    return hook.deny("refusing to run " .. why)
  end
  if unsure then
    return hook.ask("possibly destructive: " .. unsure, { title = "Check this command", severity = "high" })
  end
end, { name = "no-destructive-commands", priority = 100, timeout = "250ms" })
