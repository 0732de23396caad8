-- Ask before git commands that throw work away, which are legitimate
-- often enough that refusing them would be wrong:
--   * a forced push (--force, -f, --force-with-lease, --force-if-includes,
--     --mirror, or a +refspec) to a protected branch, or to whatever the
--     current branch is when no refspec names one; deleting a protected
--     branch on the remote (--delete main, :main);
--   * git reset --hard;
--   * git clean -f (any -f: -fd, -fdx, --force);
--   * discarding working-tree changes: git checkout -- <paths>,
--     git checkout . (and -f), git restore <paths> unless only --staged
--     is restored, git switch --discard-changes / -f;
--   * git stash drop and git stash clear;
--   * git branch -D (or --delete --force);
--   * moving or resetting a protected branch (git branch -f main X,
--     git checkout -B main, git switch -C main, git update-ref of it),
--     deleting a ref (git update-ref -d), a push that deletes what the
--     remote has and the local repository does not (--prune);
--   * history rewritten (git filter-branch, git filter-repo), and the
--     way back to discarded commits removed (git reflog expire or delete
--     of now, git gc --prune=now, git prune).
-- git push --force to a feature branch, git branch -d, git checkout -b,
-- git restore --staged and the like pass. The line is parsed with the
-- shell module, so sudo, bash -c, eval, wrappers and quoting do not hide
-- a command, and text that is only data (a commit message) is not one.
--
-- Settings (ctx.config): see HOOK.md, which holds their defaults.
local shell = require("shell")
local tool = require("tool")
local setting = require("setting")

-- subcommand returns git's subcommand and the argv from it on
-- ({"push", "-f", "origin", "main"}), with the roles of those words, or
-- nil. The shell module's roles know git's global options (git -C DIR,
-- -c k=v) and that after --version, --help or -h git runs nothing.
local function subcommand(cmd)
  for i = 2, #cmd.argv do
    if cmd.roles[i] == "subcommand" then
      local rest, roles = {}, {}
      for j = i, #cmd.argv do rest[#rest + 1], roles[#roles + 1] = cmd.argv[j], cmd.roles[j] end
      return rest, roles, cmd.paths[i].dynamic
    end
  end
  return nil
end

local function has_word(list, x)
  for _, v in ipairs(list or {}) do if v == x then return true end end
  return false
end

-- quote makes a word one shell word.
local function quote(w) return "'" .. w:gsub("'", "'\\''") .. "'" end

