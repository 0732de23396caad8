-- Ask before an agent changes its own hook settings or the guardrails
-- that watch it: .claude/settings.json and settings.local.json,
-- .gemini/settings.json, ~/.codex/hooks.json and config.toml,
-- hookhost.yaml, any file under a hooks.d directory (or under
-- ctx.config.hooks_dir), and hookhost's own caches (events-v1.json and
-- programs-v1/ in the user's cache directory). An agent that could edit them could switch its
-- guardrails off. It looks at write and edit tool calls, file.save.pre
-- (which cannot ask, so it denies), and shell commands that write: a
-- redirection onto such a file, an editor or file tool run on one (sed
-- -i, tee, cp, mv, rm, ln, touch, chmod, vim, …), and interpreter code
-- that deletes one. Reading them passes.
--
-- Settings (ctx.config): see HOOK.md, which holds their defaults.
local shell = require("shell")
local path = require("path")

local SHELL_TOOLS = { "bash", "run_shell_command", "exec", "shell", "sh", "run_command",
                      "execute_command", "local_shell", "terminal", "shell_command" }
local WRITE_TOOLS = { "write", "edit", "multiedit", "write_file", "replace", "edit_file", "append_file",
                      "save", "patch", "append", "apply_patch", "create_file", "str_replace_editor", "str_replace_based_edit_tool",
                      "notebookedit" }
local PATH_KEYS = { "file_path", "path", "absolute_path", "filename", "notebook_path" }

-- Commands that change the files named among their operands. For cp,
-- install and rsync only the last operand, the destination, counts.
local WRITERS = { tee = true, cp = "last", mv = true, rm = true, ln = "last", install = "last",
                  rsync = "last", truncate = true, touch = true, chmod = true, chown = true,
                  unlink = true, shred = true, patch = true, ed = true, ex = true, vi = true, vim = true,
                  nvim = true, nano = true, emacs = true, code = true }

local SETTINGS = {
  { "/%.claude/settings%.json$", "Claude Code's settings" },
  { "/%.claude/settings%.local%.json$", "Claude Code's settings" },
  { "/%.gemini/settings%.json$", "Gemini CLI's settings" },
  { "/%.codex/hooks%.json$", "Codex's hooks" },
  { "/%.codex/config%.toml$", "Codex's settings" },
  { "/hookhost%.ya?ml$", "hookhost's configuration" },
  { "/hooks%.d/", "the guardrails (hooks.d)" },
  -- A command hook trusts its caches: a forged event cache hides a file's
  -- hooks, a forged compiled program replaces them.
  { "/hookhost/events%-v%d+%.json$", "hookhost's event cache" },
  { "/hookhost/programs%-v%d+/", "hookhost's compiled-program cache" },
}

local function lower_set(defaults, extra)
  local set = {}
  for _, n in ipairs(defaults) do set[n:lower()] = true end
  if type(extra) == "table" then
    for _, n in ipairs(extra) do
      if type(n) == "string" then set[n:lower()] = true end
    end
  end
  return set
end

-- protected says what a path is, when it is one of the protected files.
local function protected(p, ctx, cwd)
  if type(p) ~= "string" or p == "" then return nil end
  local clean = path.clean(p)
  if type(cwd) == "string" and cwd:sub(1, 1) == "/" and clean:sub(1, 1) ~= "/" and clean:sub(1, 1) ~= "~" then
    clean = path.abs(clean, cwd)
  end
  local padded = "/" .. clean
  for _, s in ipairs(SETTINGS) do
    if padded:find(s[1]) then return s[2] .. " (" .. p .. ")" end
  end
  local dir = ctx.config.hooks_dir
  if type(dir) == "string" and dir:sub(1, 1) == "/" and clean:sub(1, 1) == "/" and path.is_within(dir, clean) then
    return "the guardrails (" .. p .. ")"
  end
  if type(ctx.config.protect) == "table" then
    for _, pat in ipairs(ctx.config.protect) do
      if type(pat) == "string" and (clean:match("^" .. pat .. "$") or p:match("^" .. pat .. "$")) then
        return "a protected file (" .. p .. ")"
      end
    end
  end
