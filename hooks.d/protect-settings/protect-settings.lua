-- Ask before anything changes what decides what guards the agent: the
-- hooks directory and its files (hooks.d, the directory the host loads
-- them from, ctx.hooks_dir, whatever its name, and ctx.config.hooks_dir),
-- hookhost.yaml, hookhost's caches and auto-server socket directory,
-- and every agent's hook settings (.claude/settings*.json and
-- .claude/hooks/, .gemini/settings.json, .codex/hooks.json and
-- config.toml, .cursor/hooks.json, .github/hooks/, .copilot/hooks/,
-- .picoclaw/config.json, managed settings), in the project or the
-- user's home. An agent that could change them could switch its
-- guardrails off.
--
-- It looks at write and edit tool calls, at tool.approve (PicoClaw's
-- approve_tool), at file.save.pre (which cannot ask, so it denies), and
-- at shell commands: every program that writes, truncates, moves,
-- deletes, changes the mode of or copies into a file (redirections, tee,
-- cp, mv, install, ln, dd of=, sed -i, perl -i, sponge, curl -o, wget
-- -O, tar -C, unzip -d, git apply, patch, chmod, chown, rm, truncate,
-- find -delete and -exec, …), after cd, through globs it cannot rule
-- out and in any letter case (case-insensitive file systems). A target
-- it cannot resolve (a variable, a substitution, a cd it cannot follow,
-- an archive's or a patch's unseen file names in a place that holds
-- protected files) asks too, and so does interpreter code (python -c,
-- node -e, …) that names a protected place. Stopping hookhost's
-- processes, and any program naming the auto server's socket directory
-- (which could bind an impostor there), ask as well. Reading passes.
--
-- Settings (ctx.config): see HOOK.md, which holds their defaults.
local shell = require("shell")
local path = require("path")
local tool = require("tool")
local unpack = table.unpack or unpack