-- expand returns the subcommand and argv of git VALUE ARGS… (a git
-- alias's value followed by the words after its name), with their
-- roles, or nil when that is no git command.
local function expand(value, args)
  local line = { "git", value }
  for j = 2, #args do line[#line + 1] = quote(args[j]) end
  local ok, cmds = pcall(shell.parse, table.concat(line, " "))
  if ok and cmds[1] and cmds[1].name == "git" then return subcommand(cmds[1]) end
end

-- unalias returns the subcommand and argv an alias stands for, with
-- their roles: one given on the command line (git -c
-- alias.nuke='reset --hard' nuke is git reset --hard), or one an
-- earlier git config alias.NAME VALUE on the line defined (known);
-- args and roles unchanged when the subcommand is no such alias. An
-- alias running a shell (alias.x='!…') is destructive.lua's to judge.
local function unalias(cmd, args, roles, known)
  local want = args[1]:lower()
  for i = 2, #cmd.argv - 1 do
    local name, value = cmd.argv[i + 1]:match("^alias%.([^=]+)=(.*)$")
    if cmd.argv[i] == "-c" and name and name:lower() == want and value:sub(1, 1) ~= "!" then
      local a, r = expand(value, args)
      if a then return a, r end
    end
  end
  local value = known[want]
  if value and value:sub(1, 1) ~= "!" then
    local a, r = expand(value, args)
    if a then return a, r end
  end
  return args, roles
end

-- config_alias returns the NAME and VALUE git config [--global|…]
-- alias.NAME VALUE defines, or nil.
local function config_alias(args)
  if args[1] ~= "config" then return nil end
  for i = 2, #args - 1 do
    local name = args[i]:match("^alias%.(.+)$")
    if name then return name:lower(), args[i + 1] end
  end
end

-- shell_alias returns the value of a shell alias the line defined that
-- cmd uses (alias g=git; g reset --hard), or nil.
local function shell_alias(cmd, aliases)
  if #cmd.wrapped_by > 0 then return nil end
  return aliases[cmd.argv[1]]
end

-- operands returns the words after the subcommand that are not options,
-- and those after a "--".
local function operands(args, roles)
  local ops, after, ended = {}, {}, false
  for i = 2, #args do
    local a = args[i]
    if ended then
      after[#after + 1] = a
    elseif a == "--" then
      ended = true
    elseif not roles or roles[i] == "operand" then -- not an option's value (checkout -b x, commit -m x)
      ops[#ops + 1] = a
    end
  end
  return ops, after, ended
end

local function flag(args, short, long)
  return shell.has_flag(args, short, long)
end

-- value_of returns the value of option -S (-S x, -Sx) or --long
-- (--long x, --long=x), or nil; short or long may be nil.
local function value_of(args, short, long)
  for i = 2, #args do
    local a = args[i]
    if a == "--" then return nil end
    if (short and a == "-" .. short) or (long and a == long) then return args[i + 1] end
    if long and a:sub(1, #long + 1) == long .. "=" then return a:sub(#long + 2) end
    if short and a:sub(1, 2) == "-" .. short and #a > 2 then return a:sub(3) end
  end
  return nil
end

-- a protected branch, as a branch name or its full ref
local function is_protected(protected, name)
  return type(name) == "string" and protected[(name:gsub("^refs/heads/", ""))] == true
end

local function long_flag(args, name)
  for i = 2, #args do
    local a = args[i]
    if a == "--" then return false end
    if a == name or a:sub(1, #name + 1) == name .. "=" then return true end
  end
  return false
end

-- branch_of returns the remote branch a refspec updates and whether the
-- refspec forces: "+HEAD:refs/heads/main" is main, forced.
local function branch_of(refspec)
  local forced = refspec:sub(1, 1) == "+"
  if forced then refspec = refspec:sub(2) end
  local dst = refspec:match(":(.*)$") or refspec
  dst = dst:gsub("^refs/heads/", "")
  return dst, forced, refspec:sub(1, 1) == ":"
end

local function push(args, protected, roles)
  local forced = flag(args, "f", "force") or long_flag(args, "--force-with-lease")
      or long_flag(args, "--force-if-includes") or long_flag(args, "--mirror")
  local deleting = flag(args, "d", "delete")
  if long_flag(args, "--prune") then
    return "git push --prune, which deletes the remote's branches that the local repository does not have"
  end
  local ops = operands(args, roles)
  local refspecs = {}
  for i = 2, #ops do refspecs[#refspecs + 1] = ops[i] end -- ops[1] is the remote
  if (forced or deleting) and #refspecs == 0 then
    if long_flag(args, "--mirror") then return "a mirror push, which overwrites every branch of the remote" end
    if forced then return "a forced push of the current branch, which may be " .. protected.names end
  end
  for _, r in ipairs(refspecs) do
    local branch, plus, delete = branch_of(r)
    if (branch == "HEAD" or branch == "@") and (forced or plus) then
      return "a forced push of the current branch, which may be " .. protected.names
    end
    if protected[branch] then
      if forced or plus then return "a forced push to " .. branch end
      if deleting or delete then return "deleting the remote branch " .. branch end
    end
  end
end

local function checkout(args, protected, roles)
  local ops, after, ended = operands(args, roles)
  local reset = value_of(args, "B")
  if is_protected(protected, reset) then
    return "git checkout -B " .. reset .. ", which resets the branch " .. reset .. " to the start point, dropping its commits"
  end
  if flag(args, "b") or flag(args, "B") or long_flag(args, "--orphan") then
    if ended and #after > 0 then return "checking out " .. table.concat(after, " ") .. " over the working tree" end
    return nil
  end
  if ended and #after > 0 then return "discarding changes to " .. table.concat(after, " ") end
  for _, o in ipairs(ops) do
    -- a word only a path can be: no ref is ., starts with ./ or ../, or globs
    if o == "." or o == ".." or o == ":/" or o:find("[*?]") or o:sub(1, 2) == "./" or o:sub(1, 3) == "../" then
      return "discarding changes to " .. o
    end
  end
  -- git checkout <ref> <paths>: the paths are overwritten from <ref>
  -- (git checkout main alone switches branches and keeps changes)
  if #ops >= 2 then
    local paths = {}
    for i = 2, #ops do paths[#paths + 1] = ops[i] end
    return "overwriting " .. table.concat(paths, " ") .. " with their version in " .. ops[1]
  end
  if flag(args, "f", "force") then return "a forced checkout, which discards local changes" end
end

local function restore(args, _, roles)
  local staged = flag(args, "S", "staged")
  local worktree = flag(args, "W", "worktree")
  if staged and not worktree then return nil end
  local ops, after = operands(args, roles)
  local what = #after > 0 and table.concat(after, " ") or table.concat(ops, " ")
  if what == "" then return nil end
  return "discarding working-tree changes to " .. what
end

local RULES = {
  push = push,
  reset = function(args)
    if long_flag(args, "--hard") then return "git reset --hard, which discards uncommitted changes" end
    if long_flag(args, "--merge") or long_flag(args, "--keep") then
      return "git reset " .. (long_flag(args, "--merge") and "--merge" or "--keep")
          .. ", which resets the working tree's files that differ between HEAD and the target"
    end
  end,
  worktree = function(args, _, roles)
    local ops = operands(args, roles)
    if (ops[1] == "remove" or ops[1] == "rm") and flag(args, "f", "force") then
      return "git worktree remove --force, which deletes a worktree with its uncommitted changes"
    end
  end,
  clean = function(args) if flag(args, "f", "force") then return "git clean -f, which deletes untracked files" end end,
  checkout = checkout,
  restore = restore,
  switch = function(args, protected)
    if flag(args, "f", "force") or long_flag(args, "--discard-changes") then return "switching branches discarding local changes" end
    local reset = value_of(args, "C", "--force-create")
    if is_protected(protected, reset) then
      return "git switch -C " .. reset .. ", which resets the branch " .. reset .. " to the start point, dropping its commits"
    end
  end,
  stash = function(args)
    if args[2] == "drop" or args[2] == "clear" then return "git stash " .. args[2] .. ", which loses stashed work" end
  end,
  branch = function(args, protected, roles)
    if flag(args, "D") or (flag(args, "d", "delete") and flag(args, "f", "force")) then
      return "git branch -D, which deletes a branch that may not be merged"
    end
    -- git branch -f main X moves main; git branch -M main renames the
    -- current branch to main, as every new repository's setup does: it passes
    local ops = operands(args, roles)
    if flag(args, "f", "force") and not flag(args, "m", "move") and not flag(args, "M") and is_protected(protected, ops[1]) then
      return "git branch -f " .. ops[1] .. ", which moves the branch " .. ops[1] .. " and may drop its commits"
    end
  end,
  ["update-ref"] = function(args, protected, roles)
    if flag(args, "d") then return "git update-ref -d, which deletes a ref" end
    if long_flag(args, "--stdin") then return "git update-ref --stdin, whose updates and deletions are only known at run time" end
    local ops = operands(args, roles)
    if is_protected(protected, ops[1]) and ops[2] then
      return "git update-ref " .. ops[1] .. ", which moves a protected branch and may drop its commits"
    end
  end,
  ["filter-branch"] = function() return "git filter-branch, which rewrites every commit it walks" end,
  ["filter-repo"] = function(args)
    if flag(args, "h", "help") or long_flag(args, "--analyze") or long_flag(args, "--dry-run") then return nil end
    return "git filter-repo, which rewrites the repository's history"
  end,
  reflog = function(args)
    if args[2] == "delete" then return "git reflog delete, which drops the way back to earlier commits" end
    if args[2] ~= "expire" then return nil end
    for _, name in ipairs({ "--expire", "--expire-unreachable" }) do
      local v = value_of(args, nil, name)
      if v == "now" or v == "all" then
        return "git reflog expire " .. name .. "=" .. v .. ", which drops the way back to discarded commits"
      end
    end
  end,
  gc = function(args)
    local v = value_of(args, nil, "--prune")
    if v == "now" or v == "all" then return "git gc --prune=" .. v .. ", which deletes discarded commits for good" end
  end,
  prune = function(args)
    if flag(args, "n", "dry-run") then return nil end
    return "git prune, which deletes discarded commits for good"
  end,
}

-- RULE_NAMES are the git subcommands RULES judges, which the verdicts
-- setting may use.
local RULE_NAMES = {}
for name in pairs(RULES) do RULE_NAMES[#RULE_NAMES + 1] = name end

-- verdict_of returns the operator's verdict for a rule (the verdicts
-- setting: deny, ask or allow by subcommand; ask when unset). A rule or
-- a verdict it does not know is an error (setting module), so that a typo
-- fails closed rather than leave a rule that never fires.
local function verdict_of(ctx, sub)
  local v = setting.verdicts(ctx.config.verdicts, RULE_NAMES, "git subcommand")[sub]
  return v == "allow" and nil or v or "ask"
end

hook.on("tool.execute.pre", function(tool_name, params, ctx)
  -- every agent's shell tool, and the pack's shell_tools setting
  if tool.kind(tool_name, ctx.config) ~= "shell" then return nil end
  verdict_of(ctx, "") -- a bad verdicts setting is an error on every call, not only when a rule matches
  local line = tool.command(params)
  if not line then return nil end
  if tool.shell(tool_name, ctx.config) == "powershell" then
    -- as the POSIX line that runs the same commands (git checkout .\src)
    local ok, posix = pcall(shell.powershell, line)
    if not ok then return nil end -- too long: destructive.lua asks
    line = posix
  end
  -- the parts of a line that parse, when it does not parse whole
  -- (destructive.lua asks about the rest, and about a line too long)
  local ok, parsed = pcall(shell.salvage, line)
  if not ok then return nil end
  local cmds = parsed.commands
  local protected = { names = "main or master" }
  local branches = type(ctx.config.protected_branches) == "table" and ctx.config.protected_branches or { "main", "master" }
  for _, b in ipairs(branches) do protected[b] = true end
  if ctx.config.protected_branches then protected.names = table.concat(branches, " or ") end
  -- the aliases the line defines: the shell's (alias g=git) and git's
  -- own (git config alias.nuke 'reset --hard'), used by later commands
  local aliases, git_aliases = {}, {}
  for _, cmd in ipairs(cmds) do
    if cmd.name == "alias" then
      for i = 2, #cmd.argv do
        local name, value = cmd.argv[i]:match("^([^=/%s$`]+)=(.*)$")
        if name then aliases[name] = value end
      end
    end
    local value = shell_alias(cmd, aliases)
    if value then -- the command the alias's value and the words after it make
      local words = { value }
      for i = 2, #cmd.argv do words[#words + 1] = quote(cmd.argv[i]) end
      local ok, expanded = pcall(shell.parse, table.concat(words, " "))
      cmd = ok and expanded[1] or cmd
    end
    local args, roles, dynamic
    -- an alias's value runs where the alias is used (above), not where it is defined
    if cmd.name == "git" and not has_word(cmd.wrapped_by, "alias") then
      args, roles, dynamic = subcommand(cmd)
      if dynamic then
        return hook.verdict(verdict_of(ctx, ""), "risky git command: git runs " .. args[1] .. ", a subcommand only known at run time",
          { title = "Approve this git command", severity = "medium" })
      end
      if not args and has_word(cmd.wrapped_by, "xargs") then
        return hook.verdict(verdict_of(ctx, ""), "risky git command: git runs a subcommand xargs reads at run time",
          { title = "Approve this git command", severity = "medium" })
      end
    end
    if args then
      local name, v = config_alias(args)
      if name and v then git_aliases[name] = v end
      args, roles = unalias(cmd, args, roles, git_aliases)
    end
    local rule = args and RULES[args[1]]
    local why = rule and rule(args, protected, roles)
    local verdict = why and verdict_of(ctx, args[1])
    if verdict then
      -- deny or ask, as the operator set the rule (ask by default)
      return hook.verdict(verdict, "risky git command: " .. why,
        { title = "Approve this git command", severity = "medium" })
    end
  end
end, { name = "ask-risky-git", priority = 90, timeout = "2s" })