end

local function command_of(params)
  if type(params) ~= "table" then return nil end
  local c = params.command or params.cmd
  if type(c) == "string" then return c end
  if type(c) ~= "table" or #c == 0 then return nil end
  local words = {}
  for i, w in ipairs(c) do
    if type(w) ~= "string" then return nil end
    words[i] = "'" .. w:gsub("'", [['\'']]) .. "'"
  end
  return table.concat(words, " ")
end

local function operand_paths(cmd)
  local out, ended = {}, false
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    if ended or a:sub(1, 1) ~= "-" then
      out[#out + 1] = cmd.paths[i].path
    elseif a == "--" then
      ended = true
    end
  end
  return out
end

-- edits returns the paths a command changes.
local function edits(cmd)
  local out = {}
  for _, r in ipairs(cmd.redirects) do
    if r.op:find(">", 1, true) and r.op ~= ">&" then out[#out + 1] = r.target end
  end
  local kind = WRITERS[cmd.name]
  if (cmd.name == "sed" or cmd.name == "perl") and shell.has_flag(cmd, "i", "in-place") then kind = true end
  if kind then
    local ops = operand_paths(cmd)
    if kind == "last" then ops = { ops[#ops] } end
    for _, p in ipairs(ops) do out[#out + 1] = p end
  end
  for _, call in ipairs(cmd.calls) do
    if call.kind == "delete" then
      for _, p in ipairs(call.paths) do out[#out + 1] = p.path end
    end
  end
  return out
end

-- patch_paths returns the files a Codex apply_patch names in its patch
-- text ("*** Update File: path", "*** Add File:", "*** Delete File:",
-- "*** Move to:").
local function patch_paths(params, out)
  local text = type(params) == "table" and (params.input or params.patch)
  if type(text) ~= "string" then return out end
  for line in text:gmatch("[^\n]+") do
    local p = line:match("^%*%*%* Add File: (.+)$") or line:match("^%*%*%* Update File: (.+)$")
        or line:match("^%*%*%* Delete File: (.+)$") or line:match("^%*%*%* Move to: (.+)$")
    if p then out[#out + 1] = p end
  end
  return out
end

local function tool_paths(params)
  local out = {}
  if type(params) ~= "table" then return out end
  for _, k in ipairs(PATH_KEYS) do
    if type(params[k]) == "string" then out[#out + 1] = params[k] end
  end
  return patch_paths(params, out)
end

local function ask(what)
  return hook.ask("the agent wants to change " .. what .. ", which controls its own guardrails",
    { title = "Agent settings", severity = "high" })
end

hook.on("tool.execute.pre", function(tool_name, params, cwd, ctx)
  if type(tool_name) ~= "string" then return nil end
  local t = tool_name:lower()
  if lower_set(WRITE_TOOLS, ctx.config.write_tools)[t] then
    for _, p in ipairs(tool_paths(params)) do
      local what = protected(p, ctx, cwd)
      if what then return ask(what) end
    end
    return nil
  end
  if not lower_set(SHELL_TOOLS, ctx.config.shell_tools)[t] then return nil end
  local line = command_of(params)
  if not line then return nil end
  local ok, cmds = pcall(shell.parse, line)
  if not ok then return nil end -- destructive.lua asks about lines that do not parse
  for _, cmd in ipairs(cmds) do
    for _, p in ipairs(edits(cmd)) do
      local what = protected(p, ctx, cwd)
      if what then return ask(what) end
    end
  end
end, { name = "protect-agent-settings", priority = 95, timeout = "2s" })

hook.on("file.save.pre", function(path, ctx)
  local what = protected(path, ctx, nil)
  if what then return hook.deny("refusing to change " .. what .. ", which controls the agent's guardrails") end
end, { name = "deny-saving-agent-settings", priority = 95 })