-- Keys some tools put a file under that the tool module does not read
-- (it keeps to the agents' own): a protected path under one is asked about.
local EXTRA_PATH_KEYS = { "target", "dest", "from", "to", "directory" }

-- Protected places, matched against the lower-cased, cleaned, absolute
-- (or ~-relative) path with a leading "/": a file, or a directory and
-- everything in it.
local PROTECTED = {
  { "/%.claude/settings[^/]*%.json$", "Claude Code's settings" },
  { "/%.claude/hooks$", "Claude Code's hooks" },
  { "/%.claude/hooks/", "Claude Code's hooks" },
  { "/claude%-code/managed%-settings%.json$", "Claude Code's managed settings" },
  { "/claudecode/managed%-settings%.json$", "Claude Code's managed settings" },
  -- the drop-in directory, where it is (a directory matches every name
  -- in it, so unanchored it would match workspace globs such as */*/*.c).
  -- Its name is not among NAMES: a glob in that element of a path
  -- (/etc/claude-code/manag*/x.json) is not tried against it, since one
  -- more name there puts three deep globs past the search's budget.
  { "^/etc/claude%-code/managed%-settings%.d$", "Claude Code's managed settings" },
  { "^/etc/claude%-code/managed%-settings%.d/", "Claude Code's managed settings" },
  { "^/library/application support/claudecode/managed%-settings%.d$", "Claude Code's managed settings" },
  { "^/library/application support/claudecode/managed%-settings%.d/", "Claude Code's managed settings" },
  { "/%.gemini/settings%.json$", "Gemini CLI's settings" },
  { "/gemini%-cli/settings%.json$", "Gemini CLI's system settings" },
  { "/%.codex/hooks%.json$", "Codex's hooks" },
  { "/%.codex/config%.toml$", "Codex's settings" },
  { "/%.cursor/hooks%.json$", "Cursor's hooks" },
  { "/%.cursor/hooks$", "Cursor's hooks" },
  { "/%.cursor/hooks/", "Cursor's hooks" },
  { "/%.github/hooks$", "Copilot's hooks" },
  { "/%.github/hooks/", "Copilot's hooks" },
  { "/%.copilot/hooks$", "Copilot's hooks" },
  { "/%.copilot/hooks/", "Copilot's hooks" },
  { "/%.picoclaw/config%.json$", "PicoClaw's settings" },
  { "/hookhost%.ya?ml$", "hookhost's configuration" },
  { "/%.config/hookhost$", "hookhost's configuration" },
  { "/%.config/hookhost/", "hookhost's configuration" },
  { "^/etc/hookhost$", "hookhost's configuration" },
  { "^/etc/hookhost/", "hookhost's configuration" },
  { "/hooks%.d$", "the guardrails" },
  { "/hooks%.d/", "the guardrails" },
  -- A command hook trusts its caches: a forged event cache hides a file's
  -- hooks, a forged compiled program replaces them.
  { "/hookhost/events%-v%d+%.json$", "hookhost's event cache" },
  { "/hookhost/programs%-v%d+$", "hookhost's compiled-program cache" },
  { "/hookhost/programs%-v%d+/", "hookhost's compiled-program cache" },
  { "/%.cache/hookhost$", "hookhost's cache" },
  { "/%.cache/hookhost/", "hookhost's cache" },
  { "/library/caches/hookhost$", "hookhost's cache" },
  { "/library/caches/hookhost/", "hookhost's cache" },
  -- --server auto's socket directory: $XDG_RUNTIME_DIR/hookhost, or
  -- hookhost-UID in the temporary directory.
  { "^/run/user/%d+/hookhost$", "hookhost's auto-server socket directory" },
  { "^/run/user/%d+/hookhost/", "hookhost's auto-server socket directory" },
  { "^/tmp/hookhost%-%d+$", "hookhost's auto-server socket directory" },
  { "^/tmp/hookhost%-%d+/", "hookhost's auto-server socket directory" },
  { "/t/hookhost%-%d+$", "hookhost's auto-server socket directory" },
  { "/t/hookhost%-%d+/", "hookhost's auto-server socket directory" },
}

-- Directories that hold protected places: removing, moving, replacing
-- or changing the mode of one changes them, and files of unknown names
-- written into one (an archive, a patch) may be them. The workspace,
-- the home directory and the directories above them are holders too.
local HOLDER_NAMES = { [".claude"] = true, [".gemini"] = true, [".codex"] = true, [".cursor"] = true,
                       [".github"] = true, [".copilot"] = true, [".picoclaw"] = true, ["claude-code"] = true,
                       ["claudecode"] = true, ["gemini-cli"] = true }
local HOLDER_PATHS = { ["/"] = true, ["/tmp"] = true, ["/run"] = true, ["/run/user"] = true,
                       ["/home"] = true, ["/users"] = true, ["/etc"] = true, ["/root"] = true,
                       ["/library"] = true, ["/library/application support"] = true }
-- The user's cache and runtime directories, which hold hookhost's.
local HOLDER_PATTERNS = { "^~[^/]*/%.cache$", "^/home/[^/]+/%.cache$", "^/root/%.cache$",
                          "^~[^/]*/%.config$", "^/home/[^/]+/%.config$", "^/root/%.config$",
                          "^~[^/]*/library$", "^~[^/]*/library/caches$", "^/users/[^/]+/library$",
                          "^/users/[^/]+/library/caches$", "^/run/user/%d+$" }

-- The names a glob is tried against: each element of a protected place,
-- and the files a hooks directory holds. A glob element that matches
-- none of them cannot name a protected place by that element.
local NAMES = { ".claude", "settings.json", "settings.local.json", "hooks", "managed-settings.json",
                "claude-code", "claudecode", ".gemini", "gemini-cli", ".codex", "hooks.json",
                "config.toml", ".cursor", ".github", ".copilot", ".picoclaw", "config.json",
                "hookhost.yaml", "hookhost.yml", "hooks.d", "hookhost", ".config", "etc", "hookhost-0", "events-v1.json",
                "programs-v1", ".cache", "caches", "library", "application support", "tmp", "run",
                "user", "0", "x.lua", "x.star", "hook.md", "x_test.yaml", "x.yaml", "x.json", "x.md" }
local NAME_SET = {}
for _, n in ipairs(NAMES) do NAME_SET[n] = true end
-- The extensions of the files a hooks directory's loader and packs read.
local HOOK_EXTS = { lua = true, star = true, md = true, yaml = true, yml = true, json = true, toml = true }
-- OTHER stands for a name that is none of NAMES; FOUND for the {} of a
-- command find -exec runs: what find finds.
local OTHER = "\1other"
local FOUND = "\1found"
-- INPUT stands for the arguments xargs reads.
local INPUT = "\1input"

-- is_glob: *, ?, [...] and the extended globs +(…), @(…), !(…).
local function is_glob(s) return s:find("[%*%?%[]") ~= nil or s:find("[+@!]%(") ~= nil end
local function is_dynamic(s) return s:find("[%$`]") ~= nil or s:find("<(", 1, true) ~= nil end

-- A Guard holds what one call's verdict depends on.
local Guard = {}
Guard.__index = Guard

local function new_guard(ctx, cwd)
  local g = setmetatable({ ctx = ctx, dotglob = false, work = 0, checked = {}, matched = {}, powershell = false,
                          gitbash = false }, Guard)
  -- The working directory: absolute when the payload says where the
  -- call runs, else "." (the unknown directory the agent runs in).
  if type(cwd) == "string" and cwd:sub(1, 1) == "/" then g.root = path.clean(cwd) end
  g.cwd = g.root or "."
  -- The hooks directories by path: the one the host loads from
  -- (ctx.hooks_dir) and the operator's hooks_dir; a glob may name them
  -- by their last element too, so that joins the names tried.
  g.hooks_dirs, g.names = {}, NAMES
  for _, dir in ipairs({ ctx.hooks_dir, ctx.config.hooks_dir }) do
    if type(dir) == "string" and dir:sub(1, 1) == "/" then
      local low = path.clean(dir):lower()
      g.hooks_dirs[#g.hooks_dirs + 1] = low
      local name = low:match("([^/]+)$")
      if name and not NAME_SET[name] then
        if g.names == NAMES then g.names = { unpack(NAMES) } end
        g.names[#g.names + 1] = name
      end
    end
  end
  -- config_files: more configuration files or directories in use
  -- (absolute or ~), guarded like hookhost.yaml.
  g.configs = {}
  if type(ctx.config.config_files) == "table" then
    for _, c in ipairs(ctx.config.config_files) do
      if type(c) == "string" and (c:sub(1, 1) == "/" or c:sub(1, 1) == "~") then
        g.configs[#g.configs + 1] = g:absolute(c):lower()
      end
    end
  end
  return g
end

-- A line that would take longer to check than a hook may run is asked
-- about rather than left to time out, which would let it through. BUDGET
-- counts paths placed and globs matched; a long line of ordinary
-- commands stays far below it.
local BUDGET = 1500
local TOO_MUCH = "\1too much"
function Guard:spend(n)
  self.work = self.work + n
  if self.work > BUDGET then error(TOO_MUCH, 0) end
end

-- normal spells a word or redirection target as a path: "$HOME" and
-- ${HOME} as ~, $PWD as ., quotes dropped where the word is otherwise
-- static. The shell module has done this for argv words already.
local function normal(s)
  s = s:gsub('^"%$HOME"', "~"):gsub('^"%${HOME}"', "~"):gsub("^%${HOME}", "~"):gsub("^%$HOME", "~")
  s = s:gsub('^"%$PWD"', "."):gsub("^%${PWD}", "."):gsub("^%$PWD", ".")
  return s
end

-- absolute resolves a static path against the working directory; nil
-- when the working directory is not known any more.
function Guard:absolute(p)
  if p:sub(1, 1) == "/" then return path.clean(p) end
  if p:sub(1, 1) == "~" then
    local user, rest = p:match("^(~[^/]*)(.*)$")
    rest = path.clean("/" .. rest)
    return rest == "/" and user or user .. rest
  end
  if self.cwd == nil then return nil end
  if self.cwd:sub(1, 1) == "/" then return path.abs(p, self.cwd) end
  if self.cwd:sub(1, 1) == "~" then return self:absolute(self.cwd .. "/" .. p) end
  return path.clean(self.cwd .. "/" .. p) -- relative to the unknown directory the agent runs in
end

-- place says what protected place a static path (absolute, ~-relative,
-- or relative to an unknown directory) is, or nil. holder makes the
-- directories that hold protected places count too.
function Guard:place(abs, holder)
  self:spend(1)
  local low = abs:lower()
  local padded = low:sub(1, 1) == "/" and low or "/" .. low
  for _, s in ipairs(PROTECTED) do
    if padded:find(s[1]) then return s[2] end
  end
  if low:sub(1, 1) == "/" then
    for _, d in ipairs(self.hooks_dirs) do
      if path.is_within(d, low) then return "the guardrails" end
    end
  end
  -- A home directory spelled out is ~ to a config_files entry.
  local home = low:gsub("^/home/[^/]+", "~", 1):gsub("^/users/[^/]+", "~", 1)
  if home:sub(1, 6) == "/root/" or home == "/root" then home = "~" .. home:sub(6) end
  for _, c in ipairs(self.configs) do
    for _, l in ipairs({ low, home }) do
      if l == c or l:sub(1, #c + 1) == c .. "/" then return "hookhost's configuration" end
      if holder and (c:sub(1, #l + 1) == l .. "/" or l == "/") then
        return "a directory holding hookhost's configuration"
      end
    end
  end
  local extra = self.ctx.config.protect
  if type(extra) == "table" then
    for _, pat in ipairs(extra) do
      if type(pat) == "string" then
        -- A pattern Lua cannot read is the operator's mistake: fail, naming it.
        local ok, hit = pcall(function()
          return abs:match("^" .. pat .. "$") or low:match("^" .. pat .. "$")
        end)
        if not ok then error("protect-settings: config.protect: bad Lua pattern " .. string.format("%q", pat), 0) end
        if hit then return "a protected file" end
      end
    end
  end
  if not holder then return nil end
  local base = padded:match("([^/]*)$")
  if HOLDER_NAMES[base] or HOLDER_PATHS[padded] then return "a directory holding agent settings" end
  for _, pat in ipairs(HOLDER_PATTERNS) do
    if low:find(pat) then return "a directory holding hookhost's caches" end
  end
  if not self.root and low:match("^[%./]+$") then -- the agent's unknown directory or one above it
    return "the directory the agent works in"
  end
  if low:match("^~[^/]*$") or padded:match("^/home/[^/]+$") or padded:match("^/users/[^/]+$") then
    return "a home directory"
  end
  if self.root and low:sub(1, 1) == "/" and path.is_within(low, self.root:lower()) then
    return "the workspace or a directory holding it"
  end
  if low:sub(1, 1) == "/" then
    for _, d in ipairs(self.hooks_dirs) do
      if path.is_within(low, d) then return "a directory holding the guardrails" end
    end
  end
  return nil
end

-- matches reports whether a glob element could match name, the shell's
-- way: a leading dot only by a leading dot unless dotglob is on; case
-- folded, as on a case-insensitive file system. A pattern path.glob
-- cannot read (extended globs) could match anything.
function Guard:matches(pat, name)
  if name == OTHER then return true end
  if not self.dotglob and name:sub(1, 1) == "." and pat:sub(1, 1) ~= "." then return false end
  if pat:find("[()|]") then return true end
  local key = pat .. "\0" .. name
  local hit = self.matched[key]
  if hit == nil then
    self:spend(1)
    local ok, yes = pcall(path.glob, pat:lower(), name)
    hit = not ok or yes
    self.matched[key] = hit
  end
  return hit
end

-- candidates expands the glob elements of a path into the protected
-- names they could match (and OTHER for any other name); nil when there
-- would be too many to check. Protected names are tried only in a
-- directory that holds protected places or is one (the workspace, the
-- home directory, .claude, hooks.d, …): `rm -rf build/*` cannot reach
-- hooks.d, `rm -rf *` in the workspace can. In a hooks directory
-- reached through a glob, a last element with an extension no hook file
-- has (*.tmp, x.o) names no hook: hookhost loads none of those, and a
-- pack's directory is not named so.
function Guard:candidates(p)
  local elems = {}
  for elem in (p .. "/"):gmatch("([^/]*)/") do elems[#elems + 1] = elem end
  local out = { "" }
  local globbed = false
  -- A last element with an extension no hook file has names no hook
  -- anywhere in a hooks directory, so a glob on the way there inside one
  -- stands for any name (unless a later .. climbs back out).
  local last_ext = elems[#elems]:match("%.(%w+)$")
  local no_hook_below = last_ext ~= nil and not HOOK_EXTS[last_ext:lower()]
  for _, elem in ipairs(elems) do
    if elem == ".." then no_hook_below = false end
  end
  for i, elem in ipairs(elems) do
    local next = {}
    local glob = is_glob(elem)
    local ext = i == #elems and (globbed or glob) and elem:match("%.(%w+)$")
    for _, pre in ipairs(out) do
      local opts = { elem }
      local abs = (glob or ext) and self:absolute(i == 1 and "." or (pre == "" and "/" or pre))
      local not_hook = ext and not HOOK_EXTS[ext:lower()] and abs and self:in_hooks_dir(abs)
      if glob and i < #elems and no_hook_below and abs and self:in_hooks_dir(abs) then
        opts = { OTHER }
      elseif glob then
        opts = {}
        if not abs or self:place(abs, true) then
          for _, n in ipairs(self.names) do
            if self:matches(elem, n) then opts[#opts + 1] = n end
          end
        end
        if not not_hook then opts[#opts + 1] = OTHER end
      elseif not_hook then
        opts = {}
      end
      for _, o in ipairs(opts) do
        next[#next + 1] = i == 1 and o or pre .. "/" .. o
      end
    end
    if #next > 256 then return nil end
    out, globbed = next, globbed or glob
  end
  return out
end

-- in_hooks_dir reports whether a path lies in a hooks directory.
function Guard:in_hooks_dir(abs)
  local low = abs:lower()
  local padded = low:sub(1, 1) == "/" and low or "/" .. low
  if padded:find("/hooks%.d/") ~= nil or padded:find("/hooks%.d$") ~= nil then return true end
  if low:sub(1, 1) ~= "/" then return false end
  for _, d in ipairs(self.hooks_dirs) do
    if path.is_within(d, low) then return true end
  end
  return false
end

-- check says why writing the path p (a word as written) needs asking,
-- or nil. holder: the operation also changes a directory that holds
-- protected places (rm -r, mv, chmod, replacing it), or writes files of
-- unknown names into it.
function Guard:check(p, holder)
  if type(p) ~= "string" or p == "" then return nil end
  if p:find(FOUND, 1, true) then
    return self:found(self.found_scope, "a command run by find -exec")
  end
  if p:find(INPUT, 1, true) then return "files named by what xargs reads, only known at run time" end
  -- A line may name the same path many times: judge it once per directory.
  local key = p .. "\0" .. tostring(holder) .. "\0" .. tostring(self.cwd)
  local memo = self.checked[key]
  if memo == nil then
    memo = self:judge(p, holder) or false
    self.checked[key] = memo
  end
  return memo or nil
end

-- windows_variants returns the paths p may name on Windows, where a
-- name's trailing dots and spaces are dropped (settings.json. is
-- settings.json) and a short 8.3 name stands for a long one
-- (SETTIN~1.JSO, CLAUDE~1 for .claude): a short name becomes the globs
-- it could match, with and without the leading dot its long name may
-- have lost, and first the protected names it could stand for. At most
-- 12 variants; nil when p has none of these.
local function windows_variants(p)
  local out, changed = { "" }, false
  local first = true
  for comp in (p .. "/"):gmatch("([^/]*)/") do
    local alts = { comp }
    if not comp:match("^%.*$") and comp:find("[%. ]$") then
      alts, changed = { (comp:gsub("[%. ]+$", "")) }, true
    end
    local stem, ext = alts[1]:match("^([^~%.]+)~%d+(%.?[^%.]*)$")
    if stem and #stem <= 6 then
      -- the protected names it may stand for (CLAUDE~1 is .claude: the
      -- long name without its leading dots and spaces, its first six
      -- letters, ~N, its extension's first three), then any name
      stem, ext = stem:upper(), ext:sub(2):upper()
      alts, changed = {}, true
      for _, n in ipairs(NAMES) do
        local long = n:gsub("^%.+", ""):gsub(" ", ""):upper()
        local base, lext = long:match("^(.*)%.([^%.]*)$")
        base, lext = (base or long):gsub("%.", ""), lext or ""
        if base:sub(1, #stem) == stem and lext:sub(1, #ext) == ext and (ext ~= "" or lext == "") then
          alts[#alts + 1] = n
        end
      end
      local tail = stem:lower() .. "*" .. (ext ~= "" and "." .. ext:lower() .. "*" or "")
      alts[#alts + 1], alts[#alts + 2] = tail, "." .. tail
    end
    local next_out = {}
    for _, o in ipairs(out) do
      for _, a in ipairs(alts) do
        if #next_out < 12 then next_out[#next_out + 1] = first and a or (o .. "/" .. a) end
      end
    end
    out, first = next_out, false
  end
  return changed and out or nil
end

-- judge is check without the memo.
function Guard:judge(p, holder)
  if self.gitbash then
    -- Git Bash on Windows: /c/x is C:/x, and a quoted '.claude\x' is a
    -- Windows path
    local drive, rest = p:match("^/(%a)(/?.*)$")
    if drive and (rest == "" or rest:sub(1, 1) == "/") then p = drive:upper() .. ":" .. (rest == "" and "/" or rest) end
    if p:find("\\", 1, true) then p = path.windows(p) end
  end
  if self.powershell or self.gitbash then
    p = p:gsub("^%a:([^/])", "%1") -- C:x: x in drive C's current directory
  end
  local variants = (self.powershell or self.gitbash) and windows_variants(p)
  if variants then
    for _, v in ipairs(variants) do
      local why = self:judge_one(v, holder)
      if why then return why:gsub(" %(" .. v:gsub("%p", "%%%0") .. "%)$", " (" .. p .. ")") end
    end
    return nil
  end
  return self:judge_one(p, holder)
end

-- judge_one judges one spelling of a path.
function Guard:judge_one(p, holder)
  p = normal(p)
  if is_dynamic(p) then return "a path only known at run time (" .. p .. ")" end
  local paths = { p }
  if is_glob(p) then
    paths = self:candidates(p)
    if not paths then return "a glob with too many matches to check (" .. p .. ")" end
  end
  for _, c in ipairs(paths) do
    local abs = self:absolute(c)
    if not abs then return "a path relative to a directory only known at run time (" .. p .. ")" end
    local what = self:place(abs, holder)
    if what then return what .. " (" .. p .. ")" end
  end
  return nil
end

-- into says why writing files of names it cannot see (an archive, a
-- patch, a download named by the server) into the directory d needs
-- asking.
function Guard:into(d, what)
  local why = self:check(d, true)
  if why then return why .. ", where " .. what .. " writes files whose names it cannot see" end
end

-- move_to follows the working directory to dir, as the shell module
-- reads a cd's target ("~", "/abs", "rel/path", "~/x").
function Guard:move_to(dir)
  local c = dir:sub(1, 1)
  if c == "/" or c == "~" then
    self.cwd = self:absolute(dir)
  else
    self.cwd = self.cwd and self:absolute(dir)
  end
end

-- enter puts the guard in dir, a directory a command runs in as the
-- shell module followed the line's cd commands (a command's dir or one
-- of its alt_dirs: a cd in a subshell, a pipe or bash -c stays there;
-- "?" where the line cannot tell), from cwd, where the line started.
function Guard:enter(dir, cwd)
  self.cwd = cwd
  if dir == "?" then self.cwd = nil
  elseif dir and dir ~= "" then self:move_to(dir) end
end

-- Options (short letters, long names) that take a value, per program, so
-- that the operands are told from the options' values.
local VALUED = {
  cp = { "tS", { "target-directory", "suffix" } },
  mv = { "tS", { "target-directory", "suffix" } },
  ln = { "tS", { "target-directory", "suffix" } },
  install = { "tSmogC", { "target-directory", "suffix", "mode", "owner", "group" } },
  rsync = { "efBTM", { "rsh", "rsync-path", "exclude", "include", "filter", "exclude-from", "include-from",
                       "files-from", "chmod", "chown", "partial-dir", "backup-dir", "temp-dir", "compare-dest",
                       "copy-dest", "link-dest", "timeout", "bwlimit", "max-size", "min-size", "out-format",
                       "log-file", "password-file", "port", "suffix", "usermap", "groupmap", "iconv" } },
  tee = { "", { "output-error" } },
  chmod = { "", {} }, chown = { "", {} }, chgrp = { "", {} },
  truncate = { "sr", { "size", "reference" } },
  touch = { "dtr", { "date", "reference" } },
  shred = { "ns", { "iterations", "size", "random-source" } },
  mkdir = { "m", { "mode" } },
  sed = { "efl", { "expression", "file", "line-length" } },
  awk = { "fvF", {} }, gawk = { "fvFeiEl", {} }, mawk = { "fvF", {} }, nawk = { "fvF", {} },
  setfacl = { "mMxX", { "modify", "modify-file", "remove", "remove-file", "set", "set-file" } },
  sponge = { "", {} },
  scp = { "cDFiJloPSX", {} },
  sftp = { "BbcDFiJloPRSsX", {} },
  ["kubectl cp"] = { "cn", { "container", "namespace", "retries" } },
  yq = { "Iops", { "indent", "output-format", "input-format", "split-exp" } },
  fallocate = { "ol", { "offset", "length" } },
}

-- args splits a command's words after its name into operands and the
-- values of its options: operands[i] = { word = …, index = … }.
local function args(cmd)
  local spec = VALUED[cmd.name] or { "", {} }
  local short, long = spec[1], {}
  for _, l in ipairs(spec[2]) do long[l] = true end
  local ops, vals, i, ended = {}, {}, 2, false
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if ended or a:sub(1, 1) ~= "-" or a == "-" then
      ops[#ops + 1] = { word = cmd.paths[i] and cmd.paths[i].path or a, raw = a }
    elseif a == "--" then
      ended = true
    elseif a:sub(1, 2) == "--" then
      local name, v = a:match("^%-%-([^=]+)=(.*)$")
      if name then
        vals[name] = v
      elseif long[a:sub(3)] and i < #cmd.argv then
        vals[a:sub(3)] = cmd.argv[i + 1]
        i = i + 1
      end
    else
      for j = 2, #a do
        local ch = a:sub(j, j)
        if short:find(ch, 1, true) then
          if j < #a then vals[ch] = a:sub(j + 1) elseif i < #cmd.argv then
            vals[ch] = cmd.argv[i + 1]
            i = i + 1
          end
          break
        end
      end
    end
    i = i + 1
  end
  return ops, vals
end

local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

local function base(p) return p:match("([^/]*)/*$") or p end

-- Each check below returns why the command needs asking, or nil.
-- Copiers whose operands may be remote (host:path, container:path).
local REMOTE_COPY = { rsync = true, scp = true, ["docker cp"] = true, ["kubectl cp"] = true }
-- copy checks cp, mv, install, ln and rsync: the destination, and each
-- source's name in it when the destination is a directory. mv also
-- takes its sources away.
function Guard:copy(cmd)
  local ops, vals = args(cmd)
  if cmd.name == "install" and shell.has_flag(cmd, "d", "directory") then
    for _, o in ipairs(ops) do
      local why = self:check(o.word, false)
      if why then return why end
    end
    return nil
  end
  local dest = vals.t or vals["target-directory"]
  local sources = ops
  if not dest then
    if #ops == 0 then return nil end
    if #ops == 1 then
      -- one operand known only at run time may split into a source and
      -- a destination (cp $f): where it copies to is not known
      if is_dynamic(ops[1].word) then return self:check(ops[1].word, false) end
      if cmd.name ~= "ln" then return nil end
      dest, sources = ".", ops -- ln TARGET makes ./TARGET's name
    else
      dest = ops[#ops].word
      sources = { unpack(ops, 1, #ops - 1) }
    end
  end
  if REMOTE_COPY[cmd.name] and dest:match("^[^/]*:") then return nil end -- a remote destination
  if cmd.name == "mv" then
    for _, s in ipairs(sources) do
      local why = self:check(s.word, true)
      if why then return why end
    end
  elseif cmd.name == "ln" then
    -- A link into a protected place is a way to write it later.
    for _, s in ipairs(sources) do
      local why = self:check(s.word, false)
      if why then return why end
    end
  end
  -- dest itself is replaced, or, named like a holder, may become one.
  local why = self:check(dest, false)
  if why then return why end
  local d = normal(dest)
  if not is_dynamic(d) and HOLDER_NAMES[base(d):lower()] then
    return "a directory holding agent settings (" .. dest .. ")"
  end
  for _, s in ipairs(sources) do
    -- The word as written tells a directory's contents (rsync src/,
    -- cp -r src/.) from the directory, which cleaning the path loses.
    local w, raw = s.word, s.raw
    local name = base(w)
    local contents = raw:match("/%.?$") ~= nil and (cmd.name == "rsync" or raw:sub(-1) == ".")
    -- a file find found ({}) keeps its name, which only the run knows;
    -- copied recursively, a directory it found (.claude) may be one
    -- that holds settings, which is judged as find's scope
    local found_file = name:find(FOUND, 1, true) and cmd.name ~= "mv"
        and not (shell.has_flag(cmd, "r", "recursive") or shell.has_flag(cmd, "R")
          or shell.has_flag(cmd, "a", "archive"))
    if contents or name == "." or name == "" or name == ".." or is_dynamic(name) or found_file then
      why = self:into(dest, cmd.name)
    elseif REMOTE_COPY[cmd.name] and w:match("^[^/]*:") then
      -- host:path, container:path: the file keeps the remote path's name.
      local rname = base(w:match("^[^/]*:(.*)$"))
      if cmd.name == "rsync" or rname == "" or rname == "." or rname == ".." or rname == "~"
          or is_glob(rname) or is_dynamic(rname) then
        why = self:into(dest, cmd.name)
      else
        why = self:check(dest .. "/" .. rname, true)
      end
    else
      why = self:check(dest .. "/" .. name, true)
    end
    if why then return why end
  end
  if cmd.name == "rsync" and shell.has_flag(cmd, "", "delete") then return self:into(dest, "rsync --delete") end
end

-- Programs that change each file named among their operands. The value
-- says whether they change a directory too (rm -r, chmod, mv), which
-- makes the directories holding protected places count; mkdir and touch
-- only create or touch what they name.
local CHANGERS = { rm = true, unlink = true, rmdir = true, shred = true, truncate = true, chattr = true,
                   setfacl = true, sponge = true, tee = false, touch = false, mkdir = false,
                   mkfifo = false, mknod = false, rename = true, ed = false, ex = false, vi = false,
                   vim = false, nvim = false, nano = false, emacs = false, code = false,
                   gzip = true, gunzip = true, bzip2 = true, bunzip2 = true, xz = true, unxz = true,
                   zstd = true, unzstd = true, srm = true, sudoedit = false, mount = true,
                   umount = true, fallocate = false }
local COMPRESSORS = { gzip = "", bzip2 = "", xz = "", zstd = "", gunzip = "un", bunzip2 = "un",
                      unxz = "un", unzstd = "un" }
-- Programs whose first operand is a mode or owner, not a file.
local MODERS = { chmod = true, chown = true, chgrp = true }

-- dashed_mode reports whether chmod's mode is written with a leading
-- dash (chmod -x FILE, chmod -R -rwx DIR), which reads like an option:
-- chmod's own options (-c, -f, -v, -R) share no letter with a mode's.
local function dashed_mode(cmd)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    if a == "--" then return false end
    if a:match("^%-[rwxXst]") and a:match("^[%-+=rwxXstugoa,0-7]+$") then return true end
  end
  return false
end

function Guard:changer(cmd)
  local ops, vals = args(cmd)
  if MODERS[cmd.name] and not vals.reference and not (cmd.name == "chmod" and dashed_mode(cmd)) then
    table.remove(ops, 1)
  end
  local holder = CHANGERS[cmd.name] or MODERS[cmd.name] or false
  local packer = COMPRESSORS[cmd.name]
  if packer and (shell.has_flag(cmd, "c", "stdout") or shell.has_flag(cmd, "l", "list")
      or shell.has_flag(cmd, "t", "test")) then
    return nil
  end
  for _, o in ipairs(ops) do
    local why = self:check(o.word, holder)
    if why then return why end
    -- gunzip settings.json.gz writes settings.json beside it
    local stripped = o.word:match("^(.*)%.[^./]+$")
    if stripped and packer and (packer == "un" or shell.has_flag(cmd, "d", "decompress")) then
      why = self:check(stripped, holder)
      if why then return why end
    end
  end
end

-- inplace checks sed -i, perl -i and ruby -i: the files they edit.
function Guard:inplace(cmd)
  if not shell.has_flag(cmd, "i", "in-place") then return nil end
  local ops, vals = args(cmd)
  local skip_script = cmd.name == "sed" and not (vals.e or vals.f or vals.expression or vals.file)
  for i, o in ipairs(ops) do
    if not (skip_script and i == 1) and o.raw ~= cmd.code then
      local why = self:check(o.word, false)
      if why then return why end
    end
  end
end

-- value returns the value of a short (cluster-aware) or long option of
-- a program whose valued short options are short.
local function values(cmd, short)
  local out, i = {}, 2
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if a == "--" then break end
    local name, v = a:match("^%-%-([^=]+)=(.*)$")
    if name then
      out[#out + 1] = { "--" .. name, v }
    elseif a:sub(1, 2) == "--" then
      out[#out + 1] = { a, cmd.argv[i + 1] }
    elseif a:sub(1, 1) == "-" and #a > 1 then
      for j = 2, #a do
        local ch = a:sub(j, j)
        if short:find(ch, 1, true) then
          if j < #a then
            out[#out + 1] = { "-" .. ch, a:sub(j + 1) }
          else
            out[#out + 1] = { "-" .. ch, cmd.argv[i + 1] }
            i = i + 1
          end
          break
        end
        out[#out + 1] = { "-" .. ch, nil }
      end
    end
    i = i + 1
  end
  return out
end

local function url_name(u)
  if type(u) ~= "string" or is_dynamic(u) then return nil end
  local p = u:gsub("[?#].*$", ""):match("^%a[%w+.-]*://[^/]*(.*)$")
  if not p then return nil end
  return p:match("([^/]+)$") or "index.html" -- what a download of a directory is saved as
end

local function urls(cmd)
  local out = {}
  for i = 2, #cmd.argv do
    if cmd.argv[i]:match("^%a[%w+.-]*://") or is_dynamic(cmd.argv[i]) then
      out[#out + 1] = cmd.argv[i]
    end
  end
  return out
end

-- download checks curl and wget: the files they save.
local CURL_FILES = { ["-o"] = true, ["--output"] = true, ["-D"] = true, ["--dump-header"] = true,
                     ["-c"] = true, ["--cookie-jar"] = true, ["--trace"] = true, ["--trace-ascii"] = true,
                     ["--stderr"] = true, ["--libcurl"] = true, ["--etag-save"] = true, ["--hsts"] = true,
                     ["--alt-svc"] = true }
local WGET_FILES = { ["-O"] = true, ["--output-document"] = true, ["-o"] = true, ["--output-file"] = true,
                     ["-a"] = true, ["--append-output"] = true }
-- host_dir is the directory a recursive wget of u writes its files of
-- unseen names into: the URL's host directory in dir (wget -r URL saves
-- under ./HOST/), or dir itself when host directories are off or other
-- hosts' may be written too (-nH, -nd, -H, --span-hosts, …), and for
-- any URL but http(s): over FTP wget recreates the server's symbolic
-- links, which could lead out of the host directory.
local function host_dir(cmd, u, dir)
  if not u:lower():match("^https?://") then return dir end
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    if a == "--no-host-directories" or a == "--no-directories" or a == "--span-hosts"
        or a:match("^%-[^-]*H") or a:match("^%-[^-]*nd") then
      return dir
    end
  end
  local host = u:match("^%a[%w+.-]*://([^/?#]+)")
  -- a user or a port changes how wget names the directory: not judged
  if not host or host:find("[@:]") or is_dynamic(u) then return dir end
  return dir .. "/" .. host
end

function Guard:download(cmd)
  local curl = cmd.name == "curl"
  local vals = values(cmd, curl and "AbcCdDeEFHKmoPQrTuUwxXyYzt" or "OPoaeiBtTwQUYlARDIX")
  local dir, remote_name, named = ".", not curl, false
  for _, kv in ipairs(vals) do
    local k, v = kv[1], kv[2]
    if (curl and CURL_FILES[k] or not curl and WGET_FILES[k]) and v then
      local why = v ~= "-" and self:check(v, false)
      if why then return why end
      if k == "-o" or k == "--output" or k == "-O" or k == "--output-document" then named = true end
    elseif curl and (k == "-O" or k == "--remote-name" or k == "--remote-name-all" or k == "-J") then
      remote_name = true
    elseif k == "--output-dir" or k == "-P" or k == "--directory-prefix" then
      dir = v or "."
    end
  end
  if not remote_name or (named and curl) then return nil end
  -- wget -x saves under the URL's path (after its host unless -nH).
  if not curl and not named and (shell.has_flag(cmd, "x", "force-directories")
      or shell.has_flag(cmd, "", "protocol-directories")) then
    for _, u in ipairs(urls(cmd)) do
      local host, p = u:gsub("[?#].*$", ""):match("^%a[%w+.-]*://([^/]*)(.*)$")
      local why
      if not host or shell.has_flag(cmd, "", "cut-dirs") or is_dynamic(u) then
        why = self:into(dir, "wget -x")
      else
        if p == "" or p:sub(-1) == "/" then p = p .. "index.html" end -- what a directory is saved as
        why = self:check(dir .. "/" .. p, true) or self:check(dir .. "/" .. host .. "/" .. p, true)
      end
      if why then return why end
    end
  end
  if not curl and named then return nil end
  local recursive = not curl and (shell.has_flag(cmd, "r", "recursive") or shell.has_flag(cmd, "m", "mirror"))
  for _, u in ipairs(urls(cmd)) do
    local n = not recursive and url_name(u)
    local why
    if n then why = self:check(dir .. "/" .. n, true)
    elseif recursive then why = self:into(host_dir(cmd, u, dir), cmd.name)
    else why = self:into(dir, cmd.name) end
    if why then return why end
  end
end

local TAR_MODES = { ["--extract"] = "x", ["--get"] = "x", ["--create"] = "c", ["--append"] = "r",
                    ["--update"] = "u", ["--catenate"] = "A", ["--concatenate"] = "A", ["--delete"] = "D",
                    ["--to-stdout"] = "O" }

-- archive checks tar, unzip, 7z and cpio: where they extract, and the
-- archive tar creates.
function Guard:archive(cmd)
  local n = cmd.name
  if n == "unzip" then
    if shell.has_flag(cmd, "l") or shell.has_flag(cmd, "t") or shell.has_flag(cmd, "p")
        or shell.has_flag(cmd, "v") or shell.has_flag(cmd, "Z") then
      return nil
    end
    local dir = "."
    for _, kv in ipairs(values(cmd, "dPx")) do
      if kv[1] == "-d" and kv[2] then dir = kv[2] end
    end
    return self:into(dir, "unzip")
  elseif n == "7z" or n == "7za" or n == "7zr" then
    local sub = cmd.argv[2]
    if sub ~= "x" and sub ~= "e" then return nil end
    local dir = "."
    for i = 3, #cmd.argv do
      local o = cmd.argv[i]:match("^%-o(.+)$")
      if o then dir = o end
    end
    return self:into(dir, n)
  elseif n == "cpio" then
    if not (shell.has_flag(cmd, "i", "extract")) then return nil end
    local dir = "."
    for _, kv in ipairs(values(cmd, "DEFHIMOR")) do
      if kv[1] == "-D" or kv[1] == "--directory" then dir = kv[2] or dir end
    end
    return self:into(dir, "cpio")
  end
  -- tar, old style (tar xzf a.tar) or with dashes.
  local modes, dir, file = "", ".", nil
  local i = 2
  local first = cmd.argv[2]
  local pending = {}
  if first and first:sub(1, 1) ~= "-" then
    for ch in first:gmatch(".") do
      if ("fCbTXKNgVL"):find(ch, 1, true) then -- letters that take the next word
        pending[#pending + 1] = ch
      else
        modes = modes .. ch
      end
    end
    i = 3
  end
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if #pending > 0 and a:sub(1, 1) ~= "-" then
      local ch = table.remove(pending, 1)
      if ch == "f" then file = a elseif ch == "C" then dir = a end
    else
      local name, v = a:match("^%-%-([^=]+)=(.*)$")
      if name then
        if name == "file" then file = v elseif name == "directory" then dir = v end
      elseif a == "--directory" or a == "--file" then
        if a == "--file" then file = cmd.argv[i + 1] else dir = cmd.argv[i + 1] end
        i = i + 1
      elseif a:sub(1, 2) == "--" then
        modes = modes .. (TAR_MODES[a] or "")
      elseif a:sub(1, 1) == "-" then
        for j = 2, #a do
          local ch = a:sub(j, j)
          if ch == "f" or ch == "C" then
            local v = j < #a and a:sub(j + 1) or cmd.argv[i + 1]
            if j == #a then i = i + 1 end
            if ch == "f" then file = v else dir = v end
            break
          end
          modes = modes .. ch
        end
      end
    end
    i = i + 1
  end
  if modes:find("O") then return nil end
  if modes:find("x") then return self:into(dir, "tar") end
  if modes:find("[cruAD]") and file and file ~= "-" then
    return self:check(file, false) -- opened before -C moves tar
  end
end

-- patch_names returns the files a unified or git diff names: ---, +++,
-- rename/copy to, and Codex's *** Update/Add/Delete File: and Move to:.
local function patch_names(text)
  local out = {}
  for line in text:gmatch("[^\n]+") do
    local p = line:match("^%+%+%+ ([^\t]+)") or line:match("^%-%-%- ([^\t]+)")
        or line:match("^rename to (.+)$") or line:match("^rename from (.+)$")
        or line:match("^copy to (.+)$") or line:match("^diff %-%-git a/(%S+)")
        or line:match("^%*%*%* Add File: (.+)$") or line:match("^%*%*%* Update File: (.+)$")
        or line:match("^%*%*%* Delete File: (.+)$") or line:match("^%*%*%* Move to: (.+)$")
    if p and p ~= "/dev/null" then
      out[#out + 1] = p
      local stripped = p:match("^[^/]+/(.+)$")
      if stripped then out[#out + 1] = stripped end
    end
  end
  return out
end

-- patching checks git apply, git am and patch: the files the patch
-- text names when the line holds it (a here-document or here-string),
-- else the directory it applies in, whose files it cannot see.
function Guard:patching(cmd, what, dir, named)
  for _, p in ipairs(named or {}) do
    local why = self:check(p, false)
    if why then return why end
  end
  for _, r in ipairs(cmd.redirects) do
    if r.op == "<<" or r.op == "<<-" or r.op == "<<<" then
      for _, p in ipairs(patch_names(r.target)) do
        local why = self:check(dir == "." and p or dir .. "/" .. p, false)
        if why then return why end
      end
      return nil
    end
  end
  if named and #named > 0 then return nil end
  return self:into(dir, what)
end

local GIT_READS = { check = true, stat = true, numstat = true, summary = true, cached = true }
function Guard:git(cmd)
  local i, dir = 2, "."
  while cmd.argv[i] and cmd.argv[i]:sub(1, 1) == "-" do
    if cmd.argv[i] == "-C" then
      dir = cmd.argv[i + 1] or "."
      i = i + 1
    elseif cmd.argv[i] == "-c" then
      i = i + 1
    end
    i = i + 1
  end
  local sub = cmd.argv[i]
  -- rest is the subcommand as a command of its own; its words keep the
  -- roles the shell module gave them as git's (git stash push -m MSG:
  -- MSG is a value, not a path).
  local rest = { name = "git " .. tostring(sub), argv = { "git", unpack(cmd.argv, i + 1) },
                 paths = { {}, unpack(cmd.paths, i + 1) }, redirects = cmd.redirects,
                 roles = { "name", unpack(cmd.roles or shell.roles(cmd.argv), i + 1) } }
  local function operands_in()
    local out = {}
    for j = 2, #rest.argv do
      if rest.roles[j] == "operand" then
        out[#out + 1] = dir == "." and rest.paths[j].path or dir .. "/" .. rest.paths[j].path
      end
    end
    return out
  end
  if sub == "apply" or sub == "am" then
    if sub == "apply" and not shell.has_flag(rest, "", "apply") and not shell.has_flag(rest, "", "index") then
      for r in pairs(GIT_READS) do
        if shell.has_flag(rest, "", r) then return nil end
      end
    end
    return self:patching(rest, "git " .. sub, dir)
  elseif sub == "mv" or sub == "rm" then
    for _, p in ipairs(operands_in()) do
      local why = self:check(p, true)
      if why then return why end
    end
  elseif sub == "stash" then
    -- git stash -u/-a removes the untracked files it saves; any stash
    -- of a path puts back its committed version.
    local act = rest.argv[2]
    if act ~= nil and act:sub(1, 1) ~= "-" and act ~= "push" and act ~= "save" then return nil end
    local untracked = shell.has_flag(rest, "u", "include-untracked") or shell.has_flag(rest, "a", "all")
    local ops = {}
    for _, p in ipairs(operands_in()) do
      if p ~= "push" and p ~= "save" then ops[#ops + 1] = p end
    end
    if #ops == 0 and untracked then ops = { dir } end
    for _, p in ipairs(ops) do
      local why = self:check(p, untracked)
      if why then return why .. (untracked and ", where git stash removes untracked files" or "") end
    end
  elseif sub == "checkout" or sub == "restore" then
    -- They put back committed versions: only a protected path named
    -- outright counts (git-risky asks about discarding changes).
    if sub == "restore" and shell.has_flag(rest, "S", "staged") and not shell.has_flag(rest, "W", "worktree") then
      return nil
    end
    for _, p in ipairs(operands_in()) do
      local why = self:check(p, false)
      if why then return why end
    end
  elseif sub == "clean" then
    -- Untracked or ignored directories (-d, -x) may be a hooks directory.
    if shell.has_flag(rest, "n", "dry-run") or not shell.has_flag(rest, "f", "force") then return nil end
    if not (shell.has_flag(rest, "d") or shell.has_flag(rest, "x") or shell.has_flag(rest, "X")) then
      for _, p in ipairs(operands_in()) do
        local why = self:check(p, false)
        if why then return why end
      end
      return nil
    end
    local ops = operands_in()
    if #ops == 0 then ops = { dir } end
    for _, p in ipairs(ops) do
      local why = self:into(p, "git clean")
      if why then return why end
    end
  end
end

function Guard:patch(cmd)
  if shell.has_flag(cmd, "", "dry-run") then return nil end
  local dir, named = ".", {}
  local vals = values(cmd, "BdDFgioprVxYz")
  for _, kv in ipairs(vals) do
    if (kv[1] == "-d" or kv[1] == "--directory") and kv[2] then dir = kv[2] end
    if (kv[1] == "-o" or kv[1] == "--output") and kv[2] and kv[2] ~= "-" then named[#named + 1] = kv[2] end
  end
  -- patch FILE [PATCHFILE]: the first operand is the file it changes.
  local i, skip = 2, false
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if a:sub(1, 1) == "-" and #a > 1 then
      if #a == 2 and ("BdDFgioprVxYz"):find(a:sub(2, 2), 1, true) then i = i + 1 end
    else
      named[#named + 1] = dir == "." and a or dir .. "/" .. a
      break
    end
    i = i + 1
  end
  return self:patching(cmd, "patch", dir, named)
end

-- dd checks of=.
function Guard:dd(cmd)
  for _, a in ipairs(cmd.argv) do
    local t = a:match("^of=(.+)$")
    if t then
      local why = self:check(t, false)
      if why then return why end
    end
  end
end

-- redirects checks the files a command's redirections open for writing.
function Guard:redirects(cmd)
  for _, r in ipairs(cmd.redirects) do
    local op, t = r.op, r.target
    local file = op == ">" or op == ">>" or op == ">|" or op == "&>" or op == "&>>" or op == "<>"
        or (op == ">&" and not t:match("^%d*%-?$"))
    if file then
      local why = self:check(t, true)
      if why then return why end
    end
  end
end

-- A find's starting points, what its -name tests let it find (nil
-- patterns when nothing narrows the names), and whether -type f keeps
-- it to files.
local function find_scope(cmd)
  local starts, names, i = {}, {}, 2
  while i <= #cmd.argv and (cmd.argv[i] == "-H" or cmd.argv[i] == "-L" or cmd.argv[i] == "-P") do i = i + 1 end
  while i <= #cmd.argv and cmd.argv[i]:sub(1, 1) ~= "-" and cmd.argv[i] ~= "(" and cmd.argv[i] ~= "!" do
    starts[#starts + 1] = cmd.paths[i].path
    i = i + 1
  end
  if #starts == 0 then starts = { "." } end
  local narrowed, files, empty = true, false, false
  local j = i
  while j <= #cmd.argv do
    local a = cmd.argv[j]
    if a == "!" or a == "-not" then
      -- a negated test narrows nothing, and takes nothing from the tests
      -- it is ANDed with (-name '*.go' -not -path './vendor/*'); a
      -- negated group may hold anything
      if cmd.argv[j + 1] == "(" then narrowed = false end
      j = j + 2
    elseif a == "-name" or a == "-iname" then
      names[#names + 1] = cmd.argv[j + 1]
      j = j + 2
    elseif a == "-type" and cmd.argv[j + 1] == "f" then
      files = true
      j = j + 2
    elseif a == "-empty" then
      empty = true
      j = j + 1
    elseif a == "-o" or a == "-or" or a == "," then
      narrowed = false
      j = j + 1
    else
      j = j + 1
    end
  end
  if #names == 0 or not narrowed then names = nil end
  return { starts = starts, names = names, files = files and narrowed, empty = empty and narrowed }
end

-- Programs that only remove what find gives them: removing an empty
-- file or directory (find . -empty -delete) takes away no setting and
-- no hook.
local REMOVERS = { rm = true, rmdir = true, unlink = true }

-- Directory names that are taken as no pack's: find . -name
-- node_modules -exec rm -rf {} + is everyday cleaning.
local NOT_PACKS = { node_modules = true, __pycache__ = true, bower_components = true, venv = true,
                    bin = true, obj = true } -- bin and obj: .NET's build output

-- harmless says whether a find -name pattern cannot name anything
-- protected-settings guards: it matches no protected name, and either
-- ends in a literal extension no hook file has (*.pyc, *.tar.gz), or,
-- with -type f, cannot end in a hook file's extension (-name Makefile).
-- A name without an extension could be a pack's directory (-name
-- destructive), a pattern ending in a glob could be a hook file
-- ('destr*').
function Guard:harmless(pat, files, named_only)
  if type(pat) ~= "string" or is_dynamic(pat) then return false end
  for _, n in ipairs(self.names) do
    if self:matches(pat, n) then return false end
  end
  -- where no hook pack can be (the temporary directory that holds
  -- hookhost's socket, an agent's settings directory), the protected
  -- names are all there is to match
  if named_only then return true end
  local low = pat:lower()
  local tail = low:match("([^%*%?%[%]]*)$") -- the literal end, after the last glob character
  local glob = tail ~= low
  -- hookhost loads no directory whose name starts with a dot, and the
  -- well-known dependency and build directories are taken as no pack's.
  if not glob and (low:sub(1, 1) == "." or NOT_PACKS[low]) then return true end
  local ext = tail:match("%.([^./]+)$")
  if ext then return not HOOK_EXTS[ext] end
  if not files or tail == "" then return false end
  for e in pairs(HOOK_EXTS) do
    local dotted = "." .. e
    if tail:sub(-#dotted) == dotted or (glob and dotted:sub(-#tail) == tail) then return false end
  end
  return true
end

-- found says why changing what find finds needs asking: a start that is
-- protected or holds protected places, unless one of its -name tests
-- (all of which must hold) is harmless.
function Guard:found(scope, what)
  for _, s in ipairs(scope.starts) do
    local why = self:check(s, false)
    if why then return why end
    why = self:check(s, true)
    if why then
      local safe = false
      -- a hook pack's directory may have any name only where a hooks
      -- directory may be: the workspace, a home directory, the guardrails
      local packs = why:find("workspace", 1, true) or why:find("home directory", 1, true)
          or why:find("guardrails", 1, true) or why:find("the directory the agent works in", 1, true)
      for _, pat in ipairs(scope.names or {}) do
        if self:harmless(pat, scope.files, not packs) then safe = true end
      end
      if not safe then
        local named = scope.names and " (-name " .. table.concat(scope.names, " -name ") .. ")" or ""
        return why .. ", where " .. what .. " changes what find finds" .. named
      end
    end
  end
end

function Guard:find(cmd, scope)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    if a == "-delete" and not scope.empty then
      local why = self:found(scope, "find -delete")
      if why then return why end
    elseif a == "-fprint" or a == "-fprint0" or a == "-fls" or a == "-fprintf" then
      local why = self:check(cmd.argv[i + 1], true)
      if why then return why end
    end
  end
end

-- interp asks about interpreter code that names a protected place:
-- telling its reads from its writes is not reliable. The files its
-- delete calls name are checked as paths.
local MENTIONS = { ".claude", ".gemini", ".codex", ".cursor", ".github/hooks", ".copilot", ".picoclaw",
                   "hooks.d", "hookhost", "settings.json", "hooks.json", "config.toml" }
function Guard:interp(cmd)
  if cmd.lang == "" or cmd.lang == "sh" then return nil end
  for _, call in ipairs(cmd.calls) do
    if call.kind == "delete" or call.kind == "write" then
      for _, p in ipairs(call.paths) do
        local why = self:check(p.path, call.kind == "delete")
        if why then return why end
      end
    end
  end
  local code = (cmd.code or ""):lower()
  for _, m in ipairs(MENTIONS) do
    if code:find(m, 1, true) then return "code that names " .. m .. " (" .. cmd.name .. ")" end
  end
  -- Relative paths in code run inside a protected directory are in it.
  if code ~= "" and self.cwd and self:place(self.cwd, false) then
    return "code run in " .. self:place(self.cwd, false) .. " (" .. cmd.name .. ")"
  end
end

-- script checks the program awk or sed runs: an awk program that names
-- a protected place at all asks (print > "file", system()); for sed, the
-- files its w commands write count.
local AWKS = { awk = true, gawk = true, mawk = true, nawk = true }
function Guard:script(cmd)
  local progs = {}
  local ops, vals = args(cmd)
  if cmd.name == "sed" then
    progs[#progs + 1] = vals.e or vals.expression
    if not (vals.e or vals.expression or vals.f or vals.file) and ops[1] then progs[#progs + 1] = ops[1].raw end
  elseif not (vals.f or has(cmd.argv, "-f")) and ops[1] then
    progs[#progs + 1] = ops[1].raw
  end
  for _, prog in ipairs(progs) do
    if cmd.name == "sed" then -- the files its w and W commands and s///w write
      for file in prog:gmatch("[wW]%s*([^;}\n]+)") do
        local why = self:check(file:match("^(.-)%s*$"), false)
        if why then return why .. " (a sed w command)" end
      end
    else
      local low = prog:lower()
      for _, m in ipairs(MENTIONS) do
        if low:find(m, 1, true) then return "what the " .. cmd.name .. " program names (" .. m .. ")" end
      end
    end
  end
end

local TAR = { tar = true, bsdtar = true, gtar = true, unzip = true, ["7z"] = true, ["7za"] = true,
              ["7zr"] = true, cpio = true }
local COPIERS = { cp = true, mv = true, install = true, ln = true, rsync = true, scp = true }

-- container_cp turns docker cp, docker container cp, podman cp and
-- kubectl cp into a copy whose operands may be container:path.
local CONTAINERS = { docker = true, podman = true, nerdctl = true, kubectl = true }
local function container_cp(cmd)
  if not CONTAINERS[cmd.name] then return nil end
  local i = 2
  if cmd.argv[2] == "container" then i = 3 end
  if cmd.argv[i] ~= "cp" then return nil end
  local name = cmd.name == "kubectl" and "kubectl cp" or "docker cp"
  return { name = name, argv = { name, unpack(cmd.argv, i + 1) }, paths = { {}, unpack(cmd.paths, i + 1) },
           redirects = {}, calls = {}, lang = "", code = "", wrapped_by = {} }
end

-- sftp checks where sftp host:path [LOCAL] saves; a session that reads
-- its commands (-b, standard input) may get any file into the working
-- directory.
function Guard:sftp(cmd)
  local ops = args(cmd)
  if #ops >= 2 then
    local dest = ops[#ops].word
    local name = base(ops[1].word:match("^[^/]*:(.*)$") or "")
    local why = self:check(dest, true)
    if why or name == "" or is_glob(name) or is_dynamic(name) then return why end
    return self:check(dest .. "/" .. name, true)
  end
  local remote = ops[1] and ops[1].word:match("^[^/]*:(.+)$")
  if remote and not is_glob(remote) and not is_dynamic(remote) and base(remote) ~= "" then
    return self:check(base(remote), true)
  end
  return self:into(".", "sftp")
end

-- rclone checks the local paths a writing subcommand names: all of them
-- but a copy's source, each a place it writes files of unseen names
-- into (or deletes, or mounts over).
local RCLONE_WRITES = { copy = "skip", copyto = "skip", copyurl = "skip", sync = "skip", move = "all",
                        moveto = "all", bisync = "all", delete = "all", deletefile = "all", purge = "all",
                        rmdir = "all", rmdirs = "all", mkdir = "all", touch = "all", mount = "all",
                        nfsmount = "all", dedupe = "all", cleanup = "all", settier = "all" }
function Guard:rclone(cmd)
  local ops = {}
  for i = 2, #cmd.argv do
    if cmd.argv[i]:sub(1, 1) ~= "-" then ops[#ops + 1] = cmd.paths[i] and cmd.paths[i].path or cmd.argv[i] end
  end
  local mode = RCLONE_WRITES[ops[1] or ""]
  if not mode then return nil end
  for j = mode == "skip" and 3 or 2, #ops do
    if not ops[j]:match("^[%w_.-]*:") then
      local why = self:into(ops[j], "rclone " .. ops[1])
      if why then return why end
    end
  end
end

-- aria2c checks where it saves: -d DIR (default the working directory)
-- and -o NAME, else each URL's name; input files, torrents and
-- metalinks name files it cannot see.
function Guard:aria2c(cmd)
  local dir, out, blind = ".", nil, false
  for _, kv in ipairs(values(cmd, "dioTMsxjk")) do
    local k, v = kv[1], kv[2]
    if (k == "-d" or k == "--dir") and v then dir = v
    elseif (k == "-o" or k == "--out") and v then out = v
    elseif k == "-i" or k == "--input-file" or k == "-T" or k == "--torrent-file" or k == "-M"
        or k == "--metalink-file" then blind = true
    end
  end
  if out then return self:check(dir .. "/" .. out, true) end
  local us = urls(cmd)
  if blind or #us == 0 then return self:into(dir, "aria2c") end
  for _, u in ipairs(us) do
    local n = url_name(u)
    local why
    if n and not u:lower():match("%.torrent$") and not u:lower():match("%.meta4?$")
        and not u:lower():match("%.metalink$") then
      why = self:check(dir .. "/" .. n, true)
    else
      why = self:into(dir, "aria2c")
    end
    if why then return why end
  end
end

-- yq checks yq -i: it rewrites each file it names (the expression is no
-- file, and checking it too costs nothing).
function Guard:yq(cmd)
  if not shell.has_flag(cmd, "i", "inplace") then return nil end
  for _, o in ipairs(args(cmd)) do
    local why = self:check(o.word, false)
    if why then return why end
  end
end

-- output checks the option most programs write a file with (sort -o,
-- openssl -out, pandoc --output=, gpg -o, …): its value is a target.
local OUTPUT_OPTS = { ["-o"] = true, ["--output"] = true, ["-out"] = true, ["--out"] = true,
                      ["--output-file"] = true, ["--outfile"] = true, ["--out-file"] = true }
function Guard:output(cmd)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    local name, v = a:match("^(%-%-?[%w-]+)=(.+)$")
    if not name and OUTPUT_OPTS[a] then name, v = a, cmd.paths[i + 1] and cmd.paths[i + 1].path end
    if name and OUTPUT_OPTS[name] and v then
      local why = self:check(v, false)
      if why then return why end
    end
  end
end

-- writes_file reports whether a command redirects its output into a
-- file (sh -c 'cat /dev/null > {}' under find -exec).
local function writes_file(cmd)
  for _, r in ipairs(cmd.redirects) do
    local op, t = r.op, r.target
    if (op == ">" or op == ">>" or op == ">|" or op == "&>" or op == "&>>" or op == "<>")
        and t ~= "/dev/null" and t ~= "/dev/stdout" and t ~= "/dev/stderr" then
      return true
    end
  end
  return false
end

-- Programs find -exec may run on what it finds without changing it.
local FIND_READERS = {}
for _, n in ipairs({ "cat", "head", "tail", "grep", "egrep", "fgrep", "rg", "ls", "stat", "file", "wc",
                     "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "echo", "printf", "du",
                     "test", "[", "basename", "dirname", "readlink", "realpath", "diff", "cmp", "od", "xxd",
                     "hexdump", "strings", "less", "more", "jq", "true", "false", "nm", "objdump", "readelf",
                     "ldd", "tar" }) do
  FIND_READERS[n] = true
end

-- copy_reads_found reports whether cp or install, run by find -exec,
-- only read what find finds: {} is among their sources and not in their
-- destination (the last operand, or -t's directory), so they change
-- nothing find finds (find . -type f -exec cp {} /backup/ \;). Their
-- destination is a path like any other, checked as such. An option
-- cluster that may hide -t leaves the answer no.
-- (ln is not among them: a link to a found file is a way to write it.)
local COPY_READERS = { cp = true, install = true }
local function copy_reads_found(cmd)
  if not COPY_READERS[cmd.name] then return false end
  local operands, target, ended = {}, nil, false
  local i = 2
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if ended or a:sub(1, 1) ~= "-" or a == "-" then
      operands[#operands + 1] = a
    elseif a == "--" then
      ended = true
    elseif a == "-t" or a == "--target-directory" then
      target, i = cmd.argv[i + 1] or "{}", i + 1
    elseif a:match("^%-%-target%-directory=") then
      target = a:match("=(.*)$")
    elseif a:sub(1, 2) ~= "--" and a:find("t", 2, true) then
      return false -- -at DIR, -t/dir: read no further
    elseif (a == "-S" or a == "-m" or a == "-o" or a == "-g") then
      i = i + 1 -- the option's value
    end
    i = i + 1
  end
  local dest = target or (#operands >= 2 and operands[#operands])
  if not dest or dest:find("{}", 1, true) then return false end
  for _, o in ipairs(operands) do
    if o:find("{}", 1, true) then return true end
  end
  return false
end

-- Programs that stop processes by pid or name, and service managers:
-- stopping hookhost's auto server lets the agent bind its socket.
local KILLERS = { kill = true, pkill = true, killall = true, skill = true, slay = true, killall5 = false }
local SERVICES = { systemctl = true, service = true, launchctl = true, ["rc-service"] = true, sv = true }

-- What pkill -f matches a pattern against for the auto server: its
-- command line (the program's path, serve, the socket, the directory).
local SERVER_LINE = "/usr/local/bin/hookhost serve --http unix:/run/user/0/hookhost/serve-0.sock"
  .. " --idle-exit 10m0s --dir hooks.d --strict"

-- ere_finds says whether an extended regular expression could match in
-- s. Lua patterns read . * + ? ^ $ [ ] alike; a pattern with anything
-- else (| ( ) { } \, a class Lua cannot read) is taken to match.
local function ere_finds(re, s, whole)
  if re:find("[|(){}\\]") then return true end
  -- Many repeats could make the match backtrack past the hook's deadline.
  if select(2, re:gsub("[%*%+%?]", "")) > 4 then return true end
  local lua = re:gsub("[%%%-]", "%%%0")
  if whole then lua = "^" .. lua:gsub("^%^", ""):gsub("%$$", "") .. "$" end
  local ok, hit = pcall(string.find, s, lua)
  return not ok or hit ~= nil
end

-- first_operand returns a program's first operand, skipping options and
-- the values of the short (and long) options that take one.
local function first_operand(cmd, short, long)
  local i = 2
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if a == "--" then return cmd.argv[i + 1] end
    if a:sub(1, 1) ~= "-" or a == "-" then return a end
    if (#a == 2 and short:find(a:sub(2, 2), 1, true)) or (long[a] and not a:find("=", 1, true)) then
      i = i + 1
    end
    i = i + 1
  end
end

local PKILL_LONG = { ["--signal"] = true, ["--ns"] = true, ["--nslist"] = true, ["--pidfile"] = true,
                     ["--group"] = true, ["--pgroup"] = true, ["--parent"] = true, ["--session"] = true,
                     ["--terminal"] = true, ["--euid"] = true, ["--uid"] = true, ["--delimiter"] = true }
local KILLALL_LONG = { ["--user"] = true, ["--signal"] = true, ["--older-than"] = true,
                       ["--younger-than"] = true, ["--ns"] = true, ["--context"] = true }

-- stopper says why a command that stops processes needs asking: one of
-- its words (a name, a pattern, a substitution finding a pid) names
-- hookhost, pkill's or killall -r's pattern could match the auto
-- server, or it stops every process of a user (pkill -u me).
local function stopper(cmd)
  local n = cmd.name
  if not (KILLERS[n] or SERVICES[n]) then return nil end
  for i = 2, #cmd.argv do
    if cmd.argv[i]:lower():find("hookhost", 1, true) then
      return "hookhost's processes (" .. n .. " " .. cmd.argv[i] .. "), which decide what the guardrails answer"
    end
  end
  local pat, regex, subject, whole, fold
  if n == "pkill" then
    pat, regex = first_operand(cmd, "dgGPstuUF", PKILL_LONG), true
    subject = shell.has_flag(cmd, "f", "full") and SERVER_LINE or "hookhost"
    whole, fold = shell.has_flag(cmd, "x", "exact"), shell.has_flag(cmd, "i", "ignore-case")
  elseif n == "killall" then
    pat, regex, subject = first_operand(cmd, "usoyZn", KILLALL_LONG), shell.has_flag(cmd, "r", "regexp"), "hookhost"
    whole, fold = false, shell.has_flag(cmd, "I", "ignore-case")
  else
    return nil
  end
  if pat == nil then
    if shell.has_flag(cmd, "u", "user") or shell.has_flag(cmd, "U", "uid") or shell.has_flag(cmd, "", "euid")
        or shell.has_flag(cmd, "g", "pgroup") or shell.has_flag(cmd, "G", "group") then
      return "hookhost's processes, among every process " .. n .. " stops (" .. table.concat(cmd.argv, " ") .. ")"
    end
    return nil
  end
  if is_dynamic(pat) then
    return "processes named only at run time (" .. n .. " " .. pat .. "), which may be hookhost's"
  end
  if not regex then return nil end
  if fold then pat = pat:lower() end
  if ere_finds(pat, subject, whole) then
    return "hookhost's processes, which " .. n .. " " .. pat .. " matches"
  end
end

-- The socket directory's spellings the pack resolves: the variables a
-- shell would put there, then the directory itself.
local SOCKET_VARS = { { "%${xdg_runtime_dir[^}]*}", "/run/user/0" }, { "%$xdg_runtime_dir", "/run/user/0" },
                      { "%${tmpdir[^}]*}", "/tmp" }, { "%$tmpdir", "/tmp" }, { "%$%(id %-u%)", "0" },
                      { "%${e?uid}", "0" }, { "%$e?uid", "0" }, { "`id %-u`", "0" } }
-- hookhost-UID sits in the temporary directory: /tmp, macOS's
-- /var/folders/…/T, or wherever $TMPDIR points (then known by the
-- socket in it). A branch named feature/hookhost-15 is none of these.
local SOCKET_DIRS = { "/run/user/%d+/hookhost$", "/run/user/%d+/hookhost[^%w._-]", "^[^/]*/tmp/hookhost%-%d+$",
                      "^[^/]*/tmp/hookhost%-%d+[^%w._-]", "/t/hookhost%-%d+$", "/t/hookhost%-%d+[^%w._-]",
                      "hookhost%-%d+/[^/]*%.sock" }
-- Programs that may name the socket directory without touching it.
local SOCKET_READERS = { ls = true, stat = true, file = true, test = true, ["["] = true, echo = true,
                         printf = true, readlink = true, realpath = true }

-- socket says why a command whose words name the auto server's socket
-- directory needs asking: any program may bind a socket there (socat
-- UNIX-LISTEN:…, nc -lU …) and answer in hookhost's place.
local function socket(cmd)
  if SOCKET_READERS[cmd.name] then return nil end
  for i = 2, #cmd.argv do
    local w = cmd.argv[i]:lower():gsub("[\"']", "")
    for _, v in ipairs(SOCKET_VARS) do w = w:gsub(v[1], v[2]) end
    for _, pat in ipairs(SOCKET_DIRS) do
      if w:find(pat) then
        return "hookhost's auto-server socket directory (" .. cmd.name .. " " .. cmd.argv[i] .. ")"
      end
    end
  end
end

-- command says why one command of the line needs asking, or nil.
function Guard:command(cmd, finds)
  local n = cmd.name
  local why = self:redirects(cmd)
  if why then return why end
  -- The commands find -exec runs change what find finds, named {};
  -- those xargs runs get their arguments from its input.
  local by_find, by_xargs = #finds > 0 and has(cmd.wrapped_by, "find"), has(cmd.wrapped_by, "xargs")
  -- A program find runs that is not known to only read may change what
  -- find finds, named {} or not (a script, a wrapper).
  if by_find and (not FIND_READERS[n] or writes_file(cmd)) and not (REMOVERS[n] and finds[#finds].empty)
      and not (copy_reads_found(cmd) and not writes_file(cmd)) then
    why = self:found(finds[#finds], "find running " .. n)
    if why then return why end
  end
  if by_find or by_xargs then
    local stand_in = by_find and FOUND or INPUT
    local argv, paths = {}, {}
    local any = false
    for i, a in ipairs(cmd.argv) do
      if a:find("{}", 1, true) then
        any = true
        argv[i], paths[i] = stand_in, { path = stand_in }
      else
        argv[i], paths[i] = a, cmd.paths[i]
      end
    end
    if by_xargs and not any then
      argv[#argv + 1], paths[#paths + 1], any = INPUT, { path = INPUT }, true
    end
    if any then
      local probe = { name = n, argv = argv, paths = paths, redirects = {}, calls = {}, lang = "", code = "",
                      wrapped_by = {} }
      local saved = self.found_scope
      self.found_scope = by_find and finds[#finds] or saved
      if by_find and REMOVERS[n] and self.found_scope.empty then
        self.found_scope = { starts = {} } -- it removes only empty files and directories: none that matters
      end
      why = self:command(probe, {})
      self.found_scope = saved
      if why then return why end
      return nil
    end
  end
  why = stopper(cmd) or socket(cmd)
  if why then return why end
  local ccp = container_cp(cmd)
  if ccp then why = self:copy(ccp)
  elseif COPIERS[n] then why = self:copy(cmd)
  elseif n == "sftp" then why = self:sftp(cmd)
  elseif n == "rclone" then why = self:rclone(cmd)
  elseif n == "aria2c" then why = self:aria2c(cmd)
  elseif n == "yq" then why = self:yq(cmd)
  elseif CHANGERS[n] ~= nil or MODERS[n] then why = self:changer(cmd)
  elseif n == "sed" or n == "perl" or n == "ruby" then why = self:inplace(cmd) or (n == "sed" and self:script(cmd))
  elseif AWKS[n] then why = self:script(cmd)
  elseif n == "dd" then why = self:dd(cmd)
  elseif n == "curl" or n == "wget" then why = self:download(cmd)
  elseif TAR[n] then why = self:archive(cmd)
  elseif n == "git" then why = self:git(cmd)
  elseif n == "patch" then why = self:patch(cmd)
  elseif n == "find" then why = self:find(cmd, finds[#finds])
  elseif n == "claude" and cmd.argv[2] == "config" and cmd.argv[3] ~= "get" and cmd.argv[3] ~= "list" then
    why = "Claude Code's settings (claude " .. table.concat(cmd.argv, " ", 2) .. ")"
  end
  if why then return why end
  why = self:output(cmd)
  if why then return why end
  return self:interp(cmd)
end

-- PowerShell (Copilot CLI's powershell tool): its lines reach the checks
-- through shell.powershell (backslashes made slashes, $env:USERPROFILE
-- as ~, an assignment's right side as the statement), and its cmdlets
-- that write are judged as the POSIX programs that write the same way:
-- Remove-Item as rm, Set-Content as tee, Copy-Item as cp, …
-- The tables below are built on the first PowerShell line an
-- interpreter sees: most processes see none, and a table's keys cost
-- every process that builds it. as maps a cmdlet (or its alias) to the
-- program it writes like; params says, for that program, which of the
-- cmdlet's parameters and positions are its operands (source of a copy
-- or move, target); switches are the parameters that take no value.
local powershell_tables
local function ps_tables()
  if powershell_tables then return powershell_tables end
  local targets = { "-path", "-literalpath", "-filepath", "-lp", "-pspath" }
  powershell_tables = {
    as = { ["remove-item"] = "rm", ri = "rm", rd = "rm", del = "rm", erase = "rm",
           ["set-content"] = "tee", ["add-content"] = "tee", ["clear-content"] = "tee", ["out-file"] = "tee",
           ["new-item"] = "touch", ni = "touch", ["copy-item"] = "cp", copy = "cp", cpi = "cp",
           ["move-item"] = "mv", move = "mv", mi = "mv", ["rename-item"] = "rename", ren = "rename",
           rni = "rename", ["expand-archive"] = "unzip", ["invoke-webrequest"] = "curl", iwr = "curl",
           ["invoke-restmethod"] = "curl", irm = "curl", ["stop-process"] = "pkill", spps = "pkill",
           ["set-itemproperty"] = "tee", sp = "tee", sc = "tee", ac = "tee", clc = "tee", ["tee-object"] = "tee",
           taskkill = "pkill", xcopy = "cp", robocopy = "rsync", mklink = "ln", icacls = "chattr", attrib = "chattr" },
    params = {
      rm = { targets = targets, positions = { "target", "target", "target" } },
      tee = { targets = targets, positions = { "target" } },
      touch = { targets = targets, positions = { "target" } },
      cp = { sources = targets, targets = { "-destination" }, positions = { "source", "target" } },
      mv = { sources = targets, targets = { "-destination" }, positions = { "source", "target" } },
      rename = { sources = targets, targets = { "-newname" }, positions = { "source", "target" } },
      unzip = { sources = targets, targets = { "-destinationpath" }, positions = { "source", "target" } },
      curl = { targets = { "-outfile" }, positions = {} },
      pkill = { targets = { "-name", "-processname", "-n", "/im" }, positions = {} },
      rsync = { positions = { "source", "target" } },
      ln = { positions = { "target", "source" } }, -- mklink LINK TARGET: ln TARGET LINK
      chattr = { positions = { "target", "target" } },
    },
    -- matched by any prefix (-fo is -Force): PowerShell takes an
    -- abbreviation, and a switch read as taking a value would hide the
    -- path after it
    switches = { "-force", "-recurse", "-append", "-nonewline", "-passthru", "-whatif", "-confirm", "-noclobber",
                 "-container", "-usebasicparsing", "-verbose", "-debug", "-asjob", "-wait", "-raw" },
  }
  return powershell_tables
end

-- ps_param says which of names a parameter word is: the name itself or
-- a prefix of it of three letters or more (-Dest for -Destination).
-- ps_switch reports whether a parameter is a switch or a prefix of one.
local function ps_switch(word, switches)
  for _, n in ipairs(switches) do
    if #word >= 2 and n:sub(1, #word) == word then return true end
  end
  return false
end

local function ps_param(word, names)
  for _, n in ipairs(names or {}) do
    if word == n or (#word >= 3 and n:sub(1, #word) == word) then return true end
  end
  return false
end

-- powershell_command returns the POSIX command a cmdlet writes like,
-- with the cmdlet's words in the places that program reads them (their
-- paths entries kept, so a variable stays one), or nil.
local function powershell_command(cmd, upstream, g)
  local ps = ps_tables()
  local as = ps.as[cmd.name:lower()]
  if not as then return nil end
  local spec = ps.params[as]
  local sources, targets, positional, recurse = {}, {}, {}, false
  local function entry(i, text)
    local p = cmd.paths[i]
    if text and text ~= cmd.argv[i] then return { path = text, prefix = text, glob = false, dynamic = is_dynamic(text) } end
    return p or { path = cmd.argv[i], prefix = cmd.argv[i], glob = false, dynamic = false }
  end
  local windows_tool = as == "rsync" or as == "ln" or as == "chattr" or cmd.name:lower() == "xcopy"
      or cmd.name:lower() == "taskkill"
  local mirror = false
  local i = 2
  while i <= #cmd.argv do
    local low = cmd.argv[i]:lower()
    local name, attached = low:match("^(%-[%w]+):(.+)$")
    name = name or low
    if as == "rm" and low:match("^/[%a?][/%a?]*$") then
      recurse = recurse or low:find("s", 1, true) ~= nil -- cmd.exe's rd /s, del /s; /q and the others change nothing written
      i = i + 1
    elseif (as == "cp" or as == "mv" or as == "rename") and low:match("^/%-?[%a?]$") then
      i = i + 1 -- cmd.exe's copy /y, /-y, /b, move /y: a switch, not a source
    elseif windows_tool and low:match("^/[%a?]") then
      -- a Windows program's switch (robocopy /MIR, taskkill /IM NAME)
      mirror = mirror or low == "/mir" or low == "/purge"
      if ps_param(low, spec.targets) and cmd.argv[i + 1] then
        targets[#targets + 1] = { word = cmd.argv[i + 1], entry = entry(i + 1) }
        i = i + 1
      end
      i = i + 1
    elseif windows_tool and (low:match("^[+-]%a$") or low:match("^%a+:%(")) then
      i = i + 1 -- attrib +r, icacls Everyone:(R)
    elseif name:sub(1, 1) == "-" and #name > 1 and not name:match("^%-%d") then
      local into = (ps_param(name, spec.targets) and targets) or (ps_param(name, spec.sources) and sources)
      if ("-recurse"):sub(1, #name) == name and #name >= 2 then recurse = true end
      local value_at = attached and i or (not ps_switch(name, ps.switches) and i + 1)
      if into and value_at and cmd.argv[value_at] then
        local text = attached and cmd.argv[i]:sub(#name + 2) or nil
        -- a list of paths (-Path a,b)
        for part in (text or cmd.argv[value_at]):gmatch("[^,]+") do
          into[#into + 1] = { word = part, entry = entry(value_at, part) }
        end
      end
      i = value_at and not attached and i + 2 or i + 1
    else
      positional[#positional + 1] = { word = cmd.argv[i], entry = entry(i) }
      i = i + 1
    end
  end
  for k, w in ipairs(positional) do
    local role = spec.positions[k]
    if role == "target" then targets[#targets + 1] = w elseif role == "source" then sources[#sources + 1] = w end
  end
  -- New-Item -ItemType SymbolicLink/HardLink/Junction -Target X makes a link
  if as == "touch" then
    for k = 2, #cmd.argv - 1 do
      local t = cmd.argv[k]:lower() == "-itemtype" and cmd.argv[k + 1]:lower()
      if t and (t:find("link", 1, true) or t == "junction") then
        as = "ln"
        for m = 2, #cmd.argv - 1 do
          local p = cmd.argv[m]:lower()
          if p == "-target" or p == "-value" then sources[#sources + 1] = { word = cmd.argv[m + 1], entry = entry(m + 1) } end
        end
      end
    end
  end
  -- what the command before it in its pipeline lists, when it is given no
  -- path: gci .github\hooks | Remove-Item deletes what is in the directory
  if #targets == 0 and as == "pkill" and upstream then
    local up = upstream.name:lower()
    if up == "get-process" or up == "gps" or up == "ps" then -- Get-Process hookhost | Stop-Process
      for k = 2, #upstream.argv do
        if upstream.argv[k]:sub(1, 1) ~= "-" then targets[#targets + 1] = { word = upstream.argv[k], entry = upstream.paths[k] } end
      end
    end
  end
  if #targets == 0 and #sources == 0 and upstream and (as == "rm" or as == "tee") then
    local up = upstream.name:lower()
    if up == "get-childitem" or up == "gci" or up == "dir" or up == "ls" or up == "get-item" or up == "gi" then
      -- a -Filter or -Include whose patterns cannot name anything guarded
      -- (*.log, bin, obj) lists nothing this pack protects, as find's
      -- -name does (harmless)
      local patterns, files = {}, nil
      for k = 2, #upstream.argv do
        local a = upstream.argv[k]:lower()
        if (a == "-filter" or a == "-include") and upstream.argv[k + 1] then
          for pat in upstream.argv[k + 1]:gmatch("[^,]+") do patterns[#patterns + 1] = pat end
        end
        if a == "-file" then files = true end
      end
      local narrow = #patterns > 0
      for _, pat in ipairs(patterns) do
        if not g:harmless(pat, files) then narrow = false end
      end
      if narrow then return nil end
      for k = 2, #upstream.argv do
        local w = upstream.argv[k]
        if w:sub(1, 1) ~= "-" and (k == 2 or upstream.argv[k - 1]:sub(1, 1) ~= "-" or upstream.argv[k - 1]:lower() == "-path") then
          targets[#targets + 1] = { word = w, entry = upstream.paths[k] }
        end
      end
      if #targets == 0 then targets[1] = { word = ".", entry = { path = ".", prefix = ".", glob = false, dynamic = false } } end
      recurse = true
    end
  end
  local argv, paths = { as }, { { path = as, prefix = as, glob = false, dynamic = false } }
  local function add(w) argv[#argv + 1], paths[#paths + 1] = w.word, w.entry end
  local function flag(f) add({ word = f, entry = { path = f, prefix = f, glob = false, dynamic = false } }) end
  if as == "rsync" then
    flag("-a")
    if mirror then flag("--delete") end
  end
  if as == "rm" and recurse then add({ word = "-r", entry = { path = "-r", prefix = "-r", glob = false, dynamic = false } }) end
  if as == "unzip" then
    if targets[1] then add({ word = "-d", entry = { path = "-d", prefix = "-d", glob = false, dynamic = false } }); add(targets[1]) end
    for _, w in ipairs(sources) do add(w) end
  elseif as == "curl" then
    for _, w in ipairs(targets) do
      add({ word = "-o", entry = { path = "-o", prefix = "-o", glob = false, dynamic = false } }); add(w)
    end
  elseif as == "rename" then
    -- Rename-Item's new name is in the item's own directory
    local src, new = sources[1], targets[1]
    if not (src and new) then return nil end
    local dir = src.word:match("^(.*)/[^/]*$")
    local to = dir and (dir .. "/" .. new.word) or new.word
    add(src); add({ word = to, entry = { path = to, prefix = to, glob = false, dynamic = src.entry.dynamic or new.entry.dynamic } })
    as, argv[1] = "mv", "mv"
  else
    add({ word = "--", entry = { path = "--", prefix = "--", glob = false, dynamic = false } })
    for _, w in ipairs(sources) do add(w) end
    for _, w in ipairs(targets) do add(w) end
  end
  return { name = as, argv = argv, paths = paths, redirects = cmd.redirects, calls = cmd.calls, lang = "",
           code = "", wrapped_by = cmd.wrapped_by, dir = cmd.dir, alt_dirs = cmd.alt_dirs,
           pipeline = cmd.pipeline, position = cmd.position }
end

-- windows_shell reports whether PowerShell or cmd.exe runs cmd.
local WINDOWS_SHELLS = shell.windows_shells
local function windows_shell(cmd)
  for _, w in ipairs(cmd.wrapped_by) do
    if WINDOWS_SHELLS[w:lower()] then return true end
  end
  return false
end

-- fed_by_find returns the scope of the find whose output cmd, run by
-- xargs, reads (find . -name '*.orig' | xargs rm): the find just before
-- it in its pipeline. What xargs reads is then what that find finds.
local function fed_by_find(cmd, piped)
  if not has(cmd.wrapped_by, "xargs") then return nil end
  return piped[cmd.pipeline .. ":" .. (cmd.position - 1)]
end

-- lister_scope returns, for a command that prints file names an xargs
-- after it may change, the scope find_scope would give a find listing
-- the same files, or nil: grep -l/-rl/-L, rg -l/--files, ag -l and git
-- grep -l list files under their path operands (. without one), those
-- --include/-g globs name; ls lists its operands; git ls-files its
-- patterns, at any depth. grep -rl X src | xargs sed -i … changes only
-- files in src.
local LISTING = { ["-l"] = true, ["-L"] = true, ["--files-with-matches"] = true,
                  ["--files-without-match"] = true, ["--files"] = true }
local function lister_scope(cmd)
  local n, argv = cmd.name, cmd.argv
  local git_sub = n == "git" and argv[2]
  if not (n == "grep" or n == "egrep" or n == "fgrep" or n == "rg" or n == "ag" or n == "ls"
          or git_sub == "grep" or git_sub == "ls-files") then
    return nil
  end
  local lists = n == "ls" or git_sub == "ls-files"
  local starts, names = {}, {}
  for i = 2, #argv do
    local a, role = argv[i], cmd.roles[i]
    local flags = a:match("^%-(%a+)$")
    if LISTING[a] or (flags and flags:find("[lL]") and n ~= "ls") then lists = true end
    local glob = a:match("^%-%-include=(.+)$") or a:match("^%-%-glob=(.+)$")
        or ((argv[i - 1] == "-g" or argv[i - 1] == "--glob" or argv[i - 1] == "--include") and a)
    if glob then names[#names + 1] = glob end
    if role == "operand" and not (git_sub and i == 2) and a ~= "--" then
      if git_sub == "ls-files" then
        names[#names + 1] = a
      elseif n == "ls" and cmd.paths[i].glob then
        starts[#starts + 1] = path.dir(cmd.paths[i].path)
        names[#names + 1] = a:match("([^/]*)$")
      else
        starts[#starts + 1] = cmd.paths[i].path
      end
    end
  end
  if not lists then return nil end
  if #starts == 0 then starts = { "." } end
  return { starts = starts, names = #names > 0 and names or nil, files = true, empty = false }
end

-- line says why a shell line needs asking, or nil.
function Guard:line(cmds)
  local finds, piped, start = {}, {}, self.cwd
  local last = {} -- the last command of each pipeline so far
  for _, cmd in ipairs(cmds) do
    local upstream = cmd.position > 0 and last[cmd.pipeline] or nil
    last[cmd.pipeline] = cmd
    -- a PowerShell line, or one PowerShell or cmd.exe runs (powershell -c
    -- "…", cmd /c …, which the shell module reports wrapped by them)
    if self.powershell or windows_shell(cmd) then cmd = powershell_command(cmd, upstream, self) or cmd end
    self:enter(cmd.dir, start)
    if cmd.name == "find" then
      finds[#finds + 1] = find_scope(cmd)
      piped[cmd.pipeline .. ":" .. cmd.position] = finds[#finds]
    else
      piped[cmd.pipeline .. ":" .. cmd.position] = lister_scope(cmd)
    end
    local feeder = fed_by_find(cmd, piped)
    if feeder then
      -- judged as find -exec CMD {} + over that find's scope
      cmd = { name = cmd.name, argv = cmd.argv, paths = cmd.paths, redirects = cmd.redirects, calls = cmd.calls,
              lang = cmd.lang, code = cmd.code, wrapped_by = { "find" }, roles = cmd.roles }
    end
    local why = self:command(cmd, feeder and { feeder } or finds)
    if why then return why end
    -- where it runs should a cd before it fail and the line go on
    for _, dir in ipairs(cmd.alt_dirs or {}) do
      self:enter(dir, start)
      why = self:command(cmd, feeder and { feeder } or finds)
      if why then return why .. " (where it runs if a cd before it fails)" end
    end
  end
  self.cwd = start
end

-- tool_paths returns the paths a tool call names (tool.paths: file_path,
-- path, … and an apply_patch body's files), those a unified diff in its
-- input or patch names, and those under EXTRA_PATH_KEYS.
local function tool_paths(tool_name, params, ctx)
  local out = tool.paths(tool_name, params, nil, ctx.config)
  if type(params) ~= "table" then return out end
  for _, k in ipairs(EXTRA_PATH_KEYS) do
    if type(params[k]) == "string" then out[#out + 1] = params[k] end
  end
  local text = params.input or params.patch
  if type(text) == "string" then
    for _, p in ipairs(patch_names(text)) do out[#out + 1] = p end
  end
  return out
end

local function ask(why)
  return hook.ask("the agent wants to change " .. why .. ", which controls its own guardrails",
    { title = "Agent settings", severity = "high" })
end

-- kind_of is the kind of a tool call; for an MCP tool, the kind of the
-- server's tool (mcp__filesystem__write_file writes).
local function kind_of(tool_name, ctx)
  local kind = tool.kind(tool_name, ctx.config)
  local m = kind == "mcp" and tool.mcp(tool_name)
  if m and m.tool ~= "" then kind = tool.kind(m.tool, ctx.config) end
  return kind
end

-- guard answers a tool call at tool.execute.pre and tool.approve.
local function guard(tool_name, params, cwd, ctx)
  local kind = kind_of(tool_name, ctx)
  local g = new_guard(ctx, cwd)
  if kind == "shell" then
    -- A patch a shell call carries writes the files it names: Codex runs
    -- ["apply_patch", BODY] through its shell tool, and models write
    -- apply_patch <<'EOF' in a line (tool.paths gives those files).
    for _, p in ipairs(tool.paths(tool_name, params, nil, ctx.config)) do
      local abs = g:absolute(p)
      local what = abs and g:place(abs, true)
      if what then return ask(what .. " (" .. p .. ")") end
    end
    local line = tool.command(params)
    if not line then return nil end
    local dir = tool.dir(params) -- Codex's workdir, Gemini CLI's dir_path, Cursor's cwd…
    if dir then g:move_to(dir) end
    -- shopt -s dotglob, or GLOBIGNORE set, lets * match .claude.
    g.dotglob = line:find("dotglob", 1, true) ~= nil or line:find("GLOBIGNORE", 1, true) ~= nil
    if #line > shell.max_line_bytes then
      return hook.ask(("the command is %d bytes, more than the %d the shell parser reads, so it was not checked"
        .. " for changes to the agent's guardrails; run it anyway?"):format(#line, shell.max_line_bytes),
        { title = "Agent settings", severity = "high" })
    end
    if tool.shell(tool_name, ctx.config) == "powershell" then
      line, g.powershell = shell.powershell(line), true
    else
      -- a POSIX shell with a Windows working directory: Git Bash
      g.gitbash = type(cwd) == "string" and cwd:match("^%a:[/\\]") ~= nil
    end
    local ok, cmds = pcall(shell.parse, line)
    if not ok then
      -- the parts that parse say what can be known; the rest asks
      local sok, s = pcall(shell.salvage, line)
      local sok2, why = false, nil
      if sok then sok2, why = pcall(g.line, g, s.commands) end
      if sok2 and why then return ask(why) end
      -- the parser's message, not where in this file it was called
      local msg = tostring(cmds):gsub("^.-%.lua:%d+: ", ""):gsub("^shell%.parse: ", "")
      return hook.ask("the command could not be checked for changes to the agent's guardrails (it does not parse: "
        .. msg .. "); run it anyway?", { title = "Agent settings", severity = "high" })
    end
    local ok2, why = pcall(g.line, g, cmds)
    if not ok2 then
      if why ~= TOO_MUCH then error(why, 0) end
      return hook.ask("the command names too many paths to check for changes to the agent's guardrails;"
        .. " run it anyway?", { title = "Agent settings", severity = "high" })
    end
    if why then return ask(why) end
    return nil
  end
  if kind == "read" or kind == "fetch" or kind == "search" then return nil end
  local writes = kind == "write" or kind == "edit" or kind == "patch"
  local windows = type(cwd) == "string" and cwd:match("^%a:[/\\]") ~= nil
  for _, p in ipairs(tool_paths(tool_name, params, ctx)) do
    if windows or p:find("\\", 1, true) or p:match("^%a:") then
      -- A Windows path (Copilot CLI's create on Windows): backslashes
      -- separate, and a name may end in dots or be a short 8.3 name
      -- (windows_variants) that the file system reads as the long one.
      -- \\?\C:\x, \\localhost\C$\x, x::$DATA, x.; C:x is x in drive C's
      -- current directory
      local q = path.windows(p):gsub("^%a:([^/])", "%1")
      for _, v in ipairs(windows_variants(q) or { q }) do
        local why = g:judge_one(v, writes)
        if why then return ask((why:gsub(" %(" .. v:gsub("%p", "%%%0") .. "%)$", " (" .. p:gsub("%%", "%%%%") .. ")"))) end
      end
    else
      -- A tool's path is not a shell word: no glob or variable in it is
      -- expanded, and only a ~ may be.
      local abs = g:absolute(p)
      local what = abs and g:place(abs, writes)
      if what then return ask(what .. " (" .. p .. ")") end
    end
  end
end

hook.on("tool.execute.pre", guard, { name = "protect-agent-settings", priority = 95, timeout = "2s" })

-- tool.approve (PicoClaw's approve_tool, Claude Code's and Codex's
-- PermissionRequest) gets the same answer: ask, which Claude Code and
-- Codex leave to their own permission dialog and PicoClaw, which cannot
-- ask, refuses.
hook.on("tool.approve", guard, { name = "protect-agent-settings-approval", priority = 95, timeout = "2s" })

hook.on("file.save.pre", function(path, ctx) -- the payload's path, bound by name
  local g = new_guard(ctx, nil)
  local what = type(path) == "string" and path ~= "" and g:place(g:absolute(path) or path, false)
  if what then
    return hook.deny("refusing to change " .. what .. " (" .. path .. "), which controls the agent's guardrails")
  end
end, { name = "deny-saving-agent-settings", priority = 95 })
