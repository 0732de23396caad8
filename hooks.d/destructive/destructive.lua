-- Refuse shell commands that would destroy the machine, the user's home
-- or the workspace:
--   * rm -r of /, ~, $HOME, a system directory (/usr, /etc, …), the
--     workspace root (the payload's cwd) or a directory holding it, in
--     any spelling (/./usr, /etc/../usr, //, "$HOME"/*, /*);
--   * find … -delete or -exec rm there (for the workspace root: with no
--     test narrowing what is found, since find . -name '*.pyc' -delete
--     is routine);
--   * mkfs, wipefs, shred, dd or a redirection onto a disk device;
--   * fork bombs: a shell function that runs itself in a pipe or in the
--     background (:(){ :|:& };:, bomb(){ bomb|bomb& };bomb);
--   * chmod/chown/chgrp -R of those places;
--   * code downloaded by curl, wget … and run: piped into a shell or an
--     interpreter, given as <(…), or substituted into sh -c "$(…)" or eval;
--   * interpreter one-liners (python -c, perl -e, ruby -e, node -e, …)
--     whose code deletes those places (shutil.rmtree, FileUtils.rm_rf,
--     fs.rmSync, …); the shell commands such code runs (os.system,
--     backticks, execSync) are checked like any other;
--   * shell lines in awk's and R's system("…"), git -c alias.x='!…' and
--     vim -c '!…', and R's unlink(…, recursive=TRUE) of those places;
--   * mv of those places, partition tables rewritten (sgdisk, parted,
--     sfdisk), system binaries and login files truncated (> /etc/passwd),
--     writes to /proc/sysrq-trigger, kill -1 and kill 1.
-- A command whose name is only known at run time ($(which rm), $a,
-- ${RM:-rm}, a glob) is denied when its arguments alone are rm's or
-- dd's destructive ones, and asked about otherwise. source and . of
-- standard input run their here-string or pipe as bash -s does. The
-- same answers go to tool.approve (PicoClaw's approve_tool).
-- It asks when it cannot tell: a recursive rm whose target is only known
-- at run time ($DIR, xargs), relative targets after a cd, code run from
-- another command's output, code whose command line is not a literal,
-- and a line that does not parse.
--
-- The shell module does the parsing, so quoting (r\m, 'rm', $'\x72m'),
-- wrappers (sudo, env, nohup, timeout, command, exec, xargs, …),
-- VAR=value prefixes, absolute paths (/bin/rm), bash -c, eval,
-- here-strings and here-documents given to a shell, find -exec and
-- compound lines (cd / && rm -fr *) do not hide a command, and text that
-- is only data (echo "rm -rf /", git commit -m "…") is not one. The
-- module unwraps known launchers (flock, strace, systemd-run, script -c,
-- tmux new, …); any other program whose words hold rm, dd, mkfs, … is
-- judged as the command starting there, a word of it that is a shell
-- line running one of those is judged as code, and an alias defined in
-- the line is judged as its value where it is used.
--
-- Themes, each with a verdict the operator sets (verdicts): system files
-- written, copied, moved, chmod-ed or deleted (deny); the machine shut
-- down or its critical daemons killed (deny); disks and volumes erased
-- (deny); kernel modules loaded or removed (deny); fork bombs in
-- interpreters (deny); a file downloaded and run on the same line
-- (deny); a recursive rm outside the workspace and the temp directories
-- or of ~/Documents and its kin (ask). A line that does not parse is
-- judged by its parts that do (shell.salvage); one over the parser's
-- 16 KiB is asked about.
--
-- Settings (ctx.config): see HOOK.md, which holds their defaults.
local shell = require("shell")
local path = require("path")
local tool = require("tool")
local setting = require("setting")
local unpack = table.unpack or unpack

local SYSTEM = {}
for _, d in ipairs({ "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
                     "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/usr", "/var",
                     "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/local",
                     "/usr/share", "/usr/include", "/usr/src", "/var/lib", "/var/log", "/var/cache",
                     "/etc/ssh", "/System", "/Library", "/Applications", "/Users", "/private",
                     "/Volumes", "/nix", "/snap" }) do
  SYSTEM[d] = true
end

local DOWNLOADERS = { curl = true, wget = true, fetch = true, aria2c = true, http = true, https = true,
                      xh = true, ["lwp-request"] = true, GET = true, httpie = true, ftp = true, tftp = true,
                      -- PowerShell's (matched lower-cased)
                      iwr = true, irm = true, ["invoke-webrequest"] = true, ["invoke-restmethod"] = true,
                      ["start-bitstransfer"] = true, ["curl.exe"] = true, ["wget.exe"] = true,
                      -- Windows programs that download too (certutil -urlcache, bitsadmin /transfer)
                      certutil = true, ["certutil.exe"] = true, bitsadmin = true, ["bitsadmin.exe"] = true }

-- Devices that writing to destroys nothing.
local HARMLESS_DEVICES = { ["/dev/null"] = true, ["/dev/zero"] = true, ["/dev/stdout"] = true,
                           ["/dev/stderr"] = true, ["/dev/stdin"] = true, ["/dev/tty"] = true,
                           ["/dev/random"] = true, ["/dev/urandom"] = true, ["/dev/full"] = true }

-- A Checker holds what one line's verdict depends on.
local Checker = {}
Checker.__index = Checker

-- new_checker starts in the workspace (the payload's cwd), or in the
-- directory the tool call names to run in (tool.dir: Codex's workdir,
-- Gemini CLI's dir_path, Cursor's cwd…), which may be relative to it.
local function new_checker(ctx, cwd, params)
  -- every field is set here (false for none): a field added later grows
  -- the table, on every call
  local start = type(cwd) == "string" and cwd:sub(1, 1) == "/" and path.clean(cwd)
  -- root is the workspace; cwd follows the line's cd commands
  local c = setmetatable({ cwd = start, root = start, moved = false, protected = {}, aliases = {},
                          downloads = {}, scripts = {}, wrote = false, verdicts = false,
                          recursive_of = false, is_recursive = false, operands_of = false, ops = false,
                          powershell = false, gitbash = false, piped = false, line = false, fds = false }, Checker)
  local dir = tool.dir(params)
  if dir then c:move_to(dir) end
  if type(ctx.config.protected) == "table" then
    for _, p in ipairs(ctx.config.protected) do
      if type(p) == "string" and p:sub(1, 1) == "/" then c.protected[path.clean(p)] = true end
    end
  end
  return c
end

-- resolve makes a relative target absolute against the working
-- directory (or ~-relative after cd ~). The second result is true when
-- the working directory is not known any more (cd "$X", cd -).
function Checker:resolve(target)
  if self.gitbash then
    -- Git Bash on Windows (Claude Code's Bash there): /c/x is C:/x, and a
    -- quoted 'C:\x' or '.claude\x' is a Windows path
    local drive, rest = target:match("^/(%a)(/?.*)$")
    if drive and (rest == "" or rest:sub(1, 1) == "/") then target = drive:upper() .. ":" .. (rest == "" and "/" or rest) end
    if target:find("\\", 1, true) then target = path.windows(target) end
  end
  local windows = self.powershell or self.gitbash
  if windows and self.cwd and self.cwd:match("^%a:/") then return self:resolve_windows(target) end
  if target:sub(1, 1) == "/" or target:sub(1, 1) == "~" then return target end
  if windows and target:match("^%a:") then return target end -- C:/Windows
  if self.moved then return nil, true end
  if not self.cwd then
    -- No cwd (PicoClaw's payloads carry none): the agent's own directory,
    -- and the ones above it, may be the workspace or hold it.
    if path.clean(target):match("^[%./]+$") then return nil, true end
    return nil
  end
  if self.cwd == "~" then
    if target:find("..", 1, true) then return nil, true end
    local rest = path.clean("/" .. target)
    return rest == "/" and "~" or "~" .. rest
  end
  return path.abs(target, self.cwd)
end

-- narrow_glob reports whether a glob's first globbed element names
-- only some of a directory's entries: it keeps a literal beyond a dot
-- once its *, ? and [...] are taken out (*.o, build-*, test_?.py), where
-- *, .*, *.* and [a-z]* match everything or every dot-file (.git too).
local function narrow_glob(p)
  local rest = p.path
  if p.prefix ~= "." or rest:sub(1, 2) == "./" then rest = rest:sub(#p.prefix + 2) end
  local literal = rest:match("^[^/]*"):gsub("%[[^%]]*%]", ""):gsub("[%*%?]", "")
  return literal ~= "" and literal ~= "."
end

-- PowerShell lines (Copilot CLI's powershell tool) name Windows places:
-- a drive's root, the system's directories, the users' profiles. The
-- line reaches the checks through shell.powershell, so that
-- C:\Windows\System32 is C:/Windows/System32 and $env:SystemRoot is
-- C:/Windows.
--
-- The lists only PowerShell lines read are strings, "|a|b|": a string
-- constant costs an interpreter nothing to make, and a table costs every
-- process its keys (most never see a PowerShell line).
local function listed(list, word) return list:find("|" .. word .. "|", 1, true) ~= nil end

-- stdin_text is the here-document or here-string a command reads on
-- its standard input, or nil.
local function stdin_text(cmd)
  local text
  for _, r in ipairs(cmd.redirects) do
    if (r.op == "<<<" or r.op == "<<" or r.op == "<<-") and r.fd == 0 and type(r.target) == "string" then text = r.target end
  end
  return text
end
local WINDOWS_DIRS = "|/windows|/windows/system32|/windows/syswow64|/windows/winsxs|/windows/system32/drivers|"
    .. "/windows/system32/config|/program files|/program files (x86)|/programdata|/users|/boot|/recovery|/efi|"
    .. "/progra~1|/progra~2|/progra~3|"
-- windows_split returns a drive path's letter, its path on the drive
-- cleaned and lower-cased, and the path as Windows writes it
-- ("c:/Windows/../Users" is "C", "/users", "C:\\Users").
local function windows_split(t)
  if type(t) ~= "string" then return nil end
  local drive, rest = t:match("^(%a):(.*)$")
  if not drive then return nil end
  rest = path.clean("/" .. rest)
  return drive:upper(), rest:lower(), drive:upper() .. ":" .. rest:gsub("/", "\\")
end

-- windows_clean is a drive path cleaned and lower-cased, as the checks
-- compare them (c:/users/dev/proj): Windows does not tell case apart.
local function windows_clean(t)
  local drive, rest = windows_split(t)
  return drive:lower() .. ":" .. rest
end

-- resolve_windows is resolve for a PowerShell line whose working
-- directory is a drive path (Copilot CLI on Windows: cwd C:\Users\dev\proj):
-- a relative path is joined to it, /x is on its drive, and .. stops at
-- the drive's root.
function Checker:resolve_windows(target)
  if target:sub(1, 1) == "~" then return target end
  -- C:x is x in the current directory of drive C: the workspace's
  -- when it is the workspace's drive, else not known
  local drive, rel = target:match("^(%a):([^/].*)$")
  if drive then
    if drive:lower() ~= self.cwd:sub(1, 1):lower() then return nil, true end
    target = rel
  elseif target:match("^%a:") then
    return windows_clean(target)
  end
  if self.moved then return nil, true end
  local drive = self.cwd:sub(1, 2)
  local joined = target:sub(1, 1) == "/" and ("/" .. drive .. target) or ("/" .. self.cwd .. "/" .. target)
  local d, rest = path.clean(joined):match("^/(%a:)(.*)$")
  if not d then return drive .. "/" end
  return windows_clean(d .. (rest == "" and "/" or rest))
end

-- windows_place says what Windows place a drive path names, or nil;
-- what prefixes it ("everything in " for a glob).
local function windows_place(t, what)
  local drive, rest, shown = windows_split(t)
  if not drive then return nil end
  if rest == "/" then return what .. "the root of drive " .. drive .. ": (" .. shown .. ")" end
  if listed(WINDOWS_DIRS, rest) then return what .. "the system directory " .. shown end
  if rest:match("^/users/[^/]+$") then return what .. "a home directory (" .. shown .. ")" end
  return nil
end

-- windows_system_file says what a drive path names when writing it
-- breaks Windows: anything in its own directory but the temporary one,
-- or in the boot directories.
local function windows_system_file(t)
  local drive, rest, shown = windows_split(t)
  if not drive then return nil end
  if (rest == "/windows" or rest:match("^/windows/")) and not rest:match("^/windows/temp") then
    return "the system " .. ((rest == "/windows" or listed(WINDOWS_DIRS, rest)) and "directory " or "file ") .. shown
  end
  if rest:match("^/boot/") or rest:match("^/efi/") or rest == "/bootmgr" then return "the boot file " .. shown end
  return nil
end

-- place says what a path (a shell.parse paths entry, or a plain string)
-- names, when it is one of the places this guard protects. The second
-- result is true when the path cannot be judged before it runs.
function Checker:place(p)
  if type(p) == "string" then p = { path = p, prefix = p, glob = false, dynamic = false } end
  if p.dynamic then return nil, true end
  -- a glob element that may match .. (.?, .*, .[.], where bash before
  -- 5.2 lets it: /tmp/.?/usr is /usr) climbs to a place not known here
  if p.glob and ("/" .. p.path .. "/"):find("/%.[%?%*%[][^/]*/") and ("/" .. p.path .. "/"):find("/%.[%?%*%[][^/]*/.") then
    return nil, true
  end
  if p.prefix == "" then return nil end
  local target, unsure = self:resolve(p.prefix)
  if not target then return nil, unsure end
  if target == "~" or target:match("^~[^/]*$") and not target:match("^~[-+%d]") then
    return "your home directory (" .. p.path .. ")"
  end
  -- ~+ is the working directory, ~- the one before, ~N the directory
  -- stack's, ~user/x someone's home: known only at run time
  if target:match("^~[^/]") then return nil, true end
  -- a workspace under /home/NAME (or /Users/NAME, /root) tells where ~
  -- is: cd; rm -rf work/app names the workspace
  local home = target:sub(1, 2) == "~/" and self.root
      and (self.root:match("^(/home/[^/]+)/") or self.root:match("^(/Users/[^/]+)/") or self.root:match("^(/root)/"))
  if home then target = home .. target:sub(2) end
  if (self.powershell or self.gitbash) and target:match("^%a:") then
    local what = p.glob and "everything in " or ""
    local w = windows_place(target, what)
    if w then return w end
    target = windows_clean(target)
    if self.root and target == self.root then
      if p.glob and narrow_glob(p) then return nil end
      return what .. "the workspace root " .. target
    end
    -- a directory holding the workspace (path.is_within takes POSIX paths)
    if self.root and self.root:sub(1, #target + 1) == (target:sub(-1) == "/" and target or target .. "/") then
      return "a directory holding the workspace (" .. target .. ")"
    end
    return nil
  end
  if target:sub(1, 1) == "~" then return nil end
  target = path.clean(target)
  local what = p.glob and "everything in " or ""
  if target == "/" then return what .. "the root directory (" .. p.path .. ")" end
  if SYSTEM[target] or self.protected[target] then return what .. "the system directory " .. target end
  if self.root and target == self.root then
    if p.glob and narrow_glob(p) then return nil end
    return what .. "the workspace root " .. target
  end
  if self.root and path.is_within(target, self.root) then
    return "a directory holding the workspace (" .. target .. ")"
  end
  return nil
end

-- move_to follows the working directory to dir, as the shell module
-- reads a cd's target ("~", "/abs", "rel/path", "~/x").
function Checker:move_to(dir)
  if dir == "~" then
    self.cwd, self.moved = "~", false
    return
  end
  local target = not self.moved and self:resolve(dir)
  if target and (target:sub(1, 1) == "/" or ((self.powershell or self.gitbash) and target:match("^%a:/"))) then
    -- a drive path is clean already, and keeps the slash of its root
    -- (C:/): resolve tells a Windows directory by it
    self.cwd = target:match("^%a:/") and target or path.clean(target)
  else
    self.moved = true
  end
end

-- enter puts the checker in dir, a directory a command runs in as the
-- shell module followed the line's cd commands (a command's dir or one
-- of its alt_dirs: a cd in a subshell, a pipe or bash -c stays there;
-- "?" where the line cannot tell), from cwd, where the line started
-- (moved: not known).
function Checker:enter(dir, cwd, moved)
  -- a write is a call into the host (see docs/scripting.md): most
  -- commands run where the one before them ran
  if self.cwd ~= cwd then self.cwd = cwd end
  if self.moved ~= moved then self.moved = moved end
  if dir == "?" then self.moved = true
  elseif dir and dir ~= "" then self:move_to(dir) end
end

-- operands returns the paths entries of the words of cmd that are
-- operands (the shell module's roles: not options, option values,
-- patterns, code or data). A command this pack builds itself carries the
-- roles of its own argv.
local function operands(cmd)
  local out, roles = {}, cmd.roles or shell.roles(cmd.argv)
  for i = 2, #cmd.argv do
    if roles[i] == "operand" then out[#out + 1] = cmd.paths[i] end
  end
  return out
end

local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- PowerShell's -Recurse, abbreviated to any prefix and in any case
-- (Copilot CLI's powershell tool: Remove-Item -Recurse -Force C:\ or ~).
local function ps_recurse(a)
  a = a:lower()
  local name, value = a:match("^(%-[%a]+):(.*)$") -- -Recurse:$true
  if name then
    if value ~= "$true" and value ~= "1" then return false end
    a = name
  end
  return #a >= 2 and a:sub(1, 1) == "-" and ("-recurse"):sub(1, #a) == a
end

-- ps_whatif reports a PowerShell command run with -WhatIf, which only
-- says what it would do.
local function ps_whatif(cmd)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]:lower()
    if a == "-whatif" or a == "-whatif:$true" or a == "-wi" then return true end
  end
  return false
end

-- ps_attached returns paths entries for the paths a PowerShell command
-- is given attached to a path parameter (-Path:C:\x, -LiteralPath:x),
-- which are no operands of their own.
local function ps_attached(cmd)
  local out
  for i = 2, #cmd.argv do
    local name, v = cmd.argv[i]:match("^(%-[%a]+):(.+)$")
    name = name and name:lower()
    if name and #name >= 3 and (("-path"):sub(1, #name) == name or ("-literalpath"):sub(1, #name) == name
        or ("-lp"):sub(1, #name) == name) then
      out = out or {}
      for part in v:gmatch("[^,]+") do
        local glob = part:find("[%*%?%[]") ~= nil
        local prefix = glob and (part:match("^(.*)/[^/]*[%*%?%[]") or "") or part
        out[#out + 1] = { path = part, prefix = prefix, glob = glob, dynamic = part:find("[%$`]") ~= nil }
      end
    end
  end
  return out
end

-- PowerShell's names of Remove-Item (rm and rmdir are too, and mean
-- the same to both shells' flags: -r, -R, -Recurse)
local PS_REMOVE = { ["remove-item"] = true, ri = true, rd = true, del = true, erase = true }

-- CMD_DELETERS are cmd.exe's deleting commands, which take /switches
local CMD_DELETERS = { rd = true, rmdir = true, del = true, erase = true }

-- cmd_exe_recursive reports whether rd, rmdir or del is given cmd.exe's
-- /s (cmd /c rd /s /q C:\): in a PowerShell line, which is where a
-- drive path is read, since in a POSIX shell /s is a path.
local function cmd_exe_recursive(cmd)
  local n = cmd.name:lower()
  if not (PS_REMOVE[n] or n == "rmdir") then return false end
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    -- /s alone or among others (/s/q)
    if a:sub(1, 1) == "/" and (a:lower() .. "/"):find("/s/", 1, true) then return true end
  end
  return false
end

local function recursive(cmd)
  if PS_REMOVE[cmd.name:lower()] then
    for i = 2, #cmd.argv do
      if ps_recurse(cmd.argv[i]) then return true end
    end
    return false
  end
  -- rimraf (npx rimraf dist) always removes recursively
  return cmd.name == "rimraf" or cmd.name == "del-cli" or shell.has_flag(cmd.argv, "r", "recursive") or shell.has_flag(cmd.argv, "R")
end

-- recursive is the local recursive(cmd), kept for the last command asked
-- about: four rules ask it of an rm, and each answer is a call into Go.
function Checker:recursive(cmd)
  if self.recursive_of ~= cmd then
    self.recursive_of, self.is_recursive = cmd, recursive(cmd) or (self.powershell and cmd_exe_recursive(cmd))
  end
  return self.is_recursive
end

-- operands is the local operands(cmd), kept for the last command asked
-- about (four rules ask it of an rm). Its callers only read the list.
function Checker:operands(cmd)
  if self.operands_of ~= cmd then
    local ops = operands(cmd)
    local attached = self.powershell and ps_attached(cmd)
    for _, p in ipairs(attached or {}) do ops[#ops + 1] = p end
    if self.powershell and CMD_DELETERS[cmd.name:lower()] then
      -- cmd.exe's switches (rd /s /q) are no paths
      for k = #ops, 1, -1 do
        if ops[k].path:match("^/[%a?][/%a?]*$") then table.remove(ops, k) end
      end
    end
    if self.powershell then
      -- a list of paths is one word (D:\x,C:\Users): each is a path
      local split
      for _, p in ipairs(ops) do
        if not p.dynamic and p.path:find(",", 1, true) then
          split = split or {}
          for part in p.path:gmatch("[^,]+") do
            local glob = part:find("[%*%?%[]") ~= nil
            split[#split + 1] = { path = part, prefix = glob and (part:match("^(.*)/[^/]*[%*%?%[]") or "") or part,
                                  glob = glob, dynamic = false }
          end
        end
      end
      if split then
        for _, p in ipairs(ops) do
          if p.dynamic or not p.path:find(",", 1, true) then split[#split + 1] = p end
        end
        ops = split
      end
    end
    self.operands_of, self.ops = cmd, ops
  end
  return self.ops
end

-- find_parts returns find's starting points and whether a test narrows
-- what it finds (-name, -type, -mtime, …).
local NARROWING = { ["-name"] = true, ["-iname"] = true, ["-path"] = true, ["-ipath"] = true,
                    ["-regex"] = true, ["-iregex"] = true, ["-type"] = true, ["-mtime"] = true,
                    ["-mmin"] = true, ["-newer"] = true, ["-size"] = true, ["-user"] = true,
                    ["-empty"] = true, ["-perm"] = true, ["-atime"] = true, ["-ctime"] = true,
                    ["-wholename"] = true, ["-links"] = true, ["-group"] = true, ["-inum"] = true }
local function find_parts(cmd)
  local starts, narrowed, i = {}, false, 2
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if a == "-H" or a == "-L" or a == "-P" then
      i = i + 1
    elseif a == "-D" then
      i = i + 2
    elseif a:match("^%-O%d*$") then
      i = i + 1
    else
      break
    end
  end
  while i <= #cmd.argv and cmd.argv[i]:sub(1, 1) ~= "-" and cmd.argv[i] ~= "(" and cmd.argv[i] ~= "!" do
    starts[#starts + 1] = cmd.paths[i]
    i = i + 1
  end
  for j = i, #cmd.argv do
    if NARROWING[cmd.argv[j]] then narrowed = true end
  end
  if #starts == 0 then starts = { { path = ".", prefix = ".", glob = false, dynamic = false } } end
  return starts, narrowed
end

local DELETERS = { rm = true, shred = true, unlink = true, rmdir = true, ["remove-item"] = true, ri = true,
                   rd = true, del = true, erase = true, rimraf = true, ["del-cli"] = true }
-- cmdlet is a PowerShell cmdlet's name as the tables hold it: cmdlets
-- (Verb-Noun) are named in any case (REMOVE-ITEM, Remove-item); nil for
-- any other name, whose case matters.
local function cmdlet(name)
  return type(name) == "string" and name:find("-", 1, true) and name:lower() or nil
end
setmetatable(DELETERS, { __index = function(t, k)
  local c = cmdlet(k)
  return c and rawget(t, c) or nil
end })

function Checker:find(cmd, runs_delete)
  local starts, narrowed = find_parts(cmd)
  if not (has(cmd.argv, "-delete") or runs_delete) then return nil end
  for _, p in ipairs(starts) do
    local what, unsure = self:place(p)
    if what and (not narrowed or not what:find("workspace root", 1, true)) then
      return "deny", "find deleting files in " .. what
    end
    if unsure then return "ask", "find deleting files in " .. p.path .. ", which is only known at run time" end
  end
end

-- deletes judges the recursive delete of targets: deny when one is a
-- protected place, ask when one is only known at run time; what names
-- the delete in the reason ("rm -r of ", "tar deleting what it archives: ").
function Checker:deletes(targets, what)
  local unknown -- the first target known only at run time
  for _, p in ipairs(targets) do
    local place, unsure = self:place(p)
    if place then return "deny", what .. place end
    if unsure and not unknown then unknown = p end
  end
  if unknown then return "ask", what .. unknown.path .. ", which is only known at run time" end
end

-- PS_LISTERS are PowerShell's commands that list items, whose output
-- Remove-Item deletes when piped into it; PS_NARROWING their parameters
-- that list only some.
local PS_LISTERS = "|get-childitem|gci|dir|ls|get-item|gi|"
local PS_NARROWING = "|-filter|-include|-exclude|-name|-file|-attributes|"

-- piped_delete judges a Remove-Item given no path, which deletes what
-- the command before it in its pipeline lists (gci C:\ -Recurse |
-- Remove-Item): that command's places, as find -delete's are judged.
local PS_FILTERS = "|where-object|?|where|select-object|select|sort-object|sort|"

function Checker:piped_delete(cmd)
  -- the lister before any filters (gci | ? { … } | Remove-Item): what the
  -- filters let through is some of what it lists
  local k, filtered = #self.piped, false
  while k > 1 and listed(PS_FILTERS, self.piped[k].name:lower()) do k, filtered = k - 1, true end
  local from = self.piped[k]
  local lister = from and listed(PS_LISTERS, from.name:lower())
  if not lister then
    return "ask", cmd.name .. " of what " .. (from and from.name or "its input") .. " gives it, which is only known at run time"
  end
  local starts, narrowed = {}, filtered
  local roles = from.roles or shell.roles(from.argv)
  for i = 2, #from.argv do
    if listed(PS_NARROWING, from.argv[i]:lower()) then narrowed = true end
    if roles[i] == "operand" and from.argv[i - 1]:sub(1, 1) ~= "-" then starts[#starts + 1] = from.paths[i] end
  end
  if #starts == 0 then starts = { { path = ".", prefix = ".", glob = false, dynamic = false } } end
  for _, p in ipairs(starts) do
    local what, unsure = self:place(p)
    if what and (not narrowed or not what:find("workspace root", 1, true)) then
      return "deny", cmd.name .. " deleting what " .. from.name .. " lists in " .. what
    end
    if unsure then return "ask", cmd.name .. " deleting what " .. from.name .. " lists in " .. p.path .. ", which is only known at run time" end
  end
end

function Checker:rm(cmd)
  local low = cmd.name:lower()
  if self.powershell and self.piped and (PS_REMOVE[low] or low == "rm" or low == "rmdir") and #self:operands(cmd) == 0 then
    return self:piped_delete(cmd)
  end
  if not self:recursive(cmd) then return nil end
  -- under find -exec, the find rule judged what it finds
  local verdict, why = self:deletes(self:operands(cmd), cmd.name .. " -r of ")
  if verdict then return verdict, why end
  if has(cmd.wrapped_by, "xargs") then
    return "ask", "recursive " .. cmd.name .. " of what xargs reads, which is only known at run time"
  end
end

-- archives_away reports whether cmd deletes what it archives or copies,
-- and which of its operands are what it deletes: tar --remove-files,
-- zip -m/--move, 7z -sdel, rsync --remove-source-files (all but its
-- last operand, the destination).
local function archives_away(cmd)
  local n, deletes = cmd.name, false
  if n == "tar" or n == "gtar" or n == "bsdtar" then
    deletes = shell.has_flag(cmd.argv, nil, "remove-files")
  elseif n == "zip" then
    deletes = shell.has_flag(cmd.argv, "m") or shell.has_flag(cmd.argv, nil, "move")
  elseif n == "7z" or n == "7za" or n == "7zz" then
    deletes = has(cmd.argv, "-sdel")
  elseif n == "rsync" then
    deletes = shell.has_flag(cmd.argv, nil, "remove-source-files")
  end
  if not deletes then return false end
  local ops = operands(cmd)
  if n == "rsync" then ops[#ops] = nil end
  return true, ops
end

-- archive_delete judges a program that deletes what it archives as an
-- rm -r of those files: tar --remove-files -cf /tmp/x.tar . removes the
-- workspace.
function Checker:archive_delete(cmd)
  local deletes, targets = archives_away(cmd)
  if deletes then return self:deletes(targets, cmd.name .. " deleting what it archives: ") end
  if cmd.name == "rsync" then return self:rsync_delete(cmd) end
end

-- rsync_delete judges rsync --delete (--del, --delete-before, -during,
-- -after, -delay, -excluded), which removes what its destination holds
-- and the source does not: given an empty or another directory, it is
-- an rm -r of everything in the destination (rsync -a --delete
-- /var/empty/ /usr/). A remote destination (host:path) is another
-- machine's.
function Checker:rsync_delete(cmd)
  local del = false
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    if cmd.roles[i] == "option" and (a == "--del" or a:sub(1, 8) == "--delete") then del = true end
  end
  local ops = del and operands(cmd) or {}
  if #ops < 2 then return nil end
  local dest = ops[#ops]
  if dest.path:match("^[^/]*:") then return nil end
  local dir = dest.path:gsub("/+$", "")
  return self:deletes({ { path = dir .. "/*", prefix = dir == "" and "/" or dir, glob = true, dynamic = dest.dynamic } },
    "rsync --delete of ")
end

-- writes_to reports whether a redirection may write its target file:
-- any with > in it (>, >>, >|, &>, <>, >& file) but a copy, move or
-- close of a descriptor (2>&1, >&2, >&3-, >&-).
local function writes_to(r)
  return r.op:find(">", 1, true) ~= nil and not (r.op == ">&" and r.target:match("^%d*%-?$") ~= nil)
end

local function is_device(t)
  return type(t) == "string" and t:sub(1, 5) == "/dev/" and not HARMLESS_DEVICES[t]
      and not t:match("^/dev/fd/") and not t:match("^/dev/pts/") and not t:match("^/dev/shm/")
      and not t:match("^/dev/tcp/") and not t:match("^/dev/udp/")
end

-- FORMATTERS make a file system (or swap) on what they are given, by a
-- name other than mkfs.*: mkntfs /dev/sda1 erases the partition.
local FORMATTERS = { mke2fs = true, mkswap = true, mkntfs = true, mkdosfs = true, ["mkfs.vfat"] = true,
                     mkexfatfs = true, mkudffs = true, mkreiserfs = true, mkhfs = true, newfs = true,
                     newfs_msdos = true, newfs_hfs = true, newfs_apfs = true }

function Checker:disk(cmd)
  local n = cmd.name
  if n:match("^mkfs") or FORMATTERS[n] or n == "shred" or n == "blkdiscard" or n == "sg_format" then
    for i, p in ipairs(operands(cmd)) do
      if is_device(path.clean(p.path)) then return "deny", n .. " destroys the disk " .. p.path end
    end
  elseif n == "dd" then
    for _, a in ipairs(cmd.argv) do
      local target = a:match("^of=(.+)$")
      if target and is_device(path.clean(target)) then return "deny", "dd onto the disk " .. target end
    end
  elseif n == "socat" then
    -- the addresses socat writes: with -u the second, with -U the first,
    -- else both (data flows both ways)
    local addrs = {}
    for i = 2, #cmd.argv do
      if cmd.roles[i] == "operand" then addrs[#addrs + 1] = cmd.argv[i] end
    end
    if has(cmd.argv, "-u") then addrs = { addrs[2] } elseif has(cmd.argv, "-U") then addrs = { addrs[1] } end
    for _, a in ipairs(addrs) do
      local target = a:match("^[%a%-]*:(/dev/[^,]+)") or (a:match("^/dev/") and a:match("^[^,]+"))
      if target and is_device(path.clean(target)) then return "deny", "socat onto the disk " .. target end
    end
  elseif n == "tee" or n == "cp" or n == "ddrescue" or n == "bmaptool" then
    local ops = operands(cmd)
    -- cp's, ddrescue's and bmaptool copy's destination: the last
    -- operand (ddrescue's third is its map file)
    if n == "cp" or n == "bmaptool" then ops = { ops[#ops] } end
    if n == "ddrescue" then ops = { ops[2] } end
    if n == "bmaptool" and not has(cmd.argv, "copy") then ops = {} end
    for _, p in ipairs(ops) do
      if is_device(path.clean(p.path)) then return "deny", n .. " onto the disk " .. p.path end
    end
  end
  for _, r in ipairs(cmd.redirects) do
    if writes_to(r) and is_device(r.target) then
      return "deny", "writing onto the disk " .. r.target
    end
  end
end

function Checker:perms(cmd)
  local n = cmd.name
  if (n ~= "chmod" and n ~= "chown" and n ~= "chgrp") or not self:recursive(cmd) then return nil end
  local ops = operands(cmd)
  for i = 2, #ops do -- the first operand is the mode or owner
    local what = self:place(ops[i])
    -- the workspace is the agent's own: chown -R $USER . is routine, and
    -- its files survive any mode (not so /, ~ or a directory above it)
    if what and not what:find("workspace root", 1, true) then return "deny", n .. " -R of " .. what end
  end
end

local function fork_bomb(cmd)
  if cmd.in_function ~= "" and cmd.name == cmd.in_function and (cmd.background or cmd.position > 0) then
    return "deny", "a fork bomb (the function " .. cmd.in_function .. " runs itself in the background)"
  end
end

-- Programs whose output is shell code that sets up the environment,
-- meant to be run (eval "$(ssh-agent -s)", eval "$(pyenv init -)",
-- eval "$(direnv hook bash)"): running it is what they are for, and they
-- print it themselves rather than pass on what they fetch or read.
local ENV_SETUP = {}
for _, n in ipairs({ "ssh-agent", "gpg-agent", "keychain", "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv",
                     "direnv", "conda", "micromamba", "mamba", "minikube", "docker-machine", "brew", "starship",
                     "zoxide", "fnm", "mise", "rtx", "opam", "luarocks", "dircolors", "rustup", "atuin",
                     "thefuck", "pipx", "poetry" }) do
  ENV_SETUP[n] = true
end

-- env_setup_only reports whether the code a command runs comes only
-- from ENV_SETUP programs (eval "$(ssh-agent -s)").
local function env_setup_only(cmd)
  for _, src in ipairs(cmd.code_from) do
    if not ENV_SETUP[src] then return false end
  end
  return #cmd.code_from > 0
end

local function code_from(cmd, line)
  if #cmd.code_from == 0 then return nil end
  local others = {}
  for _, src in ipairs(cmd.code_from) do
    if DOWNLOADERS[src] then
      return "deny", "code downloaded by " .. src .. " and run by " .. (cmd.lang ~= "" and cmd.name or "a shell")
    end
    -- a program's own completion script (source <(kubectl completion
    -- bash), eval "$(gh completion -s zsh)") is what it is printed for
    local completion = line and line:find("%f[%w%-_]" .. src:gsub("%p", "%%%0") .. "%s+completions?%f[^%w]")
    if not ENV_SETUP[src] and not completion then others[#others + 1] = src end
  end
  if #others > 0 then
    return "ask", "runs the output of " .. table.concat(others, ", ") .. " as code"
  end
end

function Checker:calls(cmd)
  for _, call in ipairs(cmd.calls) do
    if call.kind == "delete" then
      for _, p in ipairs(call.paths) do
        local what, unsure = self:place(p)
        if what then return "deny", cmd.name .. " code deleting " .. what .. " (" .. call.func .. ")" end
        if unsure and call.recursive then
          return "ask", cmd.name .. " code deleting " .. p.path .. ", which is only known at run time (" .. call.func .. ")"
        end
      end
    elseif call.kind == "write" then
      local verdict, why = self:code_write(cmd, call)
      if verdict then return verdict, why end
    elseif call.dynamic then
      return "ask", cmd.name .. " code runs a command it builds at run time (" .. call.func .. ")"
    end
  end
end

-- AWKS run the shell lines of system("…") calls in their program.
local AWKS = { awk = true, gawk = true, mawk = true, nawk = true, busybox = false }
local VIMS = { vim = true, vi = true, nvim = true, ex = true, view = true, gvim = true, vimdiff = true }

-- string_calls returns the first arguments of func("…") or func('…')
-- calls in a word of code.
local function string_calls(word, func, out)
  for _, q in ipairs({ '"', "'" }) do
    for lit in word:gmatch(func .. "%s*%(%s*" .. q .. "([^" .. q .. "]*)" .. q) do out[#out + 1] = lit end
  end
  return out
end

-- git_setting_line returns the shell line git runs for a setting's
-- value, or nil: the editor, the pager, ssh, fsmonitor, external diff,
-- merge and filter drivers, and an alias or credential helper starting
-- with !.
local function git_setting_line(key, value)
  local k = key:lower()
  if k:match("^alias%.") or k == "credential.helper" or k:match("^credential%..+%.helper$") then
    return value:match("^%s*!(.*)$")
  end
  if k == "core.fsmonitor" and (value == "true" or value == "false" or value == "") then return nil end
  if k == "core.editor" or k == "sequence.editor" or k == "core.pager" or k:match("^pager%.") or k == "core.sshcommand"
      or k == "core.fsmonitor" or k == "diff.external" or k:match("^diff%..+%.command$") or k:match("^diff%..+%.textconv$")
      or k:match("^difftool%..+%.cmd$") or k:match("^mergetool%..+%.cmd$") or k:match("^merge%..+%.driver$")
      or k:match("^filter%..+%.clean$") or k:match("^filter%..+%.smudge$") or k:match("^filter%..+%.process$")
      or k == "interactive.difffilter" or k == "core.alternaterefscommand" then
    return value
  end
end

-- GIT_VALUED are git's options before its subcommand that take the next
-- word as their value.
local GIT_VALUED = { ["-C"] = true, ["--git-dir"] = true, ["--work-tree"] = true, ["--namespace"] = true,
                     ["--super-prefix"] = true, ["--config-env"] = true }
-- GIT_LINE_OPTIONS are the subcommands' options whose value is a shell
-- line git runs: rebase --exec, difftool --extcmd, filter-branch's filters.
local GIT_LINE_OPTIONS = { rebase = { "-x", "--exec" }, difftool = { "-x", "--extcmd" },
  ["filter-branch"] = { "--tree-filter", "--index-filter", "--msg-filter", "--commit-filter", "--env-filter",
                        "--parent-filter", "--tag-name-filter" } }

-- git_lines adds to lines the shell lines a git command runs: its -c
-- settings', a setting git config stores (run by a later git), rebase
-- --exec's, difftool --extcmd's, filter-branch's filters, bisect run's
-- command and submodule foreach's.
local function git_lines(argv, lines)
  local i, sub = 2, nil
  while i <= #argv do
    local a = argv[i]
    if a == "-c" and argv[i + 1] then
      local k, v = argv[i + 1]:match("^([^=]+)=(.*)$")
      lines[#lines + 1] = k and git_setting_line(k, v) or nil
      i = i + 2
    elseif GIT_VALUED[a] then
      i = i + 2
    elseif a:sub(1, 1) == "-" then
      i = i + 1
    else
      sub = a
      break
    end
  end
  if not sub then return end
  local rest = {}
  for j = i + 1, #argv do rest[#rest + 1] = argv[j] end
  local function joined(from, quote)
    local words = {}
    for j = from, #rest do
      words[#words + 1] = quote and ("'" .. rest[j]:gsub("'", "'\\''") .. "'") or rest[j]
    end
    return table.concat(words, " ")
  end
  if sub == "config" then
    -- git config [--global|--file F…] [set] KEY VALUE
    local words, j = {}, 1
    while j <= #rest do
      local a = rest[j]
      if a == "-f" or a == "--file" or a == "--blob" or a == "--type" or a == "--default" or a == "--comment" then
        j = j + 1
      elseif a:sub(1, 1) ~= "-" then
        words[#words + 1] = a
      end
      j = j + 1
    end
    if words[1] == "set" then table.remove(words, 1) end
    if words[1] and words[2] then lines[#lines + 1] = git_setting_line(words[1], words[2]) end
  elseif GIT_LINE_OPTIONS[sub] then
    for j = 1, #rest do
      for _, o in ipairs(GIT_LINE_OPTIONS[sub]) do
        if rest[j] == o and rest[j + 1] then lines[#lines + 1] = rest[j + 1] end
        local v = rest[j]:sub(1, #o + 1) == o .. "=" and rest[j]:sub(#o + 2)
        if v then lines[#lines + 1] = v end
      end
    end
  elseif sub == "bisect" and rest[1] == "run" and rest[2] then
    lines[#lines + 1] = joined(2, true) -- a command and its arguments
  elseif sub == "submodule" then
    for j = 1, #rest do
      if rest[j] == "foreach" then
        local from = j + 1
        while rest[from] == "--recursive" or rest[from] == "-q" or rest[from] == "--quiet" do from = from + 1 end
        if rest[from] then lines[#lines + 1] = joined(from, false) end -- the words, joined, run by the shell
        break
      end
    end
  end
end

-- parallel_runs_input reports a GNU parallel given no command of its own
-- (parallel :::: jobs.txt, cat jobs | parallel), which runs each line
-- it reads as a command; the commands given after ::: are on the line.
local function parallel_runs_input(cmd)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]
    if a == "--help" or a == "--version" or a == "-h" or a == "--citation" then return false end
    if a == "::::" or a == "::::+" then return true end -- the lines of files
    if a == ":::" or a == ":::+" then return false end -- commands on the line, which the shell module reports
    if cmd.roles[i] == "operand" then return false end -- the command's first word
  end
  return true
end

-- SHELL_NAMES are the shells a program may pipe text into (the shell
-- module's list).
local SHELL_NAMES = {}
for _, name in ipairs(shell.shells) do SHELL_NAMES[name] = true end

-- embedded_lines returns the shell lines a command's own code runs:
-- awk's system("…"), R's system("…"), the lines git runs (git_lines),
-- vim -c '!…'.
local function embedded_lines(cmd)
  local lines = {}
  if AWKS[cmd.name] or cmd.name == "Rscript" or cmd.name == "R" then
    for i = 2, #cmd.argv do
      string_calls(cmd.argv[i], "system", lines)
      string_calls(cmd.argv[i], "system2", lines)
      if AWKS[cmd.name] then
        local w = cmd.argv[i]
        -- print "…" | "sh": the printed text is a shell's input;
        -- "…" | getline: the string runs as a command
        for text, into in w:gmatch('print[f]?%s*%(?%s*"([^"]*)"%s*%)?%s*|&?%s*"([^"]*)"') do
          local sh = into:match("^%s*(%S+)")
          if sh and SHELL_NAMES[sh:match("[^/]*$")] then lines[#lines + 1] = text end
        end
        for text in w:gmatch('"([^"]*)"%s*|%s*getline') do lines[#lines + 1] = text end
      end
    end
  elseif cmd.name == "sed" or cmd.name == "gsed" then
    -- GNU sed's e command runs the rest of its line as a shell command
    -- (sed 'e rm -rf ~', sed -n '1e …')
    local scripts, given = {}, false
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      if (a == "-e" or a == "--expression") and cmd.argv[i + 1] then scripts[#scripts + 1], given = cmd.argv[i + 1], true
      elseif a:match("^%-%-expression=") then scripts[#scripts + 1], given = a:match("=(.*)$"), true
      elseif a == "-f" or a == "--file" then given = true end
    end
    if not given then
      for i = 2, #cmd.argv do
        if cmd.roles[i] == "operand" or cmd.roles[i] == "code" then scripts[#scripts + 1] = cmd.argv[i] break end
      end
    end
    for _, script in ipairs(scripts) do
      -- s/…/REPLACEMENT/e runs the pattern space, REPLACEMENT where it
      -- replaced the whole line
      for replacement, flags in script:gmatch("s/[^/]*/([^/]*)/(%a*)") do
        if flags:find("e", 1, true) then lines[#lines + 1] = replacement end
      end
      for line in (script .. "\n"):gmatch("([^\n]*)\n") do
        local at = 0
        while at do
          local command = line:sub(at + 1):match("^%s*[%d%$,~!]*%s*e%s+(.+)$")
          if command then lines[#lines + 1] = command break end
          at = line:find(";", at + 1, true)
        end
      end
    end
  elseif cmd.name == "git" then
    git_lines(cmd.argv, lines)
  elseif VIMS[cmd.name] then
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      local c = (a == "-c" or a == "--cmd") and cmd.argv[i + 1] or a:match("^%+(.*)$")
      local line = c and c:gsub("^[:%s]*", ""):gsub("^silent!?%s*", ""):match("^!(.*)$")
      if line then lines[#lines + 1] = line end
    end
  end
  return lines
end

-- embedded judges the shell lines a command's own code runs; each runs
-- in a shell of its own.
function Checker:embedded(cmd, depth)
  local ask
  if AWKS[cmd.name] then
    -- awk printing what it reads (not a string it holds) into a shell
    for i = 2, #cmd.argv do
      for printed, into in cmd.argv[i]:gmatch('print[f]?([^|"]*)|&?%s*"([^"]*)"') do
        local sh = into:match("^%s*(%S+)")
        if sh and SHELL_NAMES[sh:match("[^/]*$")] then
          return "ask", cmd.name .. " prints what it reads into " .. sh .. ", which runs it as code"
        end
      end
    end
  end
  if cmd.name == "git" and next(self.scripts) then
    -- a hook the line wrote into .git/hooks (or a hooks directory given
    -- by core.hooksPath), which the git commands after it may run
    for full in pairs(self.scripts) do
      if full:match("/%.git/hooks/[^/]+$") or full:match("/%.githooks/[^/]+$") or full:match("/%.husky/[^/]+$")
          or (table.concat(cmd.argv, " "):lower():find("core.hookspath=", 1, true) ~= nil) then
        local verdict, why = self:written_script(full, full)
        if verdict == "deny" then return "deny", why .. " (a git hook)" end
        if verdict == "ask" then ask = ask or (why .. " (a git hook)") end
      end
    end
  end
  for _, line in ipairs(embedded_lines(cmd)) do
    local ok, cmds = pcall(shell.parse, line)
    if not ok then return "ask", cmd.name .. " runs a shell line that could not be checked" end
    local verdict, why = self:check(cmds, (depth or 0) + 1) -- check keeps the directory
    if verdict == "deny" then return "deny", why .. " (run by " .. cmd.name .. ")" end
    if verdict == "ask" then ask = ask or (why .. " (run by " .. cmd.name .. ")") end
  end
  if ask then return "ask", ask end
  if cmd.name == "Rscript" or cmd.name == "R" then
    for i = 2, #cmd.argv do
      local w = cmd.argv[i]
      for _, q in ipairs({ '"', "'" }) do
        for target, rest in w:gmatch("unlink%s*%(%s*" .. q .. "([^" .. q .. "]*)" .. q .. "([^%)]*)%)") do
          local what = rest:find("recursive%s*=%s*T") and self:place(target)
          if what then return "deny", cmd.name .. " code deleting " .. what .. " (unlink)" end
        end
      end
    end
  end
  return self:other_deletes(cmd)
end

-- TREE_DELETES are, by program, the forms of its own code that delete a
-- tree, each capturing the path: Vim's delete(…, "rf"), Emacs's
-- delete-directory … t, Julia's rm(…; recursive=true), Tcl's file delete
-- -force, Ansible's file module with state=absent.
local TREE_DELETES = {
  vim = { [==[delete%(%s*["']([^"']+)["']%s*,%s*["']rf["']]==], [==[delete%(%s*expand%(%s*["']([^"']+)["']%s*%)%s*,%s*["']rf["']]==] },
  emacs = { [==[%(delete%-directory%s+"([^"]+)"%s+t]==] },
  julia = { [==[rm%(%s*"([^"]+)"%s*;%s*recursive%s*=%s*true]==], [==[rm%((homedir)%(%)%s*;%s*recursive%s*=%s*true]==] },
  tcl = { [==[file%s+delete%s+%-force%s+%-?%-?%s*([^%s;%]]+)]==] },
  ansible = { [==[path=([^%s'"]+)[^'"]*state=absent]==], [==[state=absent[^'"]*path=([^%s'"]+)]==] },
}
local TREE_DELETERS = { vim = "vim", vi = "vim", nvim = "vim", ex = "vim", gvim = "vim", view = "vim",
                        vimdiff = "vim", emacs = "emacs", julia = "julia", tclsh = "tcl", wish = "tcl",
                        expect = "tcl", ansible = "ansible" }

-- other_deletes judges the trees a program's own code deletes (TREE_DELETES),
-- read from its words and a here-document or here-string it is given, and
-- Maven's exec:exec of a program with its arguments.
function Checker:other_deletes(cmd)
  local lang = TREE_DELETERS[cmd.name]
  if lang then
    local text = table.concat(cmd.argv, " ", 2) .. "\n" .. (stdin_text(cmd) or "")
    for _, pat in ipairs(TREE_DELETES[lang]) do
      for target in text:gmatch(pat) do
        if target == "homedir" or target == "$HOME" or target == "${HOME}" then target = "~" end
        local what = self:place(target)
        if what then return "deny", cmd.name .. " code deleting " .. what end
      end
    end
  elseif cmd.name == "mvn" or cmd.name == "mvnw" or cmd.name == "./mvnw" then
    local exe, args
    for _, a in ipairs(cmd.argv) do
      exe = a:match("^%-Dexec%.executable=(.+)$") or exe
      args = a:match("^%-Dexec%.args=(.*)$") or args
    end
    if exe then
      local ok, verdict, why = self:shell_line(exe .. " " .. (args or ""))
      if not ok then return "ask", "mvn exec runs a command that could not be checked" end
      if verdict then return verdict, why .. " (run by mvn exec)" end
    end
  end
end

-- Directories that hold services' and applications' own files, which
-- moving is routine administration rather than breaking the system.
local MV_EXEMPT = { ["/srv"] = true, ["/opt"] = true }

-- mv moves a protected place away: mv /usr /tmp/x, mv -t /tmp/x /usr.
function Checker:mv(cmd)
  if cmd.name ~= "mv" then return nil end
  local ops = operands(cmd)
  local target_dir = shell.has_flag(cmd.argv, "t", "target-directory")
  local sources = ops
  if not target_dir then
    sources = {}
    for i = 1, #ops - 1 do sources[i] = ops[i] end
  end
  for _, p in ipairs(sources) do
    local what = self:place(p)
    local exempt = not p.dynamic and MV_EXEMPT[path.clean(p.path)]
    if what and not exempt and not what:find("everything in", 1, true) then return "deny", "mv of " .. what end
  end
end

-- The files of /etc without which nobody logs in or boots (other files
-- of /etc are routine configuration).
local CRITICAL_FILES = { ["/etc/passwd"] = true, ["/etc/shadow"] = true, ["/etc/group"] = true,
                         ["/etc/gshadow"] = true, ["/etc/sudoers"] = true, ["/etc/fstab"] = true,
                         ["/etc/ld.so.preload"] = true, ["/etc/ld.so.conf"] = true,
                         ["/etc/nsswitch.conf"] = true, ["/etc/pam.d/common-auth"] = true,
                         ["/etc/pam.d/sudo"] = true, ["/etc/pam.d/login"] = true, ["/etc/master.passwd"] = true,
                         ["/etc/inittab"] = true, ["/etc/crypttab"] = true }

-- sysrq denies any write to /proc/sysrq-trigger, which can crash or
-- reboot the machine at once.
-- SYSRQ_WRITERS are the commands that write a file they name: tee, dd
-- of=, copies (their destination), socat's address.
local SYSRQ_WRITERS = { tee = true, dd = true, cp = true, install = true, mv = true, sponge = true, socat = true,
                        rsync = true }
local function sysrq(cmd)
  for _, r in ipairs(cmd.redirects) do
    local t = type(r.target) == "string" and r.target:sub(1, 1) == "/" and path.clean(r.target)
    if t == "/proc/sysrq-trigger" and writes_to(r) then return "deny", "writing to /proc/sysrq-trigger" end
  end
  if SYSRQ_WRITERS[cmd.name] then
    -- tee's files, and the destination of a copy (its last operand), dd's of=, socat's address
    local ops = operands(cmd)
    if cmd.name ~= "tee" then ops = { ops[#ops] } end
    for _, p in ipairs(ops) do
      if path.clean(p.path) == "/proc/sysrq-trigger" then return "deny", "writing to /proc/sysrq-trigger" end
    end
    for _, a in ipairs(cmd.argv) do
      local t = a:match("^of=(.+)$") or a:match("^[%a%-]*:(/proc/.+)$")
      if t and path.clean(t) == "/proc/sysrq-trigger" then return "deny", "writing to /proc/sysrq-trigger" end
    end
  end
end

-- kill_all denies kill of every process (-1) or of init (1).
local function kill_all(cmd)
  if cmd.name ~= "kill" then return nil end
  local i, seen_signal = 2, false
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    if a == "--" then
      i = i + 1
      break
    elseif a == "-s" or a == "-n" or a == "--signal" then
      i, seen_signal = i + 2, true
    elseif a == "-l" or a == "-L" or a == "--list" or a == "--table" then
      return nil
    elseif a:sub(1, 1) == "-" and not seen_signal and a ~= "-1" then
      i, seen_signal = i + 1, true -- -9, -KILL, -SIGKILL
    elseif a == "-1" and not seen_signal then
      if i == #cmd.argv then return nil end -- kill -1 alone: a signal and no process
      i, seen_signal = i + 1, true -- kill -1 PID: signal 1
    else
      break
    end
  end
  for j = i, #cmd.argv do
    if cmd.argv[j] == "-1" then return "deny", "kill of every process (-1)" end
    if cmd.argv[j] == "1" then return "deny", "kill of init (process 1)" end
  end
end

-- Themes: each rule below belongs to one, whose verdict the operator
-- sets in the verdicts setting (deny, ask or allow); HOOK.md holds the
-- defaults and says why.
local THEMES = { system_files = "deny", machine_state = "deny", disks = "deny", kernel_modules = "deny",
                 fork_bombs = "deny", download_then_run = "deny", deletes_outside_workspace = "ask",
                 git_history = "ask", infrastructure = "ask" }

-- THEME_NAMES are THEMES' names, which the verdicts setting may use.
local THEME_NAMES = {}
for name in pairs(THEMES) do THEME_NAMES[#THEME_NAMES + 1] = name end

-- verdicts reads the verdicts setting, which theme overlays on the
-- defaults (not copied: this runs on every call). A theme or a verdict it
-- does not know is an error (setting module): the guard then denies, and
-- the operator learns of the typo rather than meeting a rule that never
-- fires.
local NO_VERDICTS = {}
local function verdicts(ctx)
  local set = ctx.config.verdicts
  if type(set) == "table" and next(set) == nil then return NO_VERDICTS end -- the default: none
  return setting.verdicts(set, THEME_NAMES, "theme")
end

-- theme returns the operator's verdict for a finding of a theme.
function Checker:theme(name, why)
  local v = self.verdicts[name] or THEMES[name]
  if v == "allow" then return nil end
  return v, why
end

-- words returns the words of cmd whose role is one of the given ones.
local function words_of(cmd, ...)
  local want, out = {}, {}
  for _, r in ipairs({ ... }) do want[r] = true end
  for i = 2, #cmd.argv do
    if want[cmd.roles and cmd.roles[i] or "operand"] then out[#out + 1] = cmd.argv[i] end
  end
  return out
end

local function any_of(cmd, set)
  for i = 2, #cmd.argv do
    if set[cmd.argv[i]] then return cmd.argv[i] end
  end
end

-- within reports whether the clean absolute path t is dir or lies in
-- it (path.is_within without a call into Go: it runs for every path of
-- every command).
local function within(dir, t)
  return t == dir or (t:sub(1, #dir + 1) == dir .. "/") or dir == "/"
end

-- System integrity. BINARY_DIRS hold the programs and libraries the
-- machine runs; CRITICAL_FILES (above) are /etc's login and boot files.
local BINARY_DIRS = { ["/boot"] = true, ["/bin"] = true, ["/sbin"] = true, ["/lib"] = true, ["/lib32"] = true,
                      ["/lib64"] = true, ["/libx32"] = true, ["/usr/bin"] = true, ["/usr/sbin"] = true,
                      ["/usr/lib"] = true, ["/usr/lib32"] = true, ["/usr/lib64"] = true, ["/usr/libexec"] = true,
                      ["/System"] = true, ["/etc/sudoers.d"] = true, ["/etc/pam.d"] = true }
-- system_file looks only at a path's first two directories
for d in pairs(BINARY_DIRS) do
  if select(2, d:gsub("/", "")) > 2 then error("BINARY_DIRS: " .. d .. " is deeper than two directories") end
end

-- system_file says what a path names when writing it breaks the system:
-- a critical file of /etc or anything in a binary directory (the
-- directory itself too). /usr/local, /opt and other files of /etc are
-- where software is installed and configured: they pass.
local function system_file(t)
  if type(t) ~= "string" or t:sub(1, 1) ~= "/" then return nil end
  t = path.clean(t)
  if CRITICAL_FILES[t] then return "the system file " .. t end
  -- t or a directory holding it: the binary directories are one or two
  -- deep, so its first two directories say (one match, not a test per
  -- binary directory or per level: this runs for every path a command
  -- writes); the deeper one first, as it names the place more closely
  local top, second = t:match("^(/[^/]*)(/?[^/]*)")
  local d = top .. second
  if not BINARY_DIRS[d] then d = top end
  if BINARY_DIRS[d] then return "the system " .. (t == d and "directory " or "file ") .. t end
end

-- extracts reports whether an archiver extracts: tar with x (-x,
-- --extract, --get, or old style xzf), 7z x or e, unzip but -l, -v, -t,
-- -z and -Z (which list or test).
local function extracts(cmd)
  local n, argv = cmd.name, cmd.argv
  if n == "unzip" then
    return not (shell.has_flag(argv, "l") or shell.has_flag(argv, "v") or shell.has_flag(argv, "t")
                or shell.has_flag(argv, "z") or shell.has_flag(argv, "Z"))
  end
  if n == "7z" or n == "7za" then return argv[2] == "x" or argv[2] == "e" end
  if n ~= "tar" and n ~= "bsdtar" then return false end
  if argv[2] and argv[2]:sub(1, 1) ~= "-" and argv[2]:find("x", 1, true) then return true end -- tar xzf
  return shell.has_flag(argv, "x", "extract") or has(argv, "--get")
end

-- editors, whose file operands an agent can only have them rewrite
-- (ex -sc '%d|x' FILE, vim -c)
local EDITORS = { ex = true, vi = true, vim = true, nvim = true, ed = true, view = false }

-- destinations returns the paths a command writes: cp's, mv's, ln's
-- and install's destination (the last operand, or -t DIR), tee's and
-- truncate's operands, dd's of=, sed -i's and perl -i's files, the file
-- patch patches, an editor's files, and the directory an archive is
-- extracted into (DIR/, standing for the files of names not seen).
local function destinations(cmd, resolve)
  local n, out = cmd.name, {}
  if n == "cp" or n == "mv" or n == "ln" or n == "install" or n == "rsync" then
    local ops = words_of(cmd, "operand")
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      if (a == "-t" or a == "--target-directory") and cmd.argv[i + 1] then out[#out + 1] = cmd.argv[i + 1] end
      local v = a:match("^%-%-target%-directory=(.+)$") or a:match("^%-t(/.+)$")
      if v then out[#out + 1] = v end
    end
    if #out == 0 and #ops >= 2 then
      local dst = ops[#ops]
      out[#out + 1] = dst
      -- cp x /usr/bin: the file lands in the directory
      if dst:sub(-1) == "/" or system_file(dst) then
        for i = 1, #ops - 1 do out[#out + 1] = dst .. "/" .. (ops[i]:match("([^/]+)/*$") or ops[i]) end
      end
    end
  elseif n == "tee" or n == "truncate" or n == "shred" then
    for _, o in ipairs(words_of(cmd, "operand")) do out[#out + 1] = o end
  elseif n == "dd" then
    for i = 2, #cmd.argv do
      local t = cmd.argv[i]:match("^of=(.+)$")
      if t then out[#out + 1] = t end
    end
  elseif (n == "sed" or n == "perl") and (shell.has_flag(cmd.argv, "i", "in-place") or any_of(cmd, { ["-pi"] = true, ["-pie"] = true })) then
    for _, o in ipairs(words_of(cmd, "operand")) do out[#out + 1] = o end
  elseif n == "patch" then
    -- the file it patches (patch FILE PATCHFILE), or its -o output
    local o = cmd.argv[#cmd.argv]
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      o = ((a == "-o" or a == "--output") and cmd.argv[i + 1]) or a:match("^%-%-output=(.+)$") or a:match("^%-o(.+)$") or o
    end
    local ops = words_of(cmd, "operand")
    out[#out + 1] = (o ~= cmd.argv[#cmd.argv] and o) or ops[1]
  elseif EDITORS[n] then
    for _, o in ipairs(words_of(cmd, "operand")) do out[#out + 1] = o end
  elseif extracts(cmd) then
    -- an archive extracted into a directory writes files of names not seen
    local dir
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      dir = (((n ~= "unzip" and (a == "-C" or a == "--directory")) or (n == "unzip" and a == "-d")) and cmd.argv[i + 1])
          or a:match("^%-%-directory=(.+)$") or (n:sub(1, 2) == "7z" and a:match("^%-o(.+)$")) or dir
    end
    if dir then out[#out + 1] = dir .. "/" end
  end
  for i, o in ipairs(out) do out[i] = resolve(o) or o end
  return out
end

local system_file_posix = system_file

-- code_write judges a call of interpreter code that writes a file
-- (open('/etc/passwd', 'w'), shutil.copy(x, '/usr/bin/ls'),
-- fs.writeFileSync): as a write of that file.
function Checker:code_write(cmd, call)
  local p = call.paths[1]
  local t = p and not p.dynamic and self:resolve(p.path)
  local what = t and system_file(path.clean(t))
  if what then return self:theme("system_files", cmd.name .. " code writing " .. what .. " (" .. call.func .. ")") end
end

-- PowerShell's cmdlets that write a file (and their aliases), and the
-- switches among their parameters: any other parameter takes a value.
local PS_WRITERS = { ["set-content"] = "path", ["add-content"] = "path", ["clear-content"] = "path",
                     ["tee-object"] = "path", sc = "path", ac = "path", clc = "path",
                     ["out-file"] = "path", ["new-item"] = "path", ["copy-item"] = "destination",
                     ["move-item"] = "destination", copy = "destination", cpi = "destination",
                     move = "destination", mi = "destination" }
local PS_SWITCHES = "|-force|-recurse|-append|-nonewline|-passthru|-whatif|-confirm|-noclobber|-container|"
local PS_PATH_PARAMS = "|-path|-literalpath|-filepath|-lp|-pspath|-fi|"
local PS_DESTINATION_PARAMS = "|-destination|-dest|"

-- ps_param reports whether word names one of a list of parameters:
-- the name, or a prefix of it of three letters or more (-Dest, -Fi).
local function ps_param(list, word)
  if #word < 4 then return listed(list, word) end -- "-" and three letters
  for n in list:gmatch("[^|]+") do
    if n:sub(1, #word) == word then return true end
  end
  return false
end

-- ps_destinations returns the files a PowerShell writer writes: its
-- path parameter's value (-Path X, -Path:X), else its positional
-- argument (the first; Copy-Item's and Move-Item's second).
local function ps_destinations(cmd, resolve)
  local which = PS_WRITERS[cmd.name:lower()]
  local params, out, positional = which == "path" and PS_PATH_PARAMS or PS_DESTINATION_PARAMS, {}, {}
  local i = 2
  while i <= #cmd.argv do
    local a = cmd.argv[i]
    local low = a:lower()
    local name, attached = low:match("^(%-[%w]+):(.+)$")
    if ps_param(params, name or low) then
      local v = attached and a:sub(#name + 2) or cmd.argv[i + 1]
      if v then out[#out + 1] = v end
      i = i + (attached and 1 or 2)
    elseif low:sub(1, 1) == "-" and #low > 1 then
      i = i + ((listed(PS_SWITCHES, low) or name) and 1 or 2)
    else
      positional[#positional + 1] = a
      i = i + 1
    end
  end
  if #out == 0 then out[1] = positional[which == "destination" and 2 or 1] end
  for k, o in ipairs(out) do out[k] = resolve(o) or o end
  return out
end

-- system_integrity: writing, redirecting, copying, moving, linking or
-- installing onto system files; changing their mode or owner (even
-- without -R); deleting them, or rm of / itself.
local WRITERS = { cp = true, mv = true, ln = true, install = true, rsync = true, tee = true, truncate = true,
                  shred = true, dd = true, sed = true, perl = true, chmod = true, chown = true, chgrp = true,
                  chattr = true, setfacl = true, patch = true, ex = true, vi = true, vim = true, nvim = true,
                  ed = true, tar = true, bsdtar = true, unzip = true, ["7z"] = true, ["7za"] = true }

-- attribute_targets returns the paths entries of the files chmod,
-- chown, chgrp, chattr or setfacl changes: their operands but the mode
-- or owner. chmod's mode is its first operand unless it is spelled like
-- an option (chmod -w FILE takes write permission away) or taken from
-- --reference FILE; chown's and chgrp's owner likewise, but for the
-- option spelling. chattr's attributes are the words that start with +,
-- - or =, never a file; setfacl has no mode operand, and the files its
-- -M and -X read the ACLs from are not changed.
local ATTRIBUTE_CHANGERS = { chmod = true, chown = true, chgrp = true, chattr = true, setfacl = true }
local FACL_FROM = { ["-M"] = true, ["-X"] = true, ["--modify-file"] = true, ["--remove-file"] = true,
                    ["--set-file"] = true }
local function attribute_targets(cmd)
  local n, argv = cmd.name, cmd.argv
  local roles = cmd.roles or shell.roles(argv)
  local mode_left = n == "chmod" or n == "chown" or n == "chgrp"
  for i = 2, #argv do
    local a = argv[i]
    if a == "--" then break end
    if a:match("^%-%-reference") or (n == "chmod" and a:match("^%-[rwxXst]+$")) then mode_left = false end
  end
  local out = {}
  for i = 2, #argv do
    local a, before = argv[i], argv[i - 1]
    if roles[i] == "operand" and before ~= "--reference" and not (n == "chattr" and a:match("^[+=]"))
        and not (n == "setfacl" and FACL_FROM[before]) then
      if mode_left then mode_left = false else out[#out + 1] = cmd.paths[i] end
    end
  end
  return out
end

function Checker:system_integrity(cmd)
  -- visudo edits the sudoers file; an agent can only run it with a
  -- scripted editor (EDITOR='tee -a' visudo). -c only checks it.
  if cmd.name == "visudo" and not shell.has_flag(cmd.argv, "c", "check") then
    return self:theme("system_files", "visudo, which rewrites the sudoers file")
  end
  local ps_writer = self.powershell and PS_WRITERS[cmd.name:lower()]
  if #cmd.redirects == 0 and not WRITERS[cmd.name] and not DELETERS[cmd.name] and not ps_writer then return nil end
  local resolve = function(p) return (self:resolve(p)) end
  local system_file = system_file
  if self.powershell then
    system_file = function(t) return windows_system_file(t) or system_file_posix(t) end
  end
  for _, r in ipairs(cmd.redirects) do
    if writes_to(r) then
      local what = system_file(resolve(r.target))
      if what then return self:theme("system_files", "writing " .. what) end
    end
  end
  for _, d in ipairs(ps_writer and ps_destinations(cmd, resolve) or destinations(cmd, resolve)) do
    local what = system_file(d)
    if what then return self:theme("system_files", cmd.name .. " onto " .. what) end
  end
  local n = cmd.name
  if ATTRIBUTE_CHANGERS[n] then
    for _, p in ipairs(attribute_targets(cmd)) do
      local t = not p.dynamic and resolve(p.prefix)
      if t and t:sub(1, 1) == "/" then
        t = path.clean(t)
        local what = system_file(t) or (t == "/" and "the root directory")
            or ((SYSTEM[t] or self.protected[t]) and "the system directory " .. t)
        if what then return self:theme("system_files", n .. " of " .. what) end
      end
    end
  end
  if DELETERS[n] then
    for _, p in ipairs(self:operands(cmd)) do
      local t = not p.dynamic and resolve(p.prefix)
      if t and (t:sub(1, 1) == "/" or ((self.powershell or self.gitbash) and t:match("^%a:"))) then
        t = path.clean(t)
        local what = (t == "/" and "the root directory") or system_file(t)
        if what then return self:theme("system_files", n .. " of " .. what) end
      end
    end
  end
end

-- Machine state: powering off or rebooting, killing init or the
-- daemons the machine or the user's access depends on.
local POWER = { shutdown = true, reboot = true, halt = true, poweroff = true, kexec = true }
local POWER_UNITS = { poweroff = true, reboot = true, halt = true, kexec = true, ["soft-reboot"] = true,
                      rescue = true, emergency = true, ["default"] = false }
local CRITICAL_DAEMONS = {}
for _, d in ipairs({ "systemd", "init", "sshd", "ssh", "dbus", "dbus-daemon", "dbus-broker", "systemd-journald",
                     "systemd-logind", "systemd-networkd", "systemd-resolved", "systemd-udevd", "udevd",
                     "networkd", "NetworkManager", "networkmanager", "wpa_supplicant", "launchd", "loginwindow",
                     "WindowServer", "kernel_task", "getty", "agetty", "login", "polkitd", "containerd",
                     "dockerd", "kubelet", "Xorg", "gdm", "sddm", "lightdm" }) do
  CRITICAL_DAEMONS[d] = true
  CRITICAL_DAEMONS[d .. ".service"] = true
end
-- Windows: stopping these stops the machine (or the user's session),
-- and these services run it (or the remote session the agent may use)
for _, d in ipairs({ "csrss", "wininit", "winlogon", "lsass", "smss", "services", "svchost",
                     "rpcss", "eventlog", "winmgmt", "dcomlaunch", "termservice", "lanmanserver", "dnscache",
                     "dhcp", "windefend", "mpssvc", "bfe", "netlogon", "samss", "plugplay", "power" }) do
  CRITICAL_DAEMONS[d] = true
end

-- ps_service returns the critical service a Windows service command
-- stops, disables or deletes, or nil: Stop-Service/spsv and Set-Service
-- -Status Stopped or -StartupType Disabled (-Name X, or X), net stop X,
-- sc stop/delete/config X (start= disabled).
local function ps_service(cmd, low)
  local argv = cmd.argv
  local function critical(w) return w and CRITICAL_DAEMONS[w:lower():gsub("^['\"]", ""):gsub("['\"]$", "")] and w end
  if low == "stop-service" or low == "spsv" or low == "set-service" then
    if low == "set-service" then
      local stops = false
      for i = 2, #argv - 1 do
        local a, v = argv[i]:lower(), argv[i + 1]:lower()
        if (a == "-status" and v == "stopped") or (a == "-startuptype" and v == "disabled") then stops = true end
      end
      if not stops then return nil end
    end
    for i = 2, #argv do
      local a = argv[i]:lower()
      if (a == "-name" or a == "-displayname") and argv[i + 1] then return critical(argv[i + 1]) end
      if a:sub(1, 1) ~= "-" and (i == 2 or argv[i - 1]:sub(1, 1) ~= "-") then return critical(argv[i]) end
    end
  elseif low == "net" and argv[2] and argv[2]:lower() == "stop" then
    return critical(argv[3])
  elseif (low == "sc" or low == "sc.exe") and argv[2] then
    local sub = argv[2]:lower()
    if sub == "stop" or sub == "delete" or sub == "config" then return critical(argv[3]) end
  end
end
local SYSTEMCTL_STOPS = { stop = true, kill = true, mask = true, disable = true, isolate = true }
-- PowerShell: the cmdlets that power the machine off, and the names of
-- Stop-Process (kill is one in a PowerShell line) and of its -Name
local PS_POWER = { ["stop-computer"] = true, ["restart-computer"] = true }
local PS_STOP_PROCESS = { ["stop-process"] = true, spps = true, taskkill = true }
-- and the commands that stop, disable or delete a Windows service
local PS_SERVICES = { ["stop-service"] = true, spsv = true, ["set-service"] = true, net = true, sc = true }
local PS_PROCESS_LISTERS = "|get-process|gps|ps|"
local PS_NAME_PARAMS = "|-name|-processname|-n|-na|"

-- ps_stopped returns the first critical process a Stop-Process names
-- (-Name a,b; -Name:a), or nil.
local function ps_stopped(cmd)
  for i = 2, #cmd.argv do
    local low = cmd.argv[i]:lower()
    local name, attached = low:match("^(%-[%w]+):(.+)$")
    local v = attached or (listed(PS_NAME_PARAMS, low) and cmd.argv[i + 1])
    if listed(PS_NAME_PARAMS, name or low) and v then
      for w in v:gmatch("[^,%s]+") do
        local proc = w:gsub("^['\"]", ""):gsub("['\"]$", ""):gsub("%.exe$", "")
        if CRITICAL_DAEMONS[proc] or CRITICAL_DAEMONS[proc:lower()] then return proc end
      end
    end
  end
end

-- FINDERS print the PIDs of processes by name; finds_critical returns
-- the critical daemon one of them names, or nil.
local FINDERS = { pgrep = true, pidof = true }
local function finds_critical(cmd)
  if not FINDERS[cmd.name] then return nil end
  for _, w in ipairs(words_of(cmd, "operand")) do
    local name = w:gsub("^%^", ""):gsub("%$$", "")
    name = name:match("([^/]+)$") or name
    if CRITICAL_DAEMONS[name] or CRITICAL_DAEMONS[name:lower()] then return name end
  end
end

-- killed_finder returns the critical daemon whose PIDs a kill gets from
-- a process finder: in a substitution (kill -9 $(pgrep sshd), `pidof
-- systemd`) or piped through xargs (pgrep sshd | xargs kill).
function Checker:killed_finder(cmd)
  for i = 2, #cmd.argv do
    local inner = cmd.paths[i].dynamic and (cmd.argv[i]:match("^%$%((.*)%)$") or cmd.argv[i]:match("^`(.*)`$"))
    if inner then
      local ok, cmds = pcall(shell.parse, inner)
      for _, c in ipairs(ok and cmds or {}) do
        local name = finds_critical(c)
        if name then return name end
      end
    end
  end
  local from = self.piped and has(cmd.wrapped_by, "xargs") and self.piped[#self.piped]
  return from and finds_critical(from) or nil
end

function Checker:machine_state(cmd)
  local n = cmd.name
  local low = cmdlet(n) or (self.powershell and n:lower()) or n
  if PS_POWER[low] then
    if any_of(cmd, { ["-WhatIf"] = true, ["-whatif"] = true }) then return nil end
    return self:theme("machine_state", n .. " shuts down or restarts the machine")
  end
  if self.powershell and (low == "stop-service" or low == "spsv" or low == "set-service" or low == "net" or low == "sc") then
    local svc = ps_service(cmd, low)
    if svc then return self:theme("machine_state", n .. " of the service " .. svc .. ", which the machine depends on") end
    return nil
  end
  if low == "taskkill" then -- Windows: taskkill /IM NAME
    for i = 2, #cmd.argv - 1 do
      local a = cmd.argv[i]:lower()
      local image = (a == "/im" or a == "-im") and cmd.argv[i + 1]:lower():gsub("%.exe$", "")
      if image and CRITICAL_DAEMONS[image] then
        return self:theme("machine_state", "taskkill of " .. cmd.argv[i + 1] .. ", which the machine depends on")
      end
    end
    return nil
  end
  if PS_STOP_PROCESS[low] or (self.powershell and low == "kill") then
    local proc = ps_stopped(cmd)
    if proc then return self:theme("machine_state", n .. " of " .. proc .. ", which the machine depends on") end
    -- what Get-Process lists, piped in: every process, or a critical one
    local from = self.piped and self.piped[#self.piped]
    if from and listed(PS_PROCESS_LISTERS, from.name:lower()) and #cmd.argv == 1 + #words_of(cmd, "option") then
      local names = words_of(from, "operand")
      if #names == 0 then return self:theme("machine_state", n .. " of every process " .. from.name .. " lists") end
      for _, w in ipairs(names) do
        if CRITICAL_DAEMONS[w:lower():gsub("%.exe$", "")] then
          return self:theme("machine_state", n .. " of " .. w .. ", which the machine depends on")
        end
      end
    end
    if low ~= "kill" then return nil end
  end

  if POWER[n] then
    if any_of(cmd, { ["-c"] = true, ["--help"] = true, ["-k"] = true, ["--show"] = true, ["/a"] = true, ["/A"] = true,
                     ["-a"] = true, ["/?"] = true }) then
      return nil -- cancels a shutdown, or shows help (Windows' shutdown /a)
    end
    return self:theme("machine_state", n .. " shuts down or restarts the machine")
  end
  if n == "init" or n == "telinit" then
    local level = words_of(cmd, "operand")[1]
    if level == "0" or level == "6" or level == "1" or level == "s" or level == "S" then
      return self:theme("machine_state", n .. " " .. level .. " halts, reboots or isolates the machine")
    end
  end
  if n == "systemctl" or n == "loginctl" then
    local ops = words_of(cmd, "operand")
    local sub = ops[1]
    if POWER_UNITS[sub] then return self:theme("machine_state", n .. " " .. sub .. " takes the machine down") end
    -- starting a power target is the command of the same name
    -- (systemctl start poweroff.target)
    if sub == "start" or sub == "restart" or sub == "reload-or-restart" or sub == "try-restart" then
      for i = 2, #ops do
        local unit = ops[i]:match("^(.-)%.target$")
        if unit and POWER_UNITS[unit] then
          return self:theme("machine_state", n .. " " .. sub .. " " .. ops[i] .. " takes the machine down")
        end
      end
    end
    if sub and SYSTEMCTL_STOPS[sub] then
      for i = 2, #ops do
        local unit = ops[i]:gsub("%.target$", "")
        if CRITICAL_DAEMONS[ops[i]] or POWER_UNITS[unit] or unit == "multi-user" or unit == "graphical" then
          return self:theme("machine_state", n .. " " .. sub .. " " .. ops[i] .. ", which the machine depends on")
        end
      end
    end
  end
  if n == "busctl" or n == "dbus-send" or n == "gdbus" or n == "qdbus" then
    -- logind's methods that power off, reboot, halt or suspend, called
    -- over D-Bus (busctl call org.freedesktop.login1 … PowerOff b false)
    local line = table.concat(cmd.argv, " ")
    local method = line:find("login1", 1, true) and (line:match("%f[%w](PowerOff)%f[^%w]") or line:match("%f[%w](Reboot)%f[^%w]")
      or line:match("%f[%w](Halt)%f[^%w]") or line:match("%f[%w](KExec)%f[^%w]") or line:match("%.(PowerOff)") or line:match("%.(Reboot)")
      or line:match("%.(Halt)"))
    if method then return self:theme("machine_state", n .. " calls logind's " .. method .. ", which takes the machine down") end
  end
  if n == "service" then
    local ops = words_of(cmd, "operand")
    if CRITICAL_DAEMONS[ops[1] or ""] and (ops[2] == "stop" or ops[2] == "kill") then
      return self:theme("machine_state", "service " .. ops[1] .. " " .. ops[2] .. ", which the machine depends on")
    end
  end
  if n == "killall" or n == "pkill" or n == "skill" or n == "killall5" then
    if n == "killall5" then return self:theme("machine_state", "killall5 kills every process") end
    for _, w in ipairs(words_of(cmd, "operand")) do
      local name = w:gsub("^%^", ""):gsub("%$$", "")
      name = name:match("([^/]+)$") or name
      if CRITICAL_DAEMONS[name] or CRITICAL_DAEMONS[name:lower()] then
        return self:theme("machine_state", n .. " of " .. w .. ", which the machine depends on")
      end
    end
  end
  local verdict, why = kill_all(cmd)
  if verdict then return self:theme("machine_state", why) end
  if n == "kill" then
    local daemon = self:killed_finder(cmd)
    if daemon then return self:theme("machine_state", "kill of " .. daemon .. "'s processes, which the machine depends on") end
  end
end

-- Disks and volumes: partitioning, erasing and removing volumes, on
-- any target (a disk, a partition, a volume group, a pool).
local READ_ONLY = { ["-l"] = true, ["--list"] = true, ["-h"] = true, ["--help"] = true, ["-V"] = true,
                    ["--version"] = true, ["-s"] = true, ["--getsz"] = true, ["-p"] = true, ["--print"] = true,
                    ["-d"] = true, ["--dump"] = true, ["-J"] = true, ["--json"] = true, ["--verify"] = true,
                    ["-n"] = true, ["--no-act"] = true, ["--test"] = true }

local DISK_TOOLS = {}
for _, n in ipairs({ "fdisk", "cfdisk", "gdisk", "cgdisk", "sfdisk", "sgdisk", "parted", "mdadm", "pvremove", "pvcreate", "vgcreate",
                     "vgremove", "lvremove", "lvreduce", "vgreduce", "dmsetup", "btrfs", "zfs", "zpool",
                     "diskutil", "wipefs", "nvme", "hdparm", "cryptsetup", "badblocks", "format", "diskpart" }) do
  DISK_TOOLS[n] = true
end
-- PowerShell's storage cmdlets that erase, and what they erase
local PS_DISKS = { ["format-volume"] = "erases a volume", ["clear-disk"] = "erases a disk",
                   ["remove-partition"] = "deletes a partition", ["initialize-disk"] = "writes a new partition table",
                   ["remove-physicaldisk"] = "removes a disk from its pool", ["remove-virtualdisk"] = "deletes a virtual disk",
                   ["remove-storagepool"] = "deletes a storage pool" }
for name in pairs(PS_DISKS) do DISK_TOOLS[name] = true end

function Checker:disks(cmd)
  local n = cmdlet(cmd.name) or cmd.name
  if not DISK_TOOLS[n] then return nil end
  local ops = words_of(cmd, "operand")
  local function found(why) return self:theme("disks", why) end
  if n == "diskpart" then
    if has(cmd.argv, "/?") then return nil end
    return "ask", "diskpart runs a script of disk commands, which can erase disks (clean, delete, format)"
  end
  if PS_DISKS[n] then
    if any_of(cmd, { ["-WhatIf"] = true, ["-whatif"] = true }) then return nil end
    return found(cmd.name .. " " .. PS_DISKS[n])
  end
  if n == "format" then -- cmd.exe's format of a drive (format C: /q, format /q /y D:)
    for _, o in ipairs(ops) do
      if o:match("^%a:/?$") then return found("format " .. o .. " erases the drive") end
    end
    return nil
  end
  if n == "fdisk" or n == "cfdisk" or n == "gdisk" or n == "cgdisk" or n == "sfdisk" then
    if any_of(cmd, READ_ONLY) or #ops == 0 then return nil end
    return found(n .. " rewrites the partition table of " .. ops[1])
  end
  local destroy
  if n == "sgdisk" then
    for _, a in ipairs(cmd.argv) do
      if a == "--zap-all" or a == "--zap" or a == "--clear" or a:match("^%-[^-]*[ZzodnN]") or a:match("^%-%-delete") or a:match("^%-%-new") then destroy = a end
    end
  elseif n == "parted" then
    destroy = any_of(cmd, { mklabel = true, mktable = true, rm = true, mkpart = true, resizepart = true, mkfs = true })
  elseif n == "mdadm" then
    destroy = any_of(cmd, { ["--zero-superblock"] = true, ["--create"] = true, ["-C"] = true, ["--stop"] = true,
                            ["-S"] = true, ["--remove"] = true, ["--fail"] = true })
  elseif n == "pvremove" or n == "vgremove" or n == "lvremove" or n == "lvreduce" or n == "vgreduce" then
    if not any_of(cmd, READ_ONLY) then destroy = n end
  elseif n == "dmsetup" then
    destroy = any_of(cmd, { remove_all = true, remove = true, wipe_table = true, clear = true })
  elseif n == "btrfs" then
    local group, action = ops[1] or "", ops[2] or ""
    if (group:match("^sub") and action:match("^del")) or (group:match("^dev") and (action:match("^del") or action:match("^rem"))) then
      destroy = group .. " " .. action
    end
  elseif n == "zfs" or n == "zpool" then
    -- zpool create (and add, attach, replace with -f) writes a pool over the disks named
    if ops[1] == "destroy" or ops[1] == "labelclear" or (n == "zpool" and ops[1] == "create") then destroy = n .. " " .. ops[1] end
  elseif n == "pvcreate" or n == "vgcreate" then
    -- an LVM label written over a disk (-ff: even one in use)
    if not any_of(cmd, READ_ONLY) and #ops > (n == "vgcreate" and 1 or 0) then destroy = n end
  elseif n == "diskutil" then
    local sub = (ops[1] or ""):lower()
    local sub2 = (ops[2] or ""):lower()
    if sub == "erasedisk" or sub == "erasevolume" or sub == "partitiondisk" or sub == "zerodisk" or sub == "randomdisk"
        or sub == "secureerase" or sub == "reformat" or (sub == "apfs" and sub2:match("^delete")) then
      destroy = "diskutil " .. ops[1]
    end
  elseif n == "wipefs" then
    if not any_of(cmd, READ_ONLY) and #ops > 0 then destroy = "wipefs" end
  elseif n == "nvme" then
    if ops[1] == "format" or ops[1] == "sanitize" then destroy = "nvme " .. ops[1] end
  elseif n == "cryptsetup" then
    -- formatting a volume or erasing its key slots makes its data unreadable
    local sub = (ops[1] or ""):lower()
    if sub == "luksformat" or sub == "erase" or sub == "lukserase" or sub == "lukskillslot" then destroy = "cryptsetup " .. ops[1] end
  elseif n == "badblocks" then
    if shell.has_flag(cmd.argv, "w") then destroy = "-w" end -- the write test overwrites the whole device
  elseif n == "hdparm" then
    destroy = any_of(cmd, { ["--security-erase"] = true, ["--security-erase-enhanced"] = true, ["--trim-sector-ranges"] = true })
  end
  if destroy then
    return found(n .. " (" .. destroy .. ") destroys the data of a disk or volume: " .. table.concat(ops, " "))
  end
end

-- Kernel: loading or removing modules.
local MODPROBE_LOOKS = { ["-n"] = true, ["--dry-run"] = true, ["-c"] = true, ["--showconfig"] = true,
                         ["-D"] = true, ["--show-depends"] = true, ["-h"] = true, ["--help"] = true,
                         ["-V"] = true, ["--version"] = true, ["--show-modversions"] = true }

function Checker:kernel(cmd)
  local n = cmd.name
  if n == "insmod" or n == "rmmod" or (n == "modprobe" and not any_of(cmd, MODPROBE_LOOKS)) then
    if #words_of(cmd, "operand") == 0 and n ~= "modprobe" then return nil end
    return self:theme("kernel_modules", n .. " loads or removes kernel modules")
  end
  if n == "kmod" then
    local sub = words_of(cmd, "operand")[1]
    if sub == "insmod" or sub == "rmmod" or sub == "modprobe" then return self:theme("kernel_modules", "kmod " .. sub .. " loads or removes kernel modules") end
  end
end

-- Fork bombs in interpreters: code that forks in an endless loop
-- (perl -e 'fork while fork', python's while True: os.fork()).
local FORK_LOOPS = { "fork%s+while%s+fork", "fork%s+until", "while%s*%(?%s*[Tt]rue%s*%)?%s*:?[^\n]*fork",
                     "while%s*%(?%s*1%s*%)?%s*:?[^\n]*fork", "for%s*%(%s*;%s*;%s*%)[^\n]*fork",
                     "loop%s*{[^}]*fork", "loop%s+do[^\n]*fork", "while%s*%(%s*true%s*%)[^\n]*fork",
                     "while%s+true[^\n]*fork", "1%s+while[^\n]*fork", "fork[^\n]*while%s*1", "fork%s+while%s+true" }

-- An interpreter one-liner that fetches code and evaluates it runs what
-- a server sends, as curl | sh does: python -c "exec(urlopen(URL).read())",
-- node -e "eval(await (await fetch(URL)).text())", ruby's eval(URI.open(…)).
-- A call that evaluates text and one that fetches, in the same code.
local CODE_EVALS = { python = { "exec%s*%(", "eval%s*%(" }, node = { "%f[%w_.]eval%f[^%w_]", "new%s+Function%s*%(", "runInThisContext", "runInNewContext" },
                     ruby = { "eval%s*%(", "instance_eval", "eval%s+[%a_]" }, perl = { "eval%s*[%({%$]", "eval%s+get" },
                     php = { "eval%s*%(" }, lua = { "loadstring%s*%(", "load%s*%(", "dostring" } }
local CODE_FETCHES = { "urlopen", "requests%.get", "httpx%.get", "urllib", "fetch%s*%(", "https?%.get",
                       "axios", "uri%.open", "open%-uri", "net::http", "lwp", "http::tiny", "getstore", "get%s*%(['\"]https?:",
                       "file_get_contents%s*%(['\"]https?:", "curl_exec", "socket%.http", "http%.request",
                       "curl%s", "wget%s" }
function Checker:code_download(cmd)
  local evals = CODE_EVALS[cmd.lang]
  if not evals or cmd.code == "" then return nil end
  local code = cmd.code:lower()
  local evaluates = false
  for _, pat in ipairs(evals) do
    if code:find(pat:lower()) then evaluates = true end
  end
  if not evaluates then return nil end
  for _, pat in ipairs(CODE_FETCHES) do
    if code:find(pat) then
      return self:theme("download_then_run", cmd.name .. " code fetches code and runs it (as curl | sh does)")
    end
  end
end

function Checker:fork_bomb(cmd)
  local verdict, why = fork_bomb(cmd)
  if verdict then return self:theme("fork_bombs", why) end
  if cmd.lang == "" or cmd.lang == "sh" or cmd.code == "" then return nil end
  local code = cmd.code:gsub("\n%s+", " ")
  for _, pat in ipairs(FORK_LOOPS) do
    if code:find(pat) then return self:theme("fork_bombs", "a fork bomb (" .. cmd.name .. " code forks in an endless loop)") end
  end
end

-- Download, then run: a file curl or wget saves, run later in the line
-- by a shell, an interpreter, source or its own path.
-- PS_SAVERS are PowerShell's downloaders, whose -OutFile (BITS'
-- -Destination) is the file they save.
local PS_SAVERS = "|iwr|irm|invoke-webrequest|invoke-restmethod|start-bitstransfer|"

local function downloaded(cmd)
  local n, out = cmd.name:lower(), {}
  if listed(PS_SAVERS, n) then
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]:lower()
      local name, v = a:match("^(%-[%a]+):(.+)$")
      if (a == "-outfile" or a == "-destination" or a == "-o") and cmd.argv[i + 1] then out[#out + 1] = cmd.argv[i + 1] end
      if name == "-outfile" or name == "-destination" then out[#out + 1] = cmd.argv[i]:sub(#name + 2) end
    end
    return out
  end
  n = n:gsub("%.exe$", "")
  if n == "certutil" or n == "bitsadmin" then
    -- certutil -urlcache -f URL FILE, bitsadmin /transfer JOB URL FILE:
    -- the file is the last word, after a URL
    local url = false
    for i = 2, #cmd.argv do
      if cmd.argv[i]:match("^%a[%w+.-]*://") then url = i end
    end
    if url and url < #cmd.argv then out[#out + 1] = cmd.argv[#cmd.argv] end
    return out
  end
  local function url_name(u) return u:match("^%a[%w+.-]*://[^?#]*/([^/?#]+)") end
  -- the directory the files go to: curl --output-dir, wget -P
  -- (--directory-prefix), aria2c -d (--dir)
  local dir
  for i = 2, #cmd.argv do
    local a, v = cmd.argv[i], cmd.argv[i + 1]
    if v and (n == "curl" and a == "--output-dir" or n == "wget" and (a == "-P" or a == "--directory-prefix")
        or n == "aria2c" and (a == "-d" or a == "--dir")) then dir = v end
    dir = a:match("^%-%-output%-dir=(.+)$") or (n == "wget" and a:match("^%-P(.+)$"))
        or a:match("^%-%-directory%-prefix=(.+)$") or (n == "aria2c" and a:match("^%-%-dir=(.+)$")) or dir
  end
  local function in_dir(files)
    if not dir then return files end
    local placed = {}
    for _, f in ipairs(files) do placed[#placed + 1] = f:sub(1, 1) == "/" and f or dir .. "/" .. f end
    return placed
  end
  if n == "curl" then
    local remote = false
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      if (a == "-o" or a == "--output") and cmd.argv[i + 1] then out[#out + 1] = cmd.argv[i + 1] end
      local attached = a:match("^%-o(.+)$") or a:match("^%-%-output=(.+)$") or (a:match("^%-[^-]*o$") and a ~= "-o" and cmd.argv[i + 1])
      if attached then out[#out + 1] = attached end
      if a == "-O" or a == "--remote-name" or a:match("^%-[^-]*O") then remote = true end
    end
    if remote then
      for i = 2, #cmd.argv do out[#out + 1] = url_name(cmd.argv[i]) end
    end
  elseif n == "wget" or n == "aria2c" then
    local named = false
    for i = 2, #cmd.argv do
      local a = cmd.argv[i]
      if (a:match("^%-[^-]*O$") or a == "-o" and n == "aria2c" or a == "--output-document" or a == "--out") and cmd.argv[i + 1] then
        out[#out + 1], named = cmd.argv[i + 1], true
      end
      local attached = a:match("^%-O(.+)$") or a:match("^%-%-output%-document=(.+)$") or a:match("^%-%-out=(.+)$")
      if attached then out[#out + 1], named = attached, true end
    end
    if not named then
      for i = 2, #cmd.argv do out[#out + 1] = url_name(cmd.argv[i]) end
    end
  end
  return in_dir(out)
end

-- run_target returns the file a command runs as code, if any: a
-- shell's or interpreter's script, what source reads, or the command's
-- own path (./install.sh).
local function run_target(cmd)
  if cmd.argv[1]:find("/", 1, true) and cmd.argv[1] ~= "/" then return cmd.argv[1] end
  if cmd.lang ~= "" and cmd.code == "" then
    local ops = words_of(cmd, "operand")
    if ops[1] then return ops[1] end
    for i = 2, #cmd.argv - 1 do -- bash --rcfile a -i, --init-file a
      if cmd.argv[i] == "--rcfile" or cmd.argv[i] == "--init-file" then return cmd.argv[i + 1] end
    end
    for _, r in ipairs(cmd.redirects) do -- bash < a, sh -s < a
      if r.op == "<" and type(r.target) == "string" and r.fd == 0 then return r.target end
    end
  end
end

function Checker:record_download(cmd)
  local files = downloaded(cmd)
  if DOWNLOADERS[cmd.name] then -- curl URL > x.sh
    for _, r in ipairs(cmd.redirects) do
      if (r.op == ">" or r.op == ">|" or r.op == ">>") and r.fd == 1 then files[#files + 1] = r.target end
    end
  end
  for _, f in ipairs(files) do
    local full = self:resolve(f) or f
    self.downloads[path.clean(full)] = cmd.name
    self.wrote = true
  end
end

-- written returns the text echo, printf or cat (from a here-document)
-- writes: a script the line writes before it runs it (echo 'rm -rf ~'
-- > x.sh && bash x.sh). false when part of it is known only at run
-- time; nil for a cat of files.
local function written(cmd)
  local n = cmd.name
  if n == "cat" then
    for _, r in ipairs(cmd.redirects) do
      if r.op == "<<" or r.op == "<<-" then return r.target end
    end
    return nil
  end
  local words, i = {}, 2
  while n == "echo" and cmd.argv[i] and cmd.argv[i]:match("^%-[neE]+$") do i = i + 1 end
  for j = i, #cmd.argv do
    if cmd.paths[j].dynamic then return false end
    words[#words + 1] = cmd.argv[j]
  end
  -- \\ is a backslash (kept apart while \n and \t become what they mean)
  local function escapes(t) return (t:gsub("\\\\", "\1"):gsub("\\n", "\n"):gsub("\\t", "\t"):gsub("\1", "\\")) end
  if n == "echo" then return escapes(table.concat(words, " ")) end
  local k = 1
  return escapes((words[1] or ""):gsub("%%%%", "\0"):gsub("%%s", function()
    k = k + 1
    return words[k] or ""
  end):gsub("%z", "%%"))
end

-- Programs that may replace a file's text (chmod +x x.sh does not).
-- COPIERS make a file that is a copy of (or a link to) another, which a
-- later command may run under its new name (cp /bin/rm ./x; ./x -rf /):
-- the programs whose copies the shell module follows.
local COPIERS = {}
for _, name in ipairs(shell.copiers) do COPIERS[name] = true end

local TEXT_WRITERS = { cp = true, mv = true, ln = true, install = true, rsync = true, tee = true, truncate = true,
                       shred = true, dd = true, sed = true, perl = true, ruby = true, patch = true, curl = true,
                       wget = true, sponge = true, envsubst = true }

-- make_lines returns the shell lines of a makefile's recipes (lines
-- that start with a tab, and what follows the ; of a rule), as make
-- hands them to the shell: @, - and + dropped, continued lines joined,
-- the makefile's own simple variables and those the command line sets
-- ($(CC), ${BUILD}) put in, $$ made $.
local MAKE_DEFAULTS = { RM = "rm -f", CC = "cc", CXX = "g++", CPP = "cc -E", LD = "ld", AR = "ar", AS = "as",
                        MAKE = "make", INSTALL = "install", FC = "f77", LEX = "lex", YACC = "yacc", SHELL = "/bin/sh",
                        ARFLAGS = "rv", CFLAGS = "", CXXFLAGS = "", CPPFLAGS = "", LDFLAGS = "", LDLIBS = "" }
local function make_lines(text, vars)
  local values, lines, raw = {}, {}, {}
  for k, v in pairs(MAKE_DEFAULTS) do values[k] = v end
  for k, v in pairs(vars or {}) do values[k] = v end
  -- $(shell …) runs while make reads the makefile, wherever it is
  for command in text:gmatch("%$%(shell%s+([^%)]*)%)") do lines[#lines + 1] = (command:gsub("%$%$", "$")) end
  text = text:gsub("\\\n[ \t]*", " ")
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:sub(1, 1) == "\t" then
      raw[#raw + 1] = line:sub(2)
    else
      local name, value = line:match("^%s*([%w_%.%-]+)%s*[:?+!]*=%s*(.-)%s*$")
      if name and not line:match("^%s*[%w_%.%-]+%s*:[^=]") then
        if not (vars and vars[name]) then values[name] = value end
      else
        local inline = line:match("^[^#\t][^:=]*:[^=][^;]*;(.*)$")
        if inline then raw[#raw + 1] = inline end
      end
    end
  end
  for _, r in ipairs(raw) do
    local l = r:gsub("^[%s@%-%+]+", "")
    for _ = 1, 3 do -- variables that name variables, a few levels deep
      l = l:gsub("%$([%(%{])([%w_]+)([%)%}])", function(open, name, close)
        if (open == "(" and close ~= ")") or (open == "{" and close ~= "}") then return nil end
        return values[name]
      end)
    end
    lines[#lines + 1] = (l:gsub("%$%$", "$"))
  end
  return lines
end

-- BUILD_TOOLS are the programs that run recipes from a file: make's
-- makefile, the package managers' package.json scripts, and the files
-- of other build and task tools, which are not read (RECIPE_FILES).
local BUILD_TOOLS = { make = "make", gmake = "make", npm = "npm", pnpm = "npm", yarn = "npm", bun = "npm",
                      just = "other", task = "other", tox = "other", ["pre-commit"] = "other", cmake = "other",
                      ninja = "other", rake = "other", go = "other", gradle = "other", ["./gradlew"] = "other",
                      deno = "other", composer = "other", cargo = "other", pip = "other", pip3 = "other",
                      pytest = "other", nox = "other", docker = "other", ["docker-compose"] = "other",
                      python = "other", python3 = "other", uv = "other", pdm = "other", hatch = "other",
                      poe = "other", mise = "other", ["cargo-make"] = "other", makers = "other" }
-- RECIPE_FILES are, by name, the files those other tools read recipes
-- or code from; a line that writes one and runs its tool asks when the
-- text deletes something (a Python file's code is judged as code).
local RECIPE_FILES = { justfile = true, Justfile = true, [".justfile"] = true, ["Taskfile.yml"] = true,
                       ["Taskfile.yaml"] = true, ["tox.ini"] = true, [".pre-commit-config.yaml"] = true,
                       ["CMakeLists.txt"] = true, ["build.ninja"] = true, Rakefile = true, ["build.gradle"] = true,
                       ["build.gradle.kts"] = true, ["deno.json"] = true, ["deno.jsonc"] = true,
                       ["composer.json"] = true, ["build.rs"] = true, ["Cargo.toml"] = true, ["setup.py"] = "python",
                       ["pyproject.toml"] = true, ["conftest.py"] = "python", ["noxfile.py"] = "python",
                       ["sitecustomize.py"] = "python", ["usercustomize.py"] = "python", Dockerfile = true,
                       ["compose.yaml"] = true, ["compose.yml"] = true, ["docker-compose.yml"] = true,
                       ["docker-compose.yaml"] = true, ["mise.toml"] = true, [".mise.toml"] = true,
                       ["Makefile.toml"] = true }
-- DELETING_WORDS in a recipe file's text make running it ask.
local DELETING_WORDS = { "rm", "rmdir", "shred", "rimraf", "mkfs", "wipefs", "rmtree", "remove_dir_all",
                         "REMOVE_RECURSE", "remove_directory", "Remove-Item", "unlink", "dd", "truncate" }

-- record_script remembers the text a command writes into a file. A
-- script another program then writes (cp t.sh x.sh, sed -i … x.sh) is
-- that program's file: it is forgotten, as a file the line did not
-- write is not judged.
function Checker:record_script(cmd)
  if self.wrote and TEXT_WRITERS[cmd.name] then
    -- what it writes is no longer the script written before; a copy's
    -- source is still (copied passes it on to the copy)
    for k, p in ipairs(operands(cmd)) do
      local full = not p.dynamic and path.clean(self:resolve(p.path) or p.path)
      if full and not (k == 1 and COPIERS[cmd.name]) then self.scripts[full] = nil end
    end
  end
  if cmd.name == "tee" and #cmd.wrapped_by == 0 then
    -- tee FILE <<< 'TEXT', echo 'TEXT' | tee FILE: a script written
    local text
    for _, r in ipairs(cmd.redirects) do
      if r.op == "<<<" and type(r.target) == "string" then text = r.target end
    end
    local prev = not text and self.piped and self.piped[#self.piped]
    if prev and (prev.name == "echo" or prev.name == "printf" or prev.name == "cat") then text = written(prev) end
    if text ~= nil then
      for _, p in ipairs(operands(cmd)) do
        if not p.dynamic then self.scripts[path.clean(self:resolve(p.path) or p.path)], self.wrote = text or false, true end
      end
    end
  end
  if cmd.name == "sed" and #cmd.redirects > 0 then
    -- sed -n 'w x.sh' <<< 'TEXT': the w command writes what sed reads
    local text = stdin_text(cmd)
    for i = 2, #cmd.argv do
      local file = text and cmd.argv[i]:match("^%s*[%d%$,]*w%s+(%S+)%s*$")
      if file and not file:find("[%$`]") then
        self.scripts[path.clean(self:resolve(file) or file)], self.wrote = text, true
      end
    end
  end
  if (cmd.name == "cp" or cmd.name == "install" or cmd.name == "dd" or cmd.name == "sponge") and #cmd.redirects > 0 then
    -- cp /dev/stdin x.sh <<< 'TEXT', dd of=x.sh <<< …, sponge x.sh <<< …:
    -- the text given on standard input is what the file holds
    local text = stdin_text(cmd)
    local ops, dest = operands(cmd), nil
    if text and cmd.name == "dd" then
      local from_stdin = true
      for _, a in ipairs(cmd.argv) do
        local v = a:match("^if=(.*)$")
        if v and v ~= "/dev/stdin" and v ~= "/dev/fd/0" then from_stdin = false end
        dest = a:match("^of=(.+)$") or dest
      end
      if not from_stdin then dest = nil end
    elseif text and cmd.name == "sponge" then
      dest = ops[1] and ops[1].path
    elseif text and #ops >= 2 and (ops[1].path == "/dev/stdin" or ops[1].path == "-" or ops[1].path == "/dev/fd/0") then
      dest = ops[#ops].path
    end
    if dest and not dest:find("[%$`]") then
      self.scripts[path.clean(self:resolve(dest) or dest)], self.wrote = text, true
    end
  end
  if #cmd.wrapped_by > 0 then return end
  -- PowerShell: Set-Content FILE 'TEXT' (Add-Content appends): a script
  -- written on the line, read as PowerShell where it runs
  local writer = self.powershell and PS_WRITERS[cmd.name:lower()]
  if writer == "path" and cmd.name:lower() ~= "out-file" and cmd.name:lower() ~= "tee-object" then
    local file, text
    local ops = {}
    for i = 2, #cmd.argv do
      local low = cmd.argv[i]:lower()
      if low == "-value" then text = cmd.argv[i + 1] or text
      elseif (low == "-path" or low == "-literalpath") and cmd.argv[i + 1] then file = cmd.argv[i + 1]
      elseif cmd.argv[i - 1]:sub(1, 1) ~= "-" and low:sub(1, 1) ~= "-" then ops[#ops + 1] = i end
    end
    file = file or (ops[1] and cmd.argv[ops[1]])
    text = text or (ops[2] and cmd.argv[ops[2]])
    if file and not file:find("[%$`]") then
      local full = path.clean(self:resolve(file) or file)
      local append = cmd.name:lower() == "add-content" or cmd.name:lower() == "ac"
      local dynamic = not text or text:find("[%$`]")
      local before = append and self.scripts[full] or ""
      if dynamic or before == false then
        self.scripts[full], self.wrote = false, true
      else
        self.scripts[full], self.wrote = before .. text .. "\n", true
      end
    end
  end
  for _, r in ipairs(cmd.redirects) do
    -- echo … >&3 writes the file exec 3> FILE opened (append, as the
    -- descriptor's offset moves on)
    local through = r.op == ">&" and r.fd == 1 and self.fds and self.fds[tonumber(r.target) or -1]
    through = through and through.file
    if through or ((r.op == ">" or r.op == ">|" or r.op == ">>") and r.fd == 1 and not r.target:find("[%$`]")) then
      local text = (cmd.name == "echo" or cmd.name == "printf" or cmd.name == "cat") and written(cmd)
      local full = through or path.clean(self:resolve(r.target) or r.target)
      local before = (r.op == ">>" or through) and self.scripts[full] or ""
      if text == nil then
        self.scripts[full] = nil -- another program's output: not judged, as before
      elseif text == false or before == false then
        self.scripts[full], self.wrote = false, true -- text known only at run time
      else
        self.scripts[full], self.wrote = before .. text .. "\n", true
      end
    end
  end
end

-- open_fds records the descriptors exec opens for the rest of the line
-- (exec 3> x.sh, exec 4<>run.sh: a file written through them; exec
-- 3<<'EOF': a text read from them), and those it closes (exec 3>&-).
function Checker:open_fds(cmd)
  self.fds = self.fds or {}
  for _, r in ipairs(cmd.redirects) do
    local t = type(r.target) == "string" and r.target or ""
    if (r.op == "<<" or r.op == "<<-" or r.op == "<<<") then
      self.fds[r.fd] = { text = t }
    elseif (r.op == ">&" or r.op == "<&") and t == "-" then
      self.fds[r.fd] = nil
    elseif (r.op == ">" or r.op == ">>" or r.op == ">|" or r.op == "<>") and not t:find("[%$`]") then
      local full = path.clean(self:resolve(t) or t)
      if r.op ~= ">>" and r.op ~= "<>" then self.scripts[full], self.wrote = "", true end
      self.fds[r.fd] = { file = full }
    end
  end
end

-- fd_script judges a shell that reads its script from a descriptor exec
-- gave a text (exec 3<<'EOF' … then bash <&3, source /dev/fd/3).
function Checker:fd_script(cmd)
  if not self.fds then return nil end
  local fd
  for _, r in ipairs(cmd.redirects) do
    if r.op == "<&" and r.fd == 0 then fd = tonumber(r.target) end
  end
  for i = 2, #cmd.argv do
    fd = fd or tonumber(cmd.argv[i]:match("^/dev/fd/(%d+)$") or cmd.argv[i]:match("^/proc/self/fd/(%d+)$") or "")
  end
  local given = fd and self.fds[fd]
  if not (given and given.text) then return nil end
  local ok, verdict, why = self:shell_line(given.text)
  if not ok then return "ask", cmd.name .. " runs a script given on descriptor " .. fd .. " that could not be checked" end
  if verdict then return verdict, why .. " (the script exec gave descriptor " .. fd .. ")" end
end

-- written_script judges a script the line wrote earlier (record_script)
-- as the shell line it is, when the line runs it (full: its cleaned
-- path; t: as written); the script runs in a shell of its own.
function Checker:written_script(full, t, lang)
  local text = self.scripts[full]
  if text == false then return "ask", "runs " .. t .. ", written on the same line with text known only at run time" end
  if not text then return nil end
  if lang and lang ~= "" and lang ~= "sh" and lang ~= "powershell" then
    -- an interpreter's script (printf … > t.py && python3 t.py): its calls
    -- that delete, write or run commands, as for python3 -c
    local ok, calls = pcall(shell.code_calls, lang, text)
    if not ok then return "ask", "runs " .. t .. ", written on the same line, which could not be checked" end
    local verdict, why = self:calls({ name = lang, calls = calls })
    if verdict then return verdict, why .. " (in " .. t .. ", written on the same line)" end
    for _, call in ipairs(calls) do
      local line = not call.dynamic and (call.kind == "shell" and call.args[1]
          or call.kind == "exec" and table.concat(call.args, " "))
      local pok, cmds = pcall(shell.parse, line or "")
      if line and pok then
        verdict, why = self:check(cmds, 1)
        if verdict then return verdict, why .. " (run by " .. t .. ", written on the same line)" end
      end
    end
    return nil
  end
  -- a PowerShell script (.ps1, or a PowerShell line's) is read as PowerShell
  local ps = self.powershell or full:lower():match("%.ps1$")
  local ok, cmds = pcall(function() return shell.parse(ps and shell.powershell(text) or text) end)
  if not ok then return "ask", "runs " .. t .. ", written on the same line, which could not be checked" end
  self.scripts[full] = nil -- a script that runs itself is judged once
  local cwd, moved = self.cwd, self.moved
  local verdict, why = self:check(cmds, 1)
  self.cwd, self.moved, self.scripts[full] = cwd, moved, text
  if verdict then return verdict, why .. " (in " .. t .. ", written on the same line)" end
end

-- download_then_run judges running a file the line downloaded or wrote
-- earlier (self.wrote says whether it did: most lines do neither).
-- PATH_DIRS are the directories on a usual PATH, where a file saved is
-- run by its bare name.
local PATH_DIRS = "|/usr/local/bin|/usr/bin|/bin|/usr/local/sbin|/usr/sbin|/sbin|~/bin|~/.local/bin|"
    .. "/opt/homebrew/bin|~/go/bin|~/.cargo/bin|"

function Checker:download_then_run(cmd)
  if not self.wrote then return nil end
  local t = run_target(cmd)
  if not t then
    -- a bare name runs what PATH finds: a download saved under that name
    -- into a directory on PATH (curl -o ~/.local/bin/tool URL; tool)
    local name = cmd.argv[1]
    if name == "" or name:find("/", 1, true) then return nil end
    for file, by in pairs(self.downloads) do
      local dir, base = file:match("^(.*)/([^/]+)$")
      if base == name and listed(PATH_DIRS, dir) then
        return self:theme("download_then_run", "running " .. name .. ", which " .. by .. " downloaded into " .. dir .. " on the same line")
      end
    end
    return nil
  end
  local full = path.clean(self:resolve(t) or t)
  local by = self.downloads[full]
  if by then return self:theme("download_then_run", "running " .. t .. ", which " .. by .. " downloaded on the same line") end
  return self:written_script(full, t, cmd.lang)
end

-- Deletes outside the workspace: a recursive rm of an absolute path
-- outside the workspace and the temporary directories, or of the
-- user's well-known directories.
local TEMP_DIRS = { "/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders", "/dev/shm", "/run/user" }
local HOME_DIRS = {}
for _, d in ipairs({ "Documents", "Desktop", "Downloads", "Pictures", "Music", "Videos", "Movies", "Library",
                     "projects", "Projects", "src", "code", "Code", "work", "dev", "repos", "git", "workspace",
                     "go", "Dropbox", "OneDrive", "Google Drive", "iCloud Drive", ".ssh", ".gnupg" }) do
  HOME_DIRS[d] = true
end

-- Caches inside a well-known directory: deleting them is cleaning.
local HOME_CACHES = { "^~/Library/Caches/" }

-- outside_targets returns what cmd deletes recursively, as paths
-- entries, and how to say so: rm -r's operands, or the starting points
-- of a find that deletes what it finds (-delete, -exec rm).
local function outside_targets(self, cmd, runs_delete)
  if cmd.name == "find" then
    if has(cmd.argv, "-delete") or runs_delete then return (find_parts(cmd)), "find deleting in " end
  elseif DELETERS[cmd.name] and self:recursive(cmd) then
    return self:operands(cmd), cmd.name .. " -r of "
  end
end

local function home_cache(t)
  for _, pat in ipairs(HOME_CACHES) do
    if t:find(pat) then return true end
  end
  return false
end

-- git_history judges a recursive rm of a repository's .git: the
-- history, stashes and commits not pushed anywhere else go with it.
function Checker:git_history(cmd)
  if not DELETERS[cmd.name] or not self:recursive(cmd) then return nil end
  for _, p in ipairs(self:operands(cmd)) do
    local t = not p.dynamic and path.clean(p.path)
    if t and (t == ".git" or t:sub(-5) == "/.git") then
      return self:theme("git_history", cmd.name .. " -r of the repository " .. p.path
        .. ", with its history, stashes and commits not pushed anywhere")
    end
  end
end

function Checker:outside(cmd, runs_delete)
  if not DELETERS[cmd.name] and cmd.name ~= "find" then return nil end -- most commands
  local targets, verb = outside_targets(self, cmd, runs_delete)
  if not targets then return nil end
  for _, p in ipairs(targets) do
    -- a path written absolute (../x is the agent's own neighbourhood)
    local t = not p.dynamic and (p.prefix:sub(1, 1) == "/" or p.prefix:sub(1, 1) == "~") and p.prefix
    if t and t:sub(1, 1) == "~" then
      local first = t:match("^~/([^/]+)")
      if first and HOME_DIRS[first] and not home_cache(t .. "/") then
        return self:theme("deletes_outside_workspace", verb .. p.path .. ", in your home directory's " .. first)
      end
    elseif t and self.gitbash and (t:match("^/%a/") or t:match("^/%a$")) then
      -- Git Bash's /c/x is C:/x: inside the workspace, or outside it
      local w = self:resolve(t)
      if w and self.root and not within(self.root, w) then
        return self:theme("deletes_outside_workspace", verb .. p.path .. ", outside the workspace " .. self.root)
      end
    elseif t and t:sub(1, 1) == "/" then
      t = path.clean(t)
      local inside = self.root and within(self.root, t)
      for _, d in ipairs(TEMP_DIRS) do inside = inside or within(d, t) end
      if not inside then
        return self:theme("deletes_outside_workspace", verb .. t .. ", outside the workspace"
          .. (self.root and (" " .. self.root) or "") .. " and the temporary directories")
      end
    end
  end
end

-- unknown_word reports whether a command's name is only known at run
-- time: a variable ($a, ${RM:-rm}), a substitution ($(which rm),
-- backticks) or a glob (/bin/r?). IFS splitting hides behind a variable
-- too ($x with IFS=,). Its name says nothing, so only its arguments can
-- be judged.
local function unknown_word(cmd)
  if cmd.name == "[" then return false end -- the test builtin: [ -d x ]
  return cmd.name == "" or cmd.name:find("[%$`%*%?%[]") ~= nil
end

-- unknown judges a command whose name is only known at run time by its
-- arguments alone: as rm they would delete a protected place (-rf /),
-- as dd they would write a disk (of=/dev/sda); else it asks.
function Checker:unknown(cmd)
  local as_rm = { name = "rm", argv = cmd.argv, paths = cmd.paths, wrapped_by = cmd.wrapped_by }
  local verdict, why = self:rm(as_rm)
  if verdict == "deny" then
    return "deny", "a command known only at run time (" .. cmd.argv[1] .. ") with the arguments of " .. why
  end
  as_rm.name, as_rm.redirects = "dd", {}
  verdict, why = self:disk(as_rm)
  if verdict == "deny" then
    return "deny", "a command known only at run time (" .. cmd.argv[1] .. ") with the arguments of " .. why
  end
  if env_setup_only(cmd) then return nil end -- eval "$(pyenv init -)"
  return "ask", "runs a command known only at run time (" .. cmd.argv[1] .. ")"
end

-- The programs whose words this guard judges when another program runs
-- them: a launcher it does not know (flock /tmp/x rm -rf /, uv run rm
-- -rf /, machinectl shell root@ /bin/rm -rf /) is judged as the command
-- that starts at such a word.
local INNER = { rm = true, unlink = true, rmdir = true, shred = true, dd = true, mke2fs = true,
                mkswap = true, wipefs = true, blkdiscard = true, chmod = true, chown = true,
                chgrp = true, find = true }

-- Programs whose words are data or their own subcommands, never a
-- command they launch: echo rm -rf /, man rm, git rm -r --cached .,
-- docker rm -f x.
local NOT_LAUNCHERS = {}
for _, n in ipairs({ "echo", "printf", "print", "man", "info", "help", "whatis", "apropos", "which",
                     "whereis", "type", "tldr", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git",
                     "hg", "svn", "jj", "docker", "podman", "nerdctl", "buildah", "kubectl", "helm",
                     "npm", "pnpm", "yarn", "cargo", "go", "pip", "pip3", "conda", "mamba", "brew",
                     "gh", "glab", "rclone", "aws", "gsutil", "gcloud", "az", "s3cmd", "mc", "dvc",
                     "lxc", "incus", "virsh", "trash", "gio", "alias", "cd", "pushd" }) do
  NOT_LAUNCHERS[n] = true
end

-- NOT_RUN are the roles (shell module) of words a program never runs:
-- true rm -rf / prints nothing and runs nothing.
local NOT_RUN = { data = true, pattern = true, code = true, command = true }

-- runnable reports whether the i-th word of cmd may be a command its
-- program runs.
local function runnable(cmd, i)
  return not (cmd.roles and NOT_RUN[cmd.roles[i]])
end

local function is_inner(word)
  local base = word:match("[^/]+$") or word
  return INNER[base] or base:match("^mkfs") ~= nil, base
end

-- inner_commands returns the commands an unknown program's words run:
-- from each word naming a program of INNER (by base name, /bin/rm too)
-- to the end, as that program, wrapped by the launcher.
local function inner_commands(cmd)
  if NOT_LAUNCHERS[cmd.name] or INNER[cmd.name] or cmd.name:match("^mkfs") then return {} end
  local out = {}
  for i = 2, #cmd.argv do
    local inner, base = is_inner(cmd.argv[i])
    if inner and not cmd.paths[i].dynamic and runnable(cmd, i) then
      local argv, paths = {}, {}
      for j = i, #cmd.argv do
        argv[#argv + 1], paths[#paths + 1] = cmd.argv[j], cmd.paths[j]
      end
      local by = {}
      for _, w in ipairs(cmd.wrapped_by) do by[#by + 1] = w end
      by[#by + 1] = cmd.name
      out[#out + 1] = { name = base, argv = argv, paths = paths, wrapped_by = by, redirects = {},
                        code_from = {}, calls = {}, in_function = "", background = false,
                        position = 0, lang = "" }
    end
  end
  return out
end

-- RULES are the checks of one command, in order; each returns a verdict
-- and why, or nothing. Each names the programs it judges (names: a list
-- of sets of names, mostly the sets above) and what else of any command
-- makes it look (when): a redirection that may write, a shell function
-- or an interpreter's code, code from another command's output, an
-- interpreter's calls, a name known only at run time, or a file the line
-- wrote earlier. A rule must return nothing for a command it neither
-- names nor looks at: judge runs no other (a fire runs the rules for
-- every command of the line, and most commands no rule names).
-- PowerShell's Invoke-Expression runs its input as code: a download
-- piped into it (irm URL | iex) is a download run.
local PS_IEX = { iex = true, ["invoke-expression"] = true }

-- PS_FETCHES are what a piece of PowerShell downloads with
local PS_FETCHES = { "downloadstring", "downloadfile", "invoke-webrequest", "invoke-restmethod", "iwr", "irm",
                     "net.webclient", "start-bitstransfer", "curl", "wget" }

function Checker:invoke_expression(cmd)
  if not self.piped then
    -- Invoke-Expression CODE: the code, a literal, is judged as a line;
    -- code built at run time is asked about, or denied when it downloads
    if #cmd.argv < 2 then return nil end
    local words, dynamic = {}, false
    for i = 2, #cmd.argv do
      words[#words + 1] = cmd.argv[i]
      dynamic = dynamic or cmd.paths[i].dynamic
    end
    local text = table.concat(words, " ")
    if dynamic then
      local low = text:lower()
      for _, f in ipairs(PS_FETCHES) do
        if low:find(f, 1, true) then
          return self:theme("download_then_run", "code downloaded (" .. f .. ") and run by " .. cmd.name)
        end
      end
      return "ask", cmd.name .. " runs code built at run time (" .. text .. ")"
    end
    local ok, cmds = pcall(function() return shell.parse(shell.powershell(text)) end)
    if not ok then return "ask", "the code given to " .. cmd.name .. " could not be checked" end
    local verdict, why = self:check(cmds)
    if verdict then return verdict, why .. " (run by " .. cmd.name .. ")" end
    return nil
  end
  local others = {}
  for _, from in ipairs(self.piped) do
    local src = from.name
    if DOWNLOADERS[src] or DOWNLOADERS[src:lower()] then
      return self:theme("download_then_run", "code downloaded by " .. src .. " and run by " .. cmd.name)
    end
    others[#others + 1] = src
  end
  return "ask", "runs the output of " .. table.concat(others, ", ") .. " as code (" .. cmd.name .. ")"
end

-- PowerShell and cmd.exe run a line given to them: powershell -Command
-- "…" (pwsh -c) and cmd /c "…" are judged as that line, read as
-- PowerShell (cmd.exe's rd /s and del /s count as recursive there).
-- (shell.windows_shells: name → "powershell" or "cmd")
local SHELL_HOSTS = shell.windows_shells
local PS_ENCODED = "|-encodedcommand|-enc|-e|-ec|"

function Checker:hosted(cmd)
  -- The shell module reports the line PowerShell or cmd.exe is given
  -- (-Command, /c) as commands wrapped by it, and the script a
  -- PowerShell reads from a pipe as its code_from; it reports the host
  -- itself when what it runs is not on the line.
  local host = SHELL_HOSTS[cmd.name:lower()]
  local argv = cmd.argv
  for i = 2, #argv do
    local low = argv[i]:lower()
    if host == "powershell" and listed(PS_ENCODED, low) then
      return "ask", cmd.name .. " runs encoded code (" .. argv[i] .. "), which cannot be checked"
    end
    local given = (host == "powershell" and (low == "-c" or (#low >= 4 and ("-command"):sub(1, #low) == low)))
        or (host == "cmd" and (low == "/c" or low == "/k"))
    if given and cmd.paths[i + 1] and cmd.paths[i + 1].dynamic then
      return "ask", "the line given to " .. cmd.name .. " is only known at run time"
    end
    if host == "powershell" and (low == "-file" or low == "-f") then
      -- a script file: one the line downloaded is a download run, one it
      -- wrote is judged as what it holds
      local f = argv[i + 1]
      local full = f and self:resolve(f)
      full = full and path.clean(full)
      local by = full and self.downloads[full]
      if by then return self:theme("download_then_run", "running " .. f .. ", which " .. by .. " downloaded on the same line") end
      if full and self.scripts[full] ~= nil then return self:written_script(full, f) end
      return nil
    end
  end
end

-- windows_shell reports whether a Windows shell (PowerShell, cmd.exe)
-- runs cmd: its line is then read as PowerShell, whatever the tool.
local function windows_shell(cmd)
  for _, w in ipairs(cmd.wrapped_by) do
    if SHELL_HOSTS[w:lower()] then return true end
  end
  return false
end

-- Infrastructure: what lives outside this machine and has no undo here
-- (cloud resources, clusters, databases, container volumes). Asked by
-- default (the infrastructure theme): an agent may have been asked to
-- tear down what it set up, but the person should say so. The lists are
-- "|a|b|" strings rather than tables: most lines run none of these
-- programs, and a table's keys cost every process that builds it.

-- infra_words returns a command's operands (words that are not options
-- nor the value of one of the options listed in valued) and the set of
-- its options (a --name=value option under its name).
local function infra_words(cmd, valued)
  local out, opts, argv, i = {}, {}, cmd.argv, 2
  while i <= #argv do
    local w = argv[i]
    if w == "--" then
      for j = i + 1, #argv do out[#out + 1] = argv[j] end
      break
    elseif w:sub(1, 1) == "-" and #w > 1 then
      local name = w:match("^(%-[^=]+)=")
      opts[name or w] = true
      if not name and valued and listed(valued, w) then i = i + 1 end
    else
      out[#out + 1] = w
    end
    i = i + 1
  end
  return out, opts
end

-- destroys_sql returns what SQL (or a MongoDB or Redis command) does
-- that cannot be undone, or nil: DROP of a database, schema, table,
-- keyspace or everything a role owns, TRUNCATE, DELETE FROM without
-- WHERE (or WHERE 1=1), FLUSHALL, FLUSHDB, dropDatabase, drop(),
-- deleteMany({}), remove({}). Text in single quotes is a string, not a
-- statement (COMMENT ON … IS 'never DROP TABLE this').
local function destroys_sql(text)
  local s = text:lower():gsub("%-%-[^\n]*", " "):gsub("'[^']*'", "''"):gsub("%s+", " ")
  s = " " .. s .. " "
  for what in s:gmatch("[%s;(]drop ([%a]+) ") do
    if what == "temporary" or what == "materialized" then what = s:match("[%s;(]drop " .. what .. " (%a+) ") end
    if what == "database" or what == "schema" or what == "table" or what == "keyspace" or what == "collection" then
      return "drops a " .. what
    end
    if what == "owned" then return "drops everything a role owns" end
  end
  if s:find("[%s;]truncate [%w_\"`%[]") then return "empties a table (TRUNCATE)" end
  for stmt in s:gmatch("[%s;]delete from [^;]*") do
    if not stmt:find(" where ", 1, true) or stmt:find(" where 1 ?= ?1[%s;)]") or stmt:find(" where true[%s;)]") then
      return "deletes every row of a table (DELETE without a WHERE that narrows it)"
    end
  end
  if s:find("[%s;]flushall[%s;]") or s:find("[%s;]flushdb[%s;]") or s:find("^ flushall") or s:find("^ flushdb") then
    return "empties a Redis database"
  end
  if s:find("dropdatabase%s?%(") or s:find("dropdatabase\"?%s?:%s?1") then return "drops a database" end
  if s:find("%.drop%s?%(%s?%)") then return "drops a collection" end
  if s:find("deletemany%s?%(%s?{%s?}%s?%)") or s:find("%.remove%s?%(%s?{%s?}%s?%)") then
    return "deletes every document of a collection"
  end
end

-- The option letters of SQL clients that carry their SQL (psql -c,
-- mysql -e, sqlcmd -Q, clickhouse -q, …; also last in a cluster:
-- psql -tAc, mysql -Be), their long options, and the clients whose
-- operands after the database are SQL.
local SQL_TEXT_LETTERS = "ceQq"
local SQL_TEXT_OPTIONS = "|--command|--execute|--query|--eval|"
local SQL_OPERAND_CLIENTS = "|sqlite3|duckdb|bq|"
local SQL_CLIENTS = "|psql|mysql|mariadb|sqlite3|sqlcmd|duckdb|clickhouse-client|clickhouse|cockroach|mongo|mongosh|"
    .. "bq|snowsql|cqlsh|redis-cli|valkey-cli|"

-- sql_texts returns the SQL a client is given: on its command line, in
-- a here-document or here-string, or written by echo, printf or cat
-- (a here-document) before it in its pipeline.
function Checker:sql_texts(cmd)
  local out, argv = {}, cmd.argv
  for i = 2, #argv do
    local w = argv[i]
    local name, value = w:match("^(%-%-%a+)=(.*)$")
    local cluster = w:match("^%-(%a+)$")
    if name and listed(SQL_TEXT_OPTIONS, name) then
      out[#out + 1] = value
    elseif listed(SQL_TEXT_OPTIONS, w) and argv[i + 1] then
      out[#out + 1] = argv[i + 1]
    elseif cluster and SQL_TEXT_LETTERS:find(cluster:sub(-1), 1, true) and argv[i + 1] then
      out[#out + 1] = argv[i + 1] -- -c X, -tAc X
    elseif not cluster and w:match("^%-[ceQq].") and not w:match("^%-%-") then
      out[#out + 1] = w:sub(3) -- -c'DROP …'
    elseif listed(SQL_OPERAND_CLIENTS, cmd.name) and w:sub(1, 1) ~= "-" then
      out[#out + 1] = w
    end
  end
  for _, r in ipairs(cmd.redirects) do
    if r.op == "<<" or r.op == "<<-" or r.op == "<<<" then out[#out + 1] = r.target end
  end
  local before = self.piped and self.piped[#self.piped]
  local text = before and written(before)
  if text then out[#out + 1] = text end
  return out
end

local KUBE_VALUED = "|-n|--namespace|--context|--kubeconfig|-s|--server|--cluster|--user|-l|--selector|-o|--output|"
    .. "-f|--filename|--field-selector|--token|--as|-c|--container|--timeout|--grace-period|-k|--kustomize|"
local KUBE_WIDE_KINDS = "|namespace|namespaces|ns|node|nodes|no|pv|persistentvolume|persistentvolumes|pvc|"
    .. "persistentvolumeclaim|persistentvolumeclaims|crd|crds|customresourcedefinition|customresourcedefinitions|"
    .. "storageclass|storageclasses|sc|all|project|projects|"
local AWS_VALUED = "|--region|--profile|--output|--endpoint-url|--query|--color|--ca-bundle|--cli-read-timeout|"
    .. "--cli-connect-timeout|--cli-binary-format|"
-- aws operations named delete-… that remove one message, tag or object
-- (routine in scripts), and pass
local AWS_ROUTINE_DELETES = "|delete-message|delete-message-batch|delete-tags|delete-object|delete-object-tagging|"
    .. "delete-bucket-tagging|delete-resource-tags|"
-- cloud CLIs whose delete, destroy, terminate and purge subcommands
-- destroy a resource (gcloud compute instances delete, az group delete)
local INFRA_CLOUD_DELETERS = "|gcloud|az|doctl|linode-cli|hcloud|scw|vultr-cli|ibmcloud|oci|exo|"
-- docker exec's options that take a value (the container comes after)
local EXEC_VALUED = "|-u|--user|-e|--env|-w|--workdir|--env-file|--detach-keys|-c|--container|-n|--namespace|"
    .. "--context|--kubeconfig|--index|"
-- package runners: npx cdk destroy, pnpm exec cdktf destroy
local RUNNERS = "|npx|bunx|yarn|pnpm|npm|"
local SHELLS = "|sh|bash|zsh|dash|ash|ksh|"

-- infra_inner judges the command words a container, a runner or a
-- distribution's wrapper runs (docker exec db psql …, kubectl exec p --
-- redis-cli …, npx cdk destroy, k3s kubectl …): as a command of their
-- own, reading the same redirections and pipe; a shell's -c line as the
-- commands it holds.
function Checker:infra_inner(cmd, words)
  if #words == 0 then return nil end
  local name = words[1]:match("([^/]+)$"):gsub("@[^/]*$", "") -- aws-cdk@2
  if name == "aws-cdk" then name = "cdk" end
  if listed(SHELLS, name) and words[2] and words[2]:match("^%-%a*c%a*$") and words[3] then
    local ok, cmds = pcall(shell.parse, words[3])
    if not ok then return "ask", cmd.name .. " runs a shell line that could not be checked" end
    for _, c in ipairs(cmds) do
      local verdict, why = self:infrastructure(c)
      if verdict then return verdict, why end
    end
    return nil
  end
  return self:infrastructure(setmetatable({ name = name, argv = words }, { __index = cmd }))
end

-- infrastructure judges the commands that destroy infrastructure.
function Checker:infrastructure(cmd)
  local name = cmd.name:lower():gsub("%.exe$", "")
  if name == "aws-cdk" then name = "cdk" end -- npx aws-cdk: the package whose program is cdk
  local function found(why) return self:theme("infrastructure", cmd.name .. " " .. why) end
  local sql = listed(SQL_CLIENTS, name) or name == "dropdb" or name == "mysqladmin"
  -- help, and a dry run, change nothing (-h is a host for the SQL clients)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]:lower()
    if a == "--help" or a == "-help" or (cmd.argv[i] == "-h" and not sql) or (a == "help" and name == "aws")
        or a == "--dryrun" or a == "--dry-run" or (a:match("^%-%-dry%-run=") and a ~= "--dry-run=none") then
      return nil
    end
  end
  if listed(RUNNERS, name) then
    local words = infra_words(cmd, "|-p|--package|-w|--workspace|--filter|-C|--dir|")
    if words[1] == "exec" or words[1] == "dlx" or words[1] == "run" or words[1] == "x" then table.remove(words, 1) end
    if name == "npm" and #words == 0 then return nil end
    return self:infra_inner(cmd, words)
  elseif name == "k3s" or name == "microk8s" or name == "microk8s.kubectl" then
    local words = infra_words(cmd)
    if name == "microk8s.kubectl" then table.insert(words, 1, "kubectl") end
    if words[1] == "kubectl" or words[1] == "helm" or words[1] == "helm3" then return self:infra_inner(cmd, words) end
    if name == "microk8s" and words[1] == "reset" then return found("reset removes every workload and volume") end
    return nil
  elseif name == "terraform" or name == "tofu" or name == "terragrunt" or name == "cdktf" then
    local words, opts = infra_words(cmd, "|-chdir|-var|-var-file|-target|-state|-parallelism|")
    local sub = words[1]
    if sub == "run-all" or sub == "run" then sub = words[2] end
    if sub == "destroy" then return found("destroy removes every resource of the configuration") end
    if sub == "apply" and (opts["-destroy"] or opts["--destroy"]) then
      return found("apply -destroy removes every resource of the configuration")
    end
    if sub == "workspace" and (words[2] == "delete" or words[2] == "rm") then return found("workspace delete drops a state") end
  elseif name == "pulumi" then
    local words = infra_words(cmd, "|-s|--stack|-C|--cwd|")
    if words[1] == "destroy" or words[1] == "down" then return found(words[1] .. " removes every resource of the stack") end
    if words[1] == "stack" and words[2] == "rm" then return found("stack rm removes a stack") end
  elseif name == "cdk" then
    if infra_words(cmd, "|-a|--app|-c|--context|--profile|")[1] == "destroy" then return found("destroy removes the stack") end
  elseif name == "serverless" or name == "sls" or name == "sam" or name == "copilot" then
    local words = infra_words(cmd, "|-s|--stage|-r|--region|--stack-name|-n|--name|-a|--app|-e|--env|")
    if words[1] == "remove" or words[1] == "delete" or (name == "copilot" and words[2] == "delete") then
      return found(table.concat(words, " ", 1, name == "copilot" and 2 or 1) .. " removes the deployed stack")
    end
  elseif name == "eksctl" or name == "kind" or name == "minikube" or name == "k3d" then
    local words = infra_words(cmd, "|-n|--name|-f|--config-file|-r|--region|-p|--profile|")
    if words[1] == "delete" then return found("delete removes a cluster") end
  elseif name == "kubectl" or name == "oc" then
    local words, opts = infra_words(cmd, KUBE_VALUED)
    if words[1] == "exec" then
      for i = 2, #cmd.argv do
        if cmd.argv[i] == "--" then return self:infra_inner(cmd, { unpack(cmd.argv, i + 1) }) end
      end
      return nil
    end
    if words[1] == "drain" then return found("drain evicts every pod of a node") end
    if words[1] ~= "delete" then return nil end
    if opts["--all"] or opts["-A"] or opts["--all-namespaces"] or opts["--all=true"] then
      return found("delete --all removes every resource of a kind")
    end
    -- kubectl get … -o name | xargs kubectl delete, kubectl delete $(…):
    -- what it deletes is known only at run time
    if not (opts["-f"] or opts["--filename"] or opts["-k"] or opts["--kustomize"] or opts["-l"] or opts["--selector"])
        and ((not words[2] and has(cmd.wrapped_by, "xargs")) or (words[2] and words[2]:find("[$`]"))) then
      return "ask", cmd.name .. " delete removes resources known only at run time"
    end
    for i = 2, #words do
      local kinds = words[i]:match("^([^/]+)/") or (i == 2 and words[i]) or ""
      for kind in kinds:gmatch("[^,]+") do
        kind = kind:lower():match("^[^.]+") or ""
        if listed(KUBE_WIDE_KINDS, kind) then return found("delete " .. kind .. " removes what it holds") end
      end
    end
  elseif name == "helm" or name == "helm3" then
    local sub = infra_words(cmd, "|-n|--namespace|--kube-context|--kubeconfig|")[1]
    if sub == "uninstall" or sub == "delete" or sub == "del" or sub == "un" then
      return found(sub .. " removes a release and its resources")
    end
  elseif name == "docker" or name == "podman" or name == "nerdctl" or name == "docker-compose" then
    -- host directories mounted into a container it runs (judged as the
    -- host's, whatever this theme's setting: they are not infrastructure)
    local mv, mwhy = self:container_mounts(cmd)
    if mv then return mv, mwhy end
    local words, opts = infra_words(cmd, "|-H|--host|--context|-c|--config|--filter|-f|--file|-p|--project-name|")
    if name == "docker-compose" then table.insert(words, 1, "compose") end
    if words[1] == "exec" or (words[1] == "container" and words[2] == "exec")
        or (words[1] == "compose" and words[2] == "exec") then
      -- the command comes after exec's options and the container (or service)
      local i = 2
      while cmd.argv[i] and cmd.argv[i] ~= "exec" do i = i + 1 end
      i = i + 1
      while cmd.argv[i] and cmd.argv[i]:sub(1, 1) == "-" do
        if listed(EXEC_VALUED, cmd.argv[i]) then i = i + 1 end
        i = i + 1
      end
      return self:infra_inner(cmd, { unpack(cmd.argv, i + 1) })
    end
    if words[1] == "volume" and (words[2] == "rm" or words[2] == "remove" or words[2] == "prune") then
      return found("volume " .. words[2] .. " deletes the data in volumes")
    end
    if words[1] == "system" and words[2] == "prune" and (opts["--volumes"] or opts["-a"] or opts["--all"]
        or (opts["-af"] or opts["-fa"])) then
      return found("system prune deletes every unused image" .. (opts["--volumes"] and " and volume" or ""))
    end
  elseif name == "aws" then
    local words, opts = infra_words(cmd, AWS_VALUED)
    local service, op = words[1], words[2] or ""
    if service == "s3" and op == "rb" then return found("s3 rb removes a bucket") end
    if service == "s3" and op == "rm" and opts["--recursive"] then return found("s3 rm --recursive deletes every object under a prefix") end
    if op:match("^terminate%-") or op == "schedule-key-deletion"
        or (op:match("^delete%-") and not listed(AWS_ROUTINE_DELETES, op)) then
      return found(service .. " " .. op .. " destroys a resource")
    end
  elseif listed(INFRA_CLOUD_DELETERS, name) then
    local words, opts = infra_words(cmd, "|--project|--zone|--region|--format|--account|--configuration|-g|"
                                          .. "--resource-group|--subscription|-o|--output|--context|")
    for i = 1, math.min(#words, 5) do
      local w = words[i]
      if w == "delete" or w == "destroy" or w == "terminate" or w == "purge" or (w:match("^delete%-") and name == "az") then
        return found(table.concat(words, " ", 1, i) .. " destroys a resource")
      end
      if w == "rm" and (opts["-r"] or opts["--recursive"]) then return found("rm -r deletes every object under a prefix") end
    end
  elseif name == "gsutil" then
    local words, opts = infra_words(cmd, "|-o|-h|-p|-u|")
    if words[1] == "rb" then return found("rb removes a bucket") end
    if words[1] == "rm" and (opts["-r"] or opts["-R"] or opts["-a"]) then return found("rm -r deletes every object under a prefix") end
  elseif name == "gh" or name == "glab" then
    local words, opts = infra_words(cmd, "|-R|--repo|-X|--method|-H|--header|-f|-F|--field|")
    if words[1] == "repo" and words[2] == "delete" then return found("repo delete removes a repository") end
    if words[1] == "api" then
      for i = 2, #cmd.argv - 1 do
        local a, v = cmd.argv[i], (cmd.argv[i + 1] or ""):upper()
        if (a == "-X" or a == "--method") and v == "DELETE" and (words[2] or ""):match("^/?repos/[^/]+/[^/]+/?$") then
          return found("api -X DELETE of a repository removes it")
        end
      end
    end
  elseif name == "heroku" then
    local sub = infra_words(cmd, "|-a|--app|-r|--remote|")[1]
    if sub == "apps:destroy" or sub == "apps:delete" or sub == "destroy" or sub == "pg:reset"
        or sub == "addons:destroy" or sub == "addons:remove" then
      return found(sub .. " destroys an app or its data")
    end
  elseif name == "fly" or name == "flyctl" then
    local words = infra_words(cmd, "|-a|--app|-c|--config|")
    if words[1] == "destroy" or ((words[1] == "apps" or words[1] == "volumes" or words[1] == "volume"
        or words[1] == "postgres" or words[1] == "pg") and (words[2] == "destroy" or words[2] == "delete")) then
      return found(table.concat(words, " ", 1, words[1] == "destroy" and 1 or 2) .. " destroys an app or its data")
    end
  elseif name == "vercel" or name == "netlify" or name == "railway" then
    local sub = infra_words(cmd, "|--scope|-t|--token|-s|--site|")[1] or ""
    if sub == "remove" or sub == "rm" or sub == "sites:delete" or sub == "down" or sub == "delete" then
      return found(sub .. " removes a deployed project")
    end
  elseif name == "bq" then
    local words, opts = infra_words(cmd, "|--project_id|--location|-n|--max_rows|")
    if words[1] == "rm" and not (opts["-j"] or opts["--job"]) then return found("rm removes a dataset, table or view") end
  elseif name == "redis-cli" or name == "valkey-cli" then
    local verb = (infra_words(cmd, "|-h|-p|-s|-a|-u|-n|-r|-i|--user|--pass|--askpass|-x|")[1] or ""):lower()
    if verb == "flushall" or verb == "flushdb" then return found(verb:upper() .. " empties a Redis database") end
  elseif name == "dropdb" then
    local words, opts = infra_words(cmd, "|-h|--host|-p|--port|-U|--username|")
    if #words > 0 and not (opts["-?"] or opts["-V"] or opts["--version"]) then
      return found("drops the database " .. words[#words])
    end
  elseif name == "mysqladmin" then
    local words = infra_words(cmd, "|-h|--host|-P|--port|-u|--user|-S|--socket|")
    for i, w in ipairs(words) do
      if w:lower() == "drop" then return found("drop drops the database " .. (words[i + 1] or "")) end
    end
  end
  if listed(SQL_CLIENTS, name) then
    for _, text in ipairs(self:sql_texts(cmd)) do
      local why = destroys_sql(text)
      if why then return found("is given a statement that " .. why) end
    end
  end
end

-- DOCKER_RUN_VALUED are the options of docker (podman, nerdctl) run that
-- take the next word as their value.
local DOCKER_RUN_VALUED = "|-v|--volume|--mount|-w|--workdir|-e|--env|--env-file|--name|-p|--publish|--network|"
  .. "--net|--entrypoint|-u|--user|-l|--label|--platform|--cpus|-m|--memory|--restart|-h|--hostname|--add-host|"
  .. "--device|--cap-add|--cap-drop|--security-opt|--ulimit|--log-driver|--log-opt|--pull|--gpus|--shm-size|--tmpfs|"
  .. "--ipc|--pid|--uts|--userns|--cgroupns|--stop-signal|--stop-timeout|--health-cmd|--volumes-from|--link|"
  .. "--expose|--label-file|--dns|--dns-search|--dns-option|--mac-address|--ip|--ip6|--isolation|--runtime|"
  .. "--cidfile|-a|--attach|--memory-swap|--cpu-shares|-c|--cpuset-cpus|--group-add|--sysctl|--annotation|--arch|"
  .. "--os|--device-cgroup-rule|--mount-propagation|"

-- run_mounts reads docker run's (and podman's, nerdctl's) host
-- directories mounted read-write (-v HOST:CONT, --volume, --mount
-- type=bind,source=…,target=…), its working directory and the index of
-- its command, after the image; nil for another subcommand.
local function run_mounts(argv)
  local i = 2
  while argv[i] and argv[i]:sub(1, 1) == "-" do
    if listed("|-H|--host|--context|-c|--config|--log-level|-l|", argv[i]) then i = i + 1 end
    i = i + 1
  end
  if argv[i] == "container" then i = i + 1 end
  if argv[i] ~= "run" then return nil end
  i = i + 1
  local mounts, workdir, entrypoint = {}, nil, nil
  while argv[i] and argv[i]:sub(1, 1) == "-" and argv[i] ~= "--" do
    local name, value = argv[i]:match("^(%-%-?[%w%-]+)=(.*)$")
    name = name or argv[i]
    if not value and listed(DOCKER_RUN_VALUED, name) then i, value = i + 1, argv[i + 1] end
    value = value or ""
    if name == "-v" or name == "--volume" then
      local host, cont, mode = value:match("^([^:]+):([^:]+):?(.*)$")
      host = host and host:gsub('^"(.*)"$', "%1")
      if host and host:match("^[/~%.%$]") and not mode:find("ro", 1, true) then
        mounts[#mounts + 1] = { host = host, cont = cont }
      end
    elseif name == "--mount" then
      local f = {}
      for k, v in value:gmatch("([%w_]+)=?([^,]*)") do f[k] = v end
      local host, cont = f.source or f.src, f.target or f.destination or f.dst
      if (f.type == "bind" or f.type == nil) and host and cont and f.readonly == nil and f.ro == nil then
        mounts[#mounts + 1] = { host = host, cont = cont }
      end
    elseif name == "-w" or name == "--workdir" then
      workdir = value
    elseif name == "--entrypoint" then
      entrypoint = value
    end
    i = i + 1
  end
  if argv[i] == "--" then i = i + 1 end
  return mounts, workdir, i + 1, entrypoint -- the image is argv[i]
end

-- in_mount rewrites text's paths under a container path cont as under
-- the host's: /h/x, /h and /h/* become HOST/x, HOST, HOST/*.
local function in_mount(text, cont, host)
  cont = cont:gsub("/+$", "")
  if cont == "" then return text end
  local out, at = {}, 1
  while true do
    local s, e = text:find(cont, at, true)
    if not s then break end
    local before, after = text:sub(s - 1, s - 1), text:sub(e + 1, e + 1)
    local starts = s == 1 or before:match("[%s'\"=:]")
    local ends = after == "" or after:match("[/%s'\"*;&|)]")
    out[#out + 1] = text:sub(at, s - 1) .. ((starts and ends) and host or cont)
    at = e + 1
  end
  out[#out + 1] = text:sub(at)
  return table.concat(out)
end

-- container_mounts judges the command a container runs on host
-- directories mounted into it (docker run -v ~:/h alpine rm -rf /h): the
-- command with each mount's paths read as the host's, when that changes
-- what it names (or the mount is the same path on both sides, -v
-- /dev:/dev); what it does to the container's own files is not judged.
function Checker:container_mounts(cmd)
  local mounts, workdir, at, entrypoint = run_mounts(cmd.argv)
  if not mounts or #mounts == 0 or not (cmd.argv[at] or entrypoint) then return nil end
  for _, m in ipairs(mounts) do
    -- the host directory as a word the checker reads: ~ for the home
    -- directory ($HOME too), the working directory for $PWD, a path as
    -- it is; another expansion is not known
    local host = m.host:gsub("/+$", "")
    if host == "$HOME" or host == "${HOME}" or host == "~" then host = "~"
    elseif host == "$PWD" or host == "${PWD}" or host == "$(pwd)" or host == "." then host = not self.moved and self.cwd or nil
    elseif host:find("[%$`]") then host = nil
    elseif host == "" then host = "/" end
    if host then
      local words, changed = {}, m.host == m.cont
      local all, raw = { workdir and "cd" or nil, workdir, workdir and "&&" or nil }, {}
      if workdir then raw[3] = true end
      if entrypoint then all[#all + 1] = entrypoint end -- --entrypoint rm: the image's words are its arguments
      for k = at, #cmd.argv do
        all[#all + 1] = cmd.argv[k]
        -- a glob or an expansion the host's shell reads: as written
        raw[#all] = cmd.paths[k] and (cmd.paths[k].glob or cmd.paths[k].dynamic)
      end
      for k, w in ipairs(all) do
        local rew = in_mount(w, m.cont, host)
        changed = changed or rew ~= w
        if raw[k] then
          words[#words + 1] = rew
        elseif w == "" or w:find("[%s'\"\\%$`%*%?%[%]{}();&|<>#!]") or w:sub(1, 1) == "~" then
          words[#words + 1] = "'" .. rew:gsub("'", [['\'']]) .. "'" -- a line for a shell in the container keeps its ~ for it
        else
          words[#words + 1] = rew
        end
      end
      if changed then
        local ok, verdict, why = self:shell_line(table.concat(words, " "))
        if not ok then return "ask", cmd.name .. " runs a command on " .. m.host .. " that could not be checked" end
        if verdict then return verdict, why .. " (in a container, " .. m.host .. " mounted at " .. m.cont .. ")" end
      end
    end
  end
end

-- The programs infrastructure judges: a string, looked up by BY_NAME's
-- and the rule's metatables, so that they cost the processes that run
-- none of them nothing.
local INFRA_PROGRAMS = "|terraform|tofu|terragrunt|cdktf|pulumi|cdk|aws-cdk|serverless|sls|sam|copilot|eksctl|kind|"
    .. "minikube|k3d|k3s|microk8s|microk8s.kubectl|kubectl|oc|helm|helm3|docker|podman|nerdctl|docker-compose|aws|"
    .. "gsutil|gh|glab|heroku|fly|flyctl|vercel|netlify|railway|dropdb|mysqladmin|" .. RUNNERS:sub(2)
    .. INFRA_CLOUD_DELETERS:sub(2) .. SQL_CLIENTS:sub(2)
local INFRA_RULE = { Checker.infrastructure }
local INFRA_NAMES = setmetatable({}, { __index = function(_, k)
  return type(k) == "string" and listed(INFRA_PROGRAMS, k) or nil
end })

-- Windows: the machine's recovery and defenses. Deleting the shadow
-- copies, the backups or the boot loader's recovery leaves nothing to go
-- back to (ransomware's first step); turning Defender or the firewall
-- off, clearing the event logs and deleting the machine's registry keys
-- (HKLM) are no agent's task. mshta, regsvr32 and msiexec given a URL
-- run the code it serves, as curl | sh does. These programs are judged in any line
-- (Git Bash runs them too). WIN_PROGRAMS are looked up by BY_NAME's
-- metatable, as INFRA_PROGRAMS are.
local WIN_PROGRAMS = "|vssadmin|wmic|wbadmin|bcdedit|set-mppreference|add-mppreference|netsh|set-netfirewallprofile|"
    .. "reg|wevtutil|clear-eventlog|remove-eventlog|remove-wmiobject|remove-ciminstance|rwmi|rcim|mshta|regsvr32|"
    .. "msiexec|"
-- the cmdlets and aliases that delete registry keys and values
local WIN_REGISTRY_DELETERS = { ["remove-item"] = true, ri = true, del = true, erase = true, rd = true, rm = true,
                                rmdir = true, ["remove-itemproperty"] = true, rp = true }

-- machine_hive reports whether a word names the machine's registry
-- hive: HKLM:\…, HKLM\…, HKEY_LOCAL_MACHINE\…, Registry::HKEY_LOCAL_MACHINE\….
local function machine_hive(w)
  w = w:lower():gsub("^registry::", ""):gsub("^microsoft%.powershell%.core\\registry::", "")
  return w:match("^hklm[:/\\]") or w:match("^hklm$") or w:match("^hkey_local_machine") or w:match("^hklmsystem")
      or w:match("^hklmsoftware")
end

function Checker:windows_recovery(cmd)
  local name = cmd.name:lower():gsub("%.exe$", "")
  local args = {}
  for i = 2, #cmd.argv do args[i - 1] = cmd.argv[i]:lower() end
  local line = " " .. table.concat(args, " ") .. " "
  local function found(theme, why) return self:theme(theme, cmd.name .. " " .. why) end
  if WIN_REGISTRY_DELETERS[name] then
    for _, a in ipairs(cmd.argv) do
      if machine_hive(a) then return found("system_files", "deletes the machine's registry keys (HKLM)") end
    end
  elseif name == "vssadmin" then
    if args[1] == "delete" and args[2] == "shadows" then
      return found("disks", "delete shadows deletes the volume shadow copies (the restore points)")
    end
    if args[1] == "resize" and args[2] == "shadowstorage" then
      return found("disks", "resize shadowstorage deletes the shadow copies that no longer fit")
    end
  elseif name == "wmic" then
    if line:find(" shadowcopy ", 1, true) and line:find(" delete ", 1, true) then
      return found("disks", "shadowcopy delete deletes the volume shadow copies (the restore points)")
    end
  elseif name == "wbadmin" then
    if args[1] == "delete" then return found("disks", "delete deletes the machine's backups") end
  elseif name == "bcdedit" then
    if line:find(" recoveryenabled no", 1, true) or line:find(" bootstatuspolicy ignoreallfailures", 1, true) then
      return found("machine_state", "turns the boot loader's recovery off")
    end
    if args[1] == "/delete" or args[1] == "-delete" then return found("machine_state", "deletes a boot entry") end
  elseif name == "set-mppreference" then
    for i, a in ipairs(args) do
      local param, value = a:match("^(%-disable[%w]*):?(.*)$")
      if param then
        value = value ~= "" and value or args[i + 1] or "$true"
        if value ~= "$false" and value ~= "0" and value ~= "false" then
          return found("machine_state", cmd.argv[i + 1]:match("^%-([^:]+)") .. " turns Defender's protection off")
        end
      end
    end
  elseif name == "add-mppreference" then
    if line:find(" %-exclusion") then return "ask", cmd.name .. " excludes files or processes from Defender's scans" end
  elseif name == "netsh" then
    if (line:find(" advfirewall ", 1, true) and line:find(" state off ", 1, true))
        or (line:find(" firewall ", 1, true) and line:find(" opmode disable", 1, true)) then
      return found("machine_state", "turns the firewall off")
    end
  elseif name == "set-netfirewallprofile" then
    if line:find(" %-enabled:? ?%$?false ") or line:find(" %-enabled:? ?0 ") then
      return found("machine_state", "turns the firewall off")
    end
  elseif name == "reg" then
    if args[1] == "delete" and args[2] and machine_hive(cmd.argv[3]) then
      return found("system_files", "delete deletes the machine's registry keys (HKLM)")
    end
    if args[1] == "add" and (line:find("disableantispyware", 1, true) or line:find("disablerealtimemonitoring", 1, true)) then
      return found("machine_state", "turns Defender's protection off")
    end
  elseif name == "wevtutil" then
    if args[1] == "cl" or args[1] == "clear-log" then return found("system_files", "clears an event log") end
  elseif name == "clear-eventlog" or name == "remove-eventlog" then
    return found("system_files", "clears or removes an event log")
  elseif name == "mshta" or name == "regsvr32" or name == "msiexec" then
    for i = 2, #cmd.argv do
      local at = cmd.argv[i]:find("%a[%w+.-]*://") -- /i:http://…, http://…
      local url = at and cmd.argv[i]:sub(at)
      if url and not url:lower():match("^file://") then
        return self:theme("download_then_run", cmd.name .. " runs the code " .. url .. " serves")
      end
    end
    if name == "mshta" and (args[1] or ""):match("^[vj][ba][sv]?a?script:") then
      return "ask", cmd.name .. " runs script code given on its command line"
    end
  elseif name == "remove-wmiobject" or name == "remove-ciminstance" or name == "rwmi" or name == "rcim" then
    for _, before in ipairs(self.piped or {}) do
      if table.concat(before.argv, " "):lower():find("win32_shadowcopy", 1, true) then
        return found("disks", "deletes the volume shadow copies (the restore points)")
      end
    end
  end
end
local WIN_RULE = { Checker.windows_recovery }
local WIN_NAMES = setmetatable({}, { __index = function(_, k)
  return type(k) == "string" and (listed(WIN_PROGRAMS, k) or listed(WIN_PROGRAMS, (k:lower():gsub("%.exe$", ""))))
      or nil
end })

local RULES = {
  { names = { { find = true } }, function(self, cmd, runs_delete) return self:find(cmd, runs_delete) end },
  { names = { DELETERS }, Checker.rm },
  { names = { { tar = true, gtar = true, bsdtar = true, zip = true, ["7z"] = true, ["7za"] = true, ["7zz"] = true,
                rsync = true } }, Checker.archive_delete },
  { names = { DELETERS }, Checker.git_history },
  { names = { FORMATTERS, { mkfs = true, shred = true, blkdiscard = true, dd = true, tee = true, sg_format = true,
                cp = true, ddrescue = true, bmaptool = true, socat = true } }, when = "redirects", Checker.disk },
  { names = { { chmod = true, chown = true, chgrp = true } }, Checker.perms },
  { when = "code", Checker.fork_bomb },
  { when = "code", Checker.code_download },
  { when = "code_from", function(self, cmd) return code_from(cmd, self.line) end },
  { when = "calls", Checker.calls },
  { when = "unknown", function(self, cmd) return self:unknown(cmd) end },
  { names = { { mv = true } }, function(self, cmd)
      local verdict, why = self:mv(cmd)
      if verdict then return self:theme("system_files", why) end
    end },
  { names = { { visudo = true }, WRITERS, DELETERS, PS_WRITERS }, when = "redirects", Checker.system_integrity },
  { names = { SYSRQ_WRITERS }, when = "redirects", function(_, cmd) return sysrq(cmd) end },
  { names = { POWER, PS_POWER, PS_STOP_PROCESS, PS_SERVICES, { init = true, telinit = true, systemctl = true, loginctl = true,
                       service = true, killall = true, pkill = true, skill = true, killall5 = true, kill = true,
                       busctl = true, ["dbus-send"] = true, gdbus = true, qdbus = true } },
    Checker.machine_state },
  { names = { PS_IEX }, Checker.invoke_expression },
  { names = { SHELL_HOSTS }, Checker.hosted },
  { names = { DISK_TOOLS }, Checker.disks },
  { names = { { insmod = true, rmmod = true, modprobe = true, kmod = true } }, Checker.kernel },
  { when = "wrote", Checker.download_then_run },
  { names = { DELETERS, { find = true } }, Checker.outside },
  { names = { AWKS, VIMS, TREE_DELETERS, { Rscript = true, R = true, git = true, sed = true, gsed = true, mvn = true, mvnw = true } },
    function(self, cmd) return self:embedded(cmd) end },
  { names = { INFRA_NAMES }, Checker.infrastructure },
  { names = { WIN_NAMES, WIN_REGISTRY_DELETERS }, Checker.windows_recovery },
}

-- BY_NAME holds, for each program a rule names, those rules in RULES'
-- order (built once per process, so kept to one pass over the names);
-- GENERAL the rules with a when, in that order. A list starts as a
-- constructor of its first rule: an empty table that is then appended
-- to takes 32 slots in gopher-lua, and most names have one rule.
local BY_NAME, GENERAL = {}, {}
for _, rule in ipairs(RULES) do
  if rule.when then GENERAL[#GENERAL + 1] = rule end
  for _, set in ipairs(rule.names or {}) do
    for name, on in pairs(set) do
      local list = on and BY_NAME[name] -- AWKS.busybox is false
      if on and not list then
        BY_NAME[name] = { rule[1] }
      elseif list and list[#list] ~= rule[1] then -- a name in two of its sets once
        list[#list + 1] = rule[1]
      end
    end
  end
end

-- no other rule names an infrastructure or a Windows recovery program
-- (INFRA_NAMES and WIN_NAMES have no keys)
setmetatable(BY_NAME, { __index = function(_, k)
  return (INFRA_NAMES[k] and INFRA_RULE) or (WIN_NAMES[k] and WIN_RULE) or nil
end })

-- names reports whether a rule names the program key.
local function names(rule, key)
  for _, set in ipairs(rule.names or {}) do
    if set[key] then return true end
  end
  return false
end

-- writes reports whether a redirection of cmd may write a file: the
-- redirects rules look at no other (2>&1, < file and <<EOF write
-- nothing).
local function writes(cmd)
  local rs = cmd.redirects
  for i = 1, #rs do
    if writes_to(rs[i]) then return true end
  end
  return false
end

-- opens reports whether a rule's when holds for cmd.
local function opens(self, when, cmd)
  return (when == "redirects" and writes(cmd))
      or (when == "code" and (cmd.in_function ~= "" or (cmd.lang ~= "" and cmd.lang ~= "sh" and cmd.code ~= "")))
      or (when == "code_from" and #cmd.code_from > 0)
      or (when == "calls" and #cmd.calls > 0)
      or (when == "unknown" and unknown_word(cmd))
      or (when == "wrote" and self.wrote)
end

-- judge returns the verdict of the rules for one command: those that
-- name its program, and those whose when holds for it.
function Checker:judge(cmd, runs_delete)
  if self.powershell and ps_whatif(cmd) then return nil end
  local name = cmd.name
  local key = (BY_NAME[name] and name) or (name:sub(1, 4) == "mkfs" and "mkfs")
      or (BY_NAME[cmdlet(name) or ""] and cmdlet(name)) -- REMOVE-ITEM
      or (self.powershell and BY_NAME[name:lower()] and name:lower()) or nil -- IEX: PowerShell ignores case
  -- PowerShell's splatting (Remove-Item @p) gives a command the
  -- parameters a variable holds: which, the line does not say
  if key and self.powershell then
    for i = 2, #cmd.argv do
      if cmd.argv[i]:match("^@[%a_][%w_]*$") then
        return "ask", cmd.name .. " is given its parameters by splatting (" .. cmd.argv[i] .. "), known only at run time"
      end
    end
  end
  local ask
  -- most commands have none of the facts a rule's when looks at (a name
  -- a rule names is never one known only at run time): only the rules
  -- that name the program can judge them
  if not ((#cmd.redirects > 0 and writes(cmd)) or cmd.in_function ~= "" or cmd.lang ~= "" or #cmd.code_from > 0
          or #cmd.calls > 0 or self.wrote or (not key and unknown_word(cmd))) then
    local named = key and BY_NAME[key]
    if not named then return nil end
    for i = 1, #named do
      local verdict, why = named[i](self, cmd, runs_delete)
      if verdict == "deny" then return "deny", why end
      if verdict == "ask" then ask = ask or why end
    end
    if ask then return "ask", ask end
    return nil
  end
  for _, rule in ipairs(key and RULES or GENERAL) do
    if (key and names(rule, key)) or (rule.when and opens(self, rule.when, cmd)) then
      local verdict, why = rule[1](self, cmd, runs_delete)
      if verdict == "deny" then return "deny", why end
      if verdict == "ask" then ask = ask or why end
    end
  end
  if ask then return "ask", ask end
end

-- line_commands returns the commands of an unknown program's words that
-- are themselves a shell line running a program of INNER (foo -c 'rm -rf
-- /', tsp sh -c …): many launchers hand such a word to sh -c.
local function line_commands(cmd)
  local out = {}
  if NOT_LAUNCHERS[cmd.name] or cmd.name == "" then return out end
  for i = 2, #cmd.argv do
    local w = cmd.argv[i]
    if not cmd.paths[i].dynamic and w:find("%s") and runnable(cmd, i) then
      local ok, cmds = pcall(shell.parse, w)
      if ok then
        local runs = false
        for _, c in ipairs(cmds) do
          if is_inner(c.argv[1]) or #inner_commands(c) > 0 then runs = true end
        end
        if runs then
          for _, c in ipairs(cmds) do out[#out + 1] = c end
        end
      end
    end
  end
  return out
end

-- launched judges the commands an unknown launcher's words run.
function Checker:launched(cmd)
  local ask
  local line = line_commands(cmd)
  if #line > 0 then
    local cwd, moved = self.cwd, self.moved -- the line runs in a shell of its own
    local verdict, why = self:check(line)
    self.cwd, self.moved = cwd, moved
    if verdict == "deny" then return "deny", why .. " (a shell line given to " .. cmd.name .. ")" end
    if verdict == "ask" then ask = why .. " (a shell line given to " .. cmd.name .. ")" end
  end
  for _, inner in ipairs(inner_commands(cmd)) do
    local verdict, why = self:judge(inner, inner.name == "find" and has(inner.argv, "-exec"))
    if verdict == "deny" then return "deny", why .. " (run by " .. cmd.name .. ")" end
    if verdict == "ask" then ask = ask or (why .. " (run by " .. cmd.name .. ")") end
  end
  if ask then return "ask", ask end
end

-- The deepest alias expansions followed (alias a=b; alias b=a; a).
local MAX_ALIAS_DEPTH = 8

-- define records the aliases an alias command defines (alias x='rm -rf /').
function Checker:define(cmd)
  for i = 2, #cmd.argv do
    local name, value = cmd.argv[i]:match("^([^=/%s$`]+)=(.*)$")
    if name then self.aliases[name] = { value = value, dynamic = cmd.paths[i].dynamic } end
  end
end

-- quoted is w as one single-quoted shell word.
local function quoted(w) return "'" .. w:gsub("'", [['\'']]) .. "'" end

-- word_text is cmd's word i written again for the shell to read as it
-- read it: a word known only at run time as it was written, a glob and
-- a word the shell module reads as under ~ ($HOME, ~/x) unquoted so that
-- they expand again, anything else quoted.
local function word_text(cmd, i)
  local p, w = cmd.paths[i], cmd.argv[i]
  if p.dynamic then return w end
  local spelled = type(p.path) == "string" and p.path or w
  if (p.glob or spelled:match("^~/") or spelled == "~") and spelled:match("^[%w%._/~*?%[%]!^%-+=:,@%%]+$") then
    return spelled
  end
  return quoted(w)
end

-- expand judges a use of an alias defined earlier in the line as its
-- value followed by the use's other words, which is what bash runs.
function Checker:expand(cmd, depth)
  local name = cmd.argv[1]
  local a = self.aliases[name]
  if a.dynamic then return "ask", "runs the alias " .. name .. ", whose value is only known at run time" end
  if depth >= MAX_ALIAS_DEPTH then return "ask", "the alias " .. name .. " expands too deeply to check" end
  local words = { a.value }
  for i = 2, #cmd.argv do words[i] = word_text(cmd, i) end
  for _, r in ipairs(cmd.redirects) do -- x <<< 'rm -rf ~': what the alias's program reads
    if type(r.target) == "string" then words[#words + 1] = r.op .. " " .. quoted(r.target) end
  end
  local ok, cmds = pcall(shell.parse, table.concat(words, " "))
  if not ok then return "ask", "the alias " .. name .. " could not be checked (" .. tostring(cmds) .. ")" end
  -- bash does not expand an alias again inside its own value (alias rm='rm -i')
  self.aliases[name] = nil
  local verdict, why = self:check(cmds, depth + 1)
  self.aliases[name] = a
  return verdict, why
end

-- The shell module reports a command run by a name the line gave a
-- program (hash -p, BASH_CMDS, a copy or link run by its new name) as
-- that program; what is left here is what it does not follow.

-- PROGRAM_FILES are the programs that delete, wipe or run other commands
-- whose file a line must not copy, link or read as data (to pipe it into
-- a copy): a copy can then run it under any name, in ways no reading of
-- the line follows (a function defined before the copy, a directory
-- moved, a name made of variables).
-- Interpreters are not among them: a venv links python3, and what a
-- renamed interpreter runs is read as its code all the same.
local PROGRAM_FILES = {}
for w in ([[rm rmdir unlink shred dd mkfs mke2fs mkswap wipefs blkdiscard fdisk sfdisk parted sgdisk find xargs
    bash sh dash zsh ksh mksh ash fish busybox toybox coreutils sudo doas su chmod chown truncate mv cp ln install
    rsync tee]]):gmatch("%S+") do
  PROGRAM_FILES[w] = true
end
-- FILE_COPIERS are the commands that copy, link or pass on a file's
-- bytes; any other command naming a program's file runs it (docker run
-- … /bin/bash) or inspects it (ls -l /bin/rm), and passes.
local FILE_COPIERS = {}
for w in ([[cat tee dd scp base64 xxd od gzip gunzip bzip2 xz zstd tar zip cpio sponge split head tail pv openssl
    uuencode ditto copy-item cpi copy xcopy robocopy find parallel sed awk gawk gio kioclient5]]):gmatch("%S+") do
  FILE_COPIERS[w] = true -- find /bin/rm -exec cp {} x, parallel cp /bin/rm ::: x, sed -n 'w x' /bin/rm
end
for w in pairs(COPIERS) do FILE_COPIERS[w] = true end

-- program_file is the program whose file the word names (/bin/rm,
-- /usr/sbin/mkfs.ext4, /usr/local/bin/bash, $(which rm), `command -v
-- rm`), or nil; /usr/share/doc/bash is no program.
local function program_file(w)
  local first = w:byte(1)
  if first == 47 then -- "/": a program's file is in a bin or sbin directory
    local base = w:match("^/[%w%._/%-]*/s?bin/([%w%._%-]+)$") or w:match("^/s?bin/([%w%._%-]+)$")
    return base and PROGRAM_FILES[base:match("^(mkfs)%.") or base] and base or nil
  end
  if not w:find("[%$`]") then return nil end -- a lookup on PATH is a substitution
  local found = w:match("which%s+([%w%._%-]+)") or w:match("command%s+%-v%s+([%w%._%-]+)")
      or w:match("type%s+%-P%s+([%w%._%-]+)")
  return found and PROGRAM_FILES[found:match("^(mkfs)%.") or found] and found or nil
end

-- FIND_NAMES are find's tests of a file's name or path, and whether each
-- tests the whole path (its last element names the program) or a regex.
local FIND_NAMES = { ["-name"] = "name", ["-iname"] = "name", ["-path"] = "path", ["-ipath"] = "path",
  ["-wholename"] = "path", ["-iwholename"] = "path", ["-regex"] = "regex", ["-iregex"] = "regex" }

-- found_program reports the program whose file a find that runs a copier
-- on what it finds ({}) may copy: one its name tests match (find / -name
-- rm -exec cp {} x \;), or any, when it has no name test and searches a
-- directory of programs (find /usr/bin -exec cp {} d \;).
local function found_program(cmd)
  local argv, copies, starts, tested = cmd.argv, false, {}, false
  for i = 2, #argv do
    local w = argv[i]
    if (w == "-exec" or w == "-execdir" or w == "-ok" or w == "-okdir") and argv[i + 1] then
      local run = argv[i + 1]:match("[^/]*$")
      for j = i + 2, #argv do
        if argv[j] == ";" or argv[j] == "+" then break end
        if argv[j]:find("{}", 1, true) and FILE_COPIERS[run] then copies = true end
      end
    end
    if not tested and #starts == i - 2 and not w:find("^[-(!]") then starts[#starts + 1] = w end
    tested = tested or FIND_NAMES[w] ~= nil
  end
  if not copies then return nil end
  for i = 2, #argv - 1 do
    local test, v = FIND_NAMES[argv[i]], argv[i + 1]
    if test then
      local low = argv[i]:sub(2, 2) == "i"
      local last = test == "path" and v:match("[^/]*$") or v
      for name in pairs(PROGRAM_FILES) do
        if test == "regex" then
          if (low and v:lower() or v):find("%f[%w]" .. name:gsub("%p", "%%%0") .. "%f[^%w]") then return name end
        elseif last ~= "" and path.glob(low and last:lower() or last, name) then
          return name
        end
      end
    end
  end
  if tested then return nil end
  for _, d in ipairs(#starts > 0 and starts or { "." }) do
    local clean = d:gsub("/+$", "")
    if clean == "" or clean == "/usr" or clean == "/usr/local" or clean:match("/s?bin$") or clean:match("/s?bin/") then
      return "every program in " .. d
    end
  end
end

-- copies_program reports the program file a command copies, links or
-- reads as data (cp /bin/rm x, cat /bin/rm | …, exec 3</bin/rm). hash
-- -p is no copy: the shell module follows the names it gives.
function Checker:copies_program(cmd)
  if cmd.name == "find" then
    local found = found_program(cmd)
    if found then return found end
  end
  if cmd.code ~= "" and cmd.code:find("bin/", 1, true) then -- shutil.copy("/bin/rm", "x"), symlink "/bin/rm", "x"
    for lit in cmd.code:gmatch("[\"'](/[%w%._/%-]+)[\"']") do
      local found = program_file(lit)
      if found then return found end
    end
  end
  if FILE_COPIERS[cmd.name] then
    for i = 2, #cmd.argv do
      local found = program_file(cmd.argv[i])
      if found then return found end
    end
  end
  for _, r in ipairs(cmd.redirects) do
    if r.op:find("<", 1, true) and r.op ~= "<<" and r.op ~= "<<-" and r.op ~= "<<<" and type(r.target) == "string" then
      local found = program_file(r.target)
      if found then return found end
    end
  end
end

-- recipe_file_lines returns the command lines of a recipe file the pack
-- reads: a justfile's recipe lines (indented, @ and - dropped), a YAML
-- task file's list items and cmd:, run:, entry: and command: values, a
-- TOML file's strings (mise, cargo-make and poe tasks); nil for another.
local function recipe_file_lines(name, text)
  local out = {}
  local function unquote(v)
    v = v:gsub("^%s+", ""):gsub("%s+$", "")
    return v:match('^"(.*)"$') or v:match("^'(.*)'$") or v
  end
  if name == "justfile" or name == "Justfile" or name == ".justfile" then
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
      local body = line:match("^[ \t]+(%S.*)$")
      if body then out[#out + 1] = (body:gsub("^[@%-]+", "")) end
    end
  elseif name:match("%.ya?ml$") then
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
      local v = line:match("^%s*%-%s+(.+)$") or line:match("^%s*%-?%s*cmd:%s*(.+)$") or line:match("^%s*run:%s*(.+)$")
          or line:match("^%s*entry:%s*(.+)$") or line:match("^%s*command:%s*(.+)$")
      if v and not v:match("^[%w_%-]+:%s") and not v:match("^[|>]") then out[#out + 1] = unquote(v) end
    end
  elseif name:match("%.toml$") then
    for v in text:gmatch('=%s*"([^"\n]*)"') do out[#out + 1] = v end
    for v in text:gmatch("=%s*'([^'\n]*)'") do out[#out + 1] = v end
  else
    return nil
  end
  return out
end

-- recipe_lines judges shell lines a build tool runs, each in a shell of
-- its own, and says where they come from.
function Checker:recipe_lines(lines, from)
  local ask
  for _, line in ipairs(lines) do
    local ok, verdict, why = self:shell_line(line)
    if not ok then return "ask", "runs " .. from .. ", whose line " .. line .. " could not be checked" end
    if verdict == "deny" then return "deny", why .. " (in " .. from .. ")" end
    if verdict == "ask" then ask = ask or (why .. " (in " .. from .. ")") end
  end
  if ask then return "ask", ask end
end

-- written_here returns the text of a file the line wrote in dir (nil:
-- not written on the line; false: with text known only at run time).
function Checker:written_here(name, dir)
  local full = path.clean(self:resolve(dir and (dir .. "/" .. name) or name) or name)
  return self.scripts[full], full
end

-- recipes judges what a build tool runs from a file the line wrote (or
-- gave it on standard input): a makefile's recipes, package.json's
-- scripts; for the other tools, a recipe file whose text deletes asks.
-- npm pkg set scripts.X='…' stores a script, judged where it is set.
function Checker:recipes(cmd)
  local kind, argv = BUILD_TOOLS[cmd.name], cmd.argv
  if kind == "npm" and argv[2] == "pkg" and argv[3] == "set" then
    local lines = {}
    for i = 4, #argv do
      local v = argv[i]:match("^scripts%.[^=]+=(.*)$")
      if v then lines[#lines + 1] = v end
    end
    return self:recipe_lines(lines, "a package.json script npm pkg set stores")
  end
  if kind == "npm" and argv[2] == "set-script" and argv[4] then -- npm 7's npm set-script NAME 'LINE'
    return self:recipe_lines({ argv[4] }, "a package.json script npm set-script stores")
  end
  if kind == "other" or kind == "make" then
    -- a recipe file made by a process substitution (make -f <(printf …),
    -- just --justfile <(…)): what it holds is not known
    for i = 2, #argv do
      if argv[i]:sub(1, 2) == "<(" and cmd.paths[i].dynamic and (argv[i - 1] == "-f" or argv[i - 1] == "--file"
          or argv[i - 1] == "--makefile" or argv[i - 1] == "--justfile" or argv[i - 1] == "--taskfile" or argv[i - 1] == "-P") then
        return "ask", cmd.name .. " runs recipes made by a process substitution (" .. argv[i] .. "), which cannot be checked"
      end
    end
  end
  if kind == "make" then
    local file, dir, vars = nil, nil, {}
    for i = 2, #argv do
      local a = argv[i]
      if (a == "-f" or a == "--file" or a == "--makefile") and argv[i + 1] then file = argv[i + 1]
      elseif a:match("^%-%-file=") or a:match("^%-%-makefile=") then file = a:match("=(.*)$")
      elseif a:match("^%-f.") then file = a:sub(3)
      elseif a == "-C" and argv[i + 1] then dir = argv[i + 1]
      elseif a:match("^%-C.") then dir = a:sub(3)
      else
        local name, value = a:match("^([%a_][%w_]*)=(.*)$")
        if name then vars[name] = value end
      end
    end
    local text, shown
    if file == "-" or file == "/dev/stdin" or file == "/dev/fd/0" then
      text = stdin_text(cmd)
      shown = text and ""
    end
    if not text then
      for _, name in ipairs(file and { file } or { "GNUmakefile", "makefile", "Makefile" }) do
        local t, full = self:written_here(name, dir)
        if t ~= nil then text, shown = t, full break end
      end
    end
    local lines = {}
    for _, v in pairs(vars) do lines[#lines + 1] = v end -- make CC='…' hello: the value runs as a command
    if text == false then return "ask", "runs the makefile " .. shown .. ", written on the same line with text known only at run time" end
    if text then
      -- a makefile it includes that the line wrote too (include x.mk)
      for inc in text:gmatch("%f[^\n%z]%-?s?include%s+([^\n]+)") do
        for f in inc:gmatch("%S+") do
          local t = self:written_here(f, dir)
          if type(t) == "string" then text = text .. "\n" .. t end
        end
      end
      for _, l in ipairs(make_lines(text, vars)) do lines[#lines + 1] = l end
    end
    return self:recipe_lines(lines, not text and "a variable make is given"
      or shown == "" and "the makefile make reads on its standard input"
      or ("the makefile " .. shown .. ", written on the same line"))
  end
  if not next(self.scripts) then return nil end
  if kind == "npm" then
    local dir
    for i = 2, #argv - 1 do
      if argv[i] == "--prefix" or argv[i] == "-C" or argv[i] == "--dir" or argv[i] == "--cwd" then dir = argv[i + 1] end
    end
    local text, full = self:written_here("package.json", dir)
    if text == nil then return nil end
    if text == false then return "ask", "runs scripts of " .. full .. ", written on the same line with text known only at run time" end
    local ok, doc = pcall(require("json").decode, text)
    if not ok or type(doc) ~= "table" then return "ask", "runs scripts of " .. full .. ", written on the same line, which could not be read" end
    local lines = {}
    for _, v in pairs(type(doc.scripts) == "table" and doc.scripts or {}) do
      if type(v) == "string" then lines[#lines + 1] = v end
    end
    return self:recipe_lines(lines, "the scripts of " .. full .. ", written on the same line")
  end
  -- python -m MOD: MOD.py (or MOD/__init__.py) the line wrote
  if (cmd.name == "python" or cmd.name == "python3") then
    for i = 2, #argv - 1 do
      if argv[i] == "-m" then
        local rel = argv[i + 1]:gsub("%.", "/")
        for _, f in ipairs({ rel .. ".py", rel .. "/__init__.py", rel .. "/__main__.py" }) do
          local text, full = self:written_here(f)
          if text ~= nil then return self:written_script(full, full, "python") end
        end
      end
    end
  end
  -- another tool: a recipe or code file the line wrote in its directory
  -- (cmake -P FILE: the file named)
  local named = cmd.name == "cmake" and (function()
    for i = 2, #argv - 1 do if argv[i] == "-P" then return path.clean(self:resolve(argv[i + 1]) or argv[i + 1]) end end
  end)()
  for full, text in pairs(self.scripts) do
    local name = full:match("[^/]+$")
    local lang = RECIPE_FILES[name] or (name:match("%.pth$") and "python") or (name:match("%.go$") and cmd.name == "go" and true)
        or (full == named and true)
    if lang then
      if text == false then return "ask", "runs " .. full .. ", written on the same line with text known only at run time" end
      local lines = recipe_file_lines(name, text)
      if lang == "python" then
        local verdict, why = self:written_script(full, full, "python")
        if verdict then return verdict, why end
      elseif lines then
        local verdict, why = self:recipe_lines(lines, full .. ", written on the same line")
        if verdict then return verdict, why end
      else
        for _, w in ipairs(DELETING_WORDS) do
          if text:find("%f[%w_]" .. w:gsub("%-", "%%-") .. "%f[^%w_]") then
            return "ask", cmd.name .. " may run " .. full .. ", written on the same line, which deletes (" .. w .. ") in a way not checked"
          end
        end
      end
    end
  end
end

-- STARTUP_FILES are the files a shell runs when it starts, by name (in
-- a home directory) or path: code written into them runs at the next
-- shell, whether or not the line starts one.
local STARTUP_FILES = { [".bashrc"] = true, [".bash_profile"] = true, [".bash_login"] = true, [".bash_logout"] = true,
                        [".profile"] = true, [".zshrc"] = true, [".zprofile"] = true, [".zshenv"] = true,
                        [".zlogin"] = true, [".kshrc"] = true, [".mkshrc"] = true, ["config.fish"] = true,
                        ["/etc/profile"] = true, ["/etc/bash.bashrc"] = true, ["/etc/zshrc"] = true,
                        ["/etc/zsh/zshrc"] = true, ["/etc/environment"] = false }

-- cron_lines returns the commands of a crontab's text: each line's after
-- its five time fields (or @reboot, @daily, …), up to a % (a newline to
-- cron); settings and comments are no commands.
local function cron_lines(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("^%s+", "")
    if line ~= "" and line:sub(1, 1) ~= "#" and not line:match("^[%w_]+%s*=") then
      local command = line:match("^@%a+%s+(.*)$") or line:match("^%S+%s+%S+%s+%S+%s+%S+%s+%S+%s+(.*)$")
      if command then out[#out + 1] = command:match("^(.-)%%") or command end
    end
  end
  return out
end

-- unit_lines returns the commands a systemd unit's text runs (ExecStart=
-- and its kin, their prefixes dropped, %h read as ~).
local function unit_lines(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local command = line:match("^%s*Exec[%a]*%s*=%s*[-@:+!]*(.*)$")
    if command and command ~= "" then out[#out + 1] = (command:gsub("%%h", "~")) end
  end
  return out
end

-- deferred_scripts judges code the line writes where it runs later: a
-- shell's start-up files, a systemd unit's Exec lines.
function Checker:deferred_scripts()
  for full, text in pairs(self.scripts) do
    local name = full:match("[^/]+$")
    local startup = STARTUP_FILES[full] or (STARTUP_FILES[name] and name ~= "config.fish" or full:match("/fish/config%.fish$"))
        or full:match("^/etc/profile%.d/") or full:match("/fish/conf%.d/[^/]+%.fish$")
    if startup and text == false then return "ask", "writes " .. full .. ", which a shell runs when it starts, with text known only at run time" end
    if startup then
      local verdict, why = self:written_script(full, full)
      if verdict then return verdict, why .. " (a file a shell runs when it starts)" end
    elseif name:match("%.service$") and text then
      local verdict, why = self:recipe_lines(unit_lines(text), "the systemd unit " .. full .. ", written on the same line")
      if verdict then return verdict, why end
    end
  end
end

-- crontab judges the table crontab installs: a file the line wrote, or
-- what it reads on its standard input (a here-string, echo … | crontab -).
function Checker:crontab(cmd)
  local text = stdin_text(cmd)
  local ops = words_of(cmd, "operand")
  if not text and ops[1] and ops[1] ~= "-" then
    text = self.scripts[path.clean(self:resolve(ops[1]) or ops[1])]
  elseif not text and self.piped then
    for _, prev in ipairs(self.piped) do
      local t = nil -- what the other commands print is the table as it was (crontab -l)
      if prev.name == "echo" or prev.name == "printf" or prev.name == "cat" then t = written(prev) end
      if t == false then return "ask", "crontab installs a table with text known only at run time" end
      if t then text = (text or "") .. t .. "\n" end
    end
  end
  if text == false then return "ask", "crontab installs a table written with text known only at run time" end
  if not text then return nil end
  return self:recipe_lines(cron_lines(text), "the table crontab installs")
end

-- startup_code judges the code a shell runs before its own: a script the
-- line wrote, named by BASH_ENV or ENV, --rcfile or --init-file
-- (BASH_ENV=a bash -c :), and the bodies of functions exported in the
-- environment (env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls). The
-- shell module reports neither; the line's text says.
function Checker:startup_code(line)
  if line:find("%-%-init%-file%s+<%(") or line:find("%-%-rcfile%s+<%(") or line:find("%f[%w_]B?A?S?H?_?ENV=<%(") then
    return "ask", "a shell runs at its start code made by a process substitution, which cannot be checked"
  end
  for body in line:gmatch("BASH_FUNC_[^=%s]*=%(%)%s*(%b{})") do
    local ok, cmds = pcall(shell.parse, body:sub(2, -2))
    if not ok then return "ask", "exports a shell function that could not be checked" end
    local verdict, why = self:check(cmds, 1)
    if verdict then return verdict, why .. " (in a function exported in the environment)" end
  end
  if not next(self.scripts) then return nil end
  for _, pat in ipairs({ "BASH_ENV=['\"]?([^%s'\";&|]+)", "%f[%w]ENV=['\"]?([^%s'\";&|]+)",
                         "%-%-rcfile%s+['\"]?([^%s'\";&|]+)", "%-%-init%-file%s+['\"]?([^%s'\";&|]+)" }) do
    for t in line:gmatch(pat) do
      local full = path.clean(self:resolve(t) or t)
      if self.scripts[full] ~= nil then
        local verdict, why = self:written_script(full, t)
        if verdict then return verdict, why end
      end
    end
  end
end

-- has_option_p reports whether hash is given -p (alone or clustered).
local function has_option_p(cmd)
  for i = 2, #cmd.argv do
    if cmd.argv[i]:match("^%-%a*p") then return true end
  end
  return false
end

-- copied_scripts passes a script written on the line on to its copies
-- (cp a b.sh; bash b.sh): every operand after the first may be where one
-- before it went.
function Checker:copied_scripts(cmd)
  local ops = operands(cmd)
  for k = 2, #ops do
    for j = k - 1, 1, -1 do
      local from = not ops[j].dynamic and self.scripts[path.clean(self:resolve(ops[j].path) or ops[j].path)]
      if from ~= nil and from ~= false or from == false then
        if not ops[k].dynamic then self.scripts[path.clean(self:resolve(ops[k].path) or ops[k].path)] = from end
        break
      end
    end
  end
end

-- COMMAND_VARS are the environment variables whose value a program runs
-- as a shell line: git's editor, pager, ssh and external diff, and the
-- editor and pager others run (crontab -e, visudo, man).
-- (Lua patterns: cargo runs a target's runner, and a rustc wrapper.)
local COMMAND_VARS = { "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER",
                       "EDITOR", "VISUAL", "PAGER", "SUDO_EDITOR", "MANPAGER", "CARGO_TARGET_[%w_]+_RUNNER",
                       "RUSTC_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER" }

-- command_vars judges the command lines a line gives those variables
-- (GIT_EDITOR='rm -rf ~ #' git commit), wherever it sets them: before a
-- command, with export or env. Each runs in a shell of its own.
function Checker:command_vars(line)
  -- cargo --config "target.X.runner='…'" sets the same runner
  for value in line:gmatch("target%.[%w_%-]+%.runner%s*=%s*['\"]([^'\"]+)['\"]") do
    local ok, verdict, why = self:shell_line(value)
    if not ok then return "ask", "cargo's runner is set to a command line that could not be checked" end
    if verdict then return verdict, why .. " (the runner cargo runs)" end
  end
  for _, var in ipairs(COMMAND_VARS) do
    local at = 1
    while true do
      local s, e = line:find("%f[%w_]" .. var .. "=", at)
      if not e then break end
      at = e + 1
      local named = line:sub(s, e - 1)
      local rest = line:sub(e + 1)
      local value = rest:match("^'([^']*)'") or rest:match('^"([^"]*)"') or rest:match("^([^%s;&|'\"]+)")
      if value and value ~= "" then
        local ok, verdict, why = self:shell_line(value)
        if not ok then return "ask", named .. " is set to a command line that could not be checked" end
        if verdict then return verdict, why .. " (the " .. named .. " a program runs)" end
      end
    end
  end
end

-- hash_variables records the aliases a line assigns as BASH_ALIASES[x]=rm
-- (alias x=rm); the shell module follows BASH_CMDS itself.
function Checker:hash_variables(line)
  for body in line:gmatch("BASH_ALIASES([^;&|)\n]*)") do
    for name, value in body:gmatch("%[['\"]?([^%]'\"]+)['\"]?%]%+?=['\"]?([^'\";&|)\n]*)") do
      self.aliases[name] = { value = value, dynamic = value == "" or value:find("[$`]") ~= nil }
    end
  end
end

-- hash_tables looks at what line writes to BASH_CMDS and BASH_ALIASES,
-- read as bash reads it once line continuations, quotes and backslashes
-- are gone (eval 'BASH_CM''DS[x]=…'). It returns "unfollowed" when the
-- line may write them in a way neither the shell module nor this pack
-- follows (read, printf -v, a nameref, ${BASH_CMDS[x]=…}, a key or a name
-- computed or escaped: BASH_CMDS[$k], BASH_${c}, $'BASH_\x43MDS'),
-- "followed" when it writes them only as NAME[KEY]=VALUE or NAME=(…)
-- with keys written out, nil when it only reads them ($BASH_CMDS,
-- ${BASH_ALIASES[x]}, ${#…}, ${!…}, declare -p).
function Checker:hash_tables(line)
  local plain = line:gsub("\\\n", ""):gsub("['\"\\]", "")
  if line:find("$'", 1, true) or plain:find("BASH_%$") or plain:find("BASH_%${") then return "unfollowed" end
  local found, at = nil, 1
  while true do
    local s, e = plain:find("BASH_[CA][ML][DI][A-Z]*", at)
    if not s then break end
    at = e + 1
    local before, rest = plain:sub(math.max(1, s - 3), s - 1), plain:sub(e + 1):match("^[^%s;&|]*")
    local param = before:match("%${[#!]?$")
    local read = before:match("%$$") or (param and rest:match("^[^}=]*}"))
        or (rest == "" and plain:sub(1, s - 1):match("[%s;&|(]declare%s+%-p%s+$"))
        or (rest == "" and plain:sub(1, s - 1):match("^declare%s+%-p%s+$"))
    if not read then
      if param then return "unfollowed" end -- ${BASH_CMDS[x]=…}, ${BASH_CMDS[x]:=…}
      local key = rest:match("^%[([^%]]*)%]%+?=")
      if (key and not key:find("[$`]")) or rest:match("^%+?=%(") then
        found = found or "followed"
      else
        return "unfollowed"
      end
    end
  end
  if found then self:hash_variables(plain) end
  return found
end

-- check returns "deny" or "ask" and why, for the first command of the
-- line that needs it (a deny anywhere beats an ask). The line starts in
-- the checker's directory, which is the same again afterwards.
function Checker:check(cmds, depth)
  local cwd, moved = self.cwd, self.moved
  local verdict, why = self:check_from(cmds, depth or 0, cwd, moved)
  self.cwd, self.moved = cwd, moved
  return verdict, why
end

-- shell_line judges text as a shell line run in a shell of its own (a
-- recipe, a setting's value, a container's command): ok is false when it
-- does not parse.
function Checker:shell_line(text)
  local ok, cmds = pcall(shell.parse, text)
  if not ok then return false end
  return true, self:check(cmds, 1)
end

-- check_from is check for a line that starts in cwd (moved: unknown).
function Checker:check_from(cmds, depth, cwd, moved)
  local ask
  local function note(verdict, why)
    if verdict == "ask" then ask = ask or why end
    return verdict == "deny"
  end
  -- the commands before each one in its pipeline, for the rules that
  -- judge what a command reads (Invoke-Expression, a piped Remove-Item)
  local pipes = {}
  local line_ps = self.powershell
  for i = 1, #cmds do
    local cmd = cmds[i]
    -- what PowerShell or cmd.exe runs is read as PowerShell (pwsh -c from bash)
    self.powershell = line_ps or windows_shell(cmd)
    local exe = self.powershell and cmd.name:lower():match("^(.+)%.[ec][xo][em]$") -- shutdown.exe, format.com
    if exe then cmd = setmetatable({ name = exe }, { __index = cmd }) end
    local name = cmd.name
    local pipeline = cmd.pipeline or -i
    local before = pipes[pipeline]
    self.piped = (cmd.position or 0) > 0 and before and { unpack(before) } or false
    if before then before[#before + 1] = cmd else pipes[pipeline] = { cmd } end
    local runs_delete = false
    if name == "find" then -- its -exec commands follow it, wrapped by find
      for j = i + 1, #cmds do
        if not has(cmds[j].wrapped_by, "find") then break end
        if DELETERS[cmds[j].name] then runs_delete = true end
      end
    end
    -- where it runs should a cd before it fail and the line go on
    -- (cd /tmp/gone; rm -rf *), then where it runs
    local alts = cmd.alt_dirs
    for j = 1, alts and #alts or 0 do
      self:enter(alts[j], cwd, moved)
      for _, judged in ipairs({ { self:judge(cmd, runs_delete) }, { self:launched(cmd) } }) do
        local verdict, why = judged[1], judged[2] and (judged[2] .. " (where it runs if a cd before it fails)")
        if note(verdict, why) then return "deny", why end
      end
    end
    self:enter(cmd.dir, cwd, moved)
    -- a deleter's word that $IFS splits at run time into options and
    -- paths (sudo -s rm '-rf$IFS/usr': the inner shell expands it)
    if DELETERS[cmd.name] then
      for i = 2, #cmd.argv do
        local w = cmd.argv[i]
        if cmd.paths[i].dynamic and (w:find("$IFS", 1, true) or w:find("${IFS", 1, true)) then
          note("ask", cmd.name .. " is given a word that $IFS splits at run time (" .. w .. ")")
          break
        end
      end
    end
    -- a copy of a program's file runs it under any name (cp /bin/rm x)
    local copied = self:copies_program(cmd)
    if copied then
      note("ask", "copies or reads the program file of " .. copied .. ", which may then run under another name")
    end
    -- exec -a NAME busybox …: the applet is NAME, which exec does not pass on
    if (cmd.name == "busybox" or cmd.name == "toybox" or has(cmd.wrapped_by, "busybox") or has(cmd.wrapped_by, "toybox"))
        and has(cmd.wrapped_by, "exec") then
      note("ask", "busybox or toybox run by exec, whose -a may choose the applet it runs")
    end
    local verdict, why = self:judge(cmd, runs_delete)
    if verdict and note(verdict, why) then return "deny", why end
    -- launched looks at no other command's words
    if not NOT_LAUNCHERS[name] and #cmd.argv > 1 then
      verdict, why = self:launched(cmd)
      if verdict and note(verdict, why) then return "deny", why end
    end
    local by = cmd.wrapped_by
    if #by == 0 and self.aliases[cmd.argv[1]] then
      verdict, why = self:expand(cmd, depth)
      if note(verdict, why) then return "deny", why end
    end

    if name == "crontab" and not has(cmd.argv, "-l") and not has(cmd.argv, "-r") and not has(cmd.argv, "-e") then
      verdict, why = self:crontab(cmd)
      if note(verdict, why) then return "deny", why end
    end
    -- a command whose program is what xargs, parallel or find hand it
    -- (xargs -I{} sh -c '{}', find … -exec {} \;), or parallel given no
    -- command, which runs the lines it reads
    if (cmd.dynamic and (has(by, "xargs") or has(by, "parallel") or has(by, "find"))
        and not name:match("^[%w%._/%+%-]+$")) then
      note("ask", "runs as a command what " .. (has(by, "find") and "find finds" or "its input holds") .. ", known only at run time")
    elseif name == "parallel" and parallel_runs_input(cmd) then
      note("ask", "parallel runs the lines it reads as commands, known only at run time")
    end
    if name == "exec" and #cmd.argv == 1 and #cmd.redirects > 0 then self:open_fds(cmd) end
    if self.fds and (SHELL_NAMES[name] or name == "source" or name == ".") then
      verdict, why = self:fd_script(cmd)
      if note(verdict, why) then return "deny", why end
    end
    -- a script the line wrote, run by its bare name from a directory on
    -- PATH (node_modules/.bin/eslint and npx eslint, bin/git with
    -- PATH=$PWD/bin)
    if next(self.scripts) and name ~= "" and not name:find("/", 1, true) then
      for full, text in pairs(self.scripts) do
        if full:sub(-#name - 1) == "/" .. name then
          local lang = type(text) == "string" and (text:match("^#!%S*/env%s+(%a+)") or text:match("^#!%S*/(%a+)"))
          lang = lang and (lang:match("^python") and "python" or lang:match("^node") and "node"
            or lang:match("^perl") and "perl" or lang:match("^ruby") and "ruby") or nil
          verdict, why = self:written_script(full, full, lang)
          if note(verdict, why) then return "deny", why end
          break
        end
      end
    end
    -- what a build tool runs from a file the line wrote (make, npm run)
    if BUILD_TOOLS[name] then
      verdict, why = self:recipes(cmd)
      if note(verdict, why) then return "deny", why end
    end

    -- record_download knows only downloaders' files
    if DOWNLOADERS[name] or (self.powershell and DOWNLOADERS[name:lower()]) then self:record_download(cmd) end
    if self.wrote or #cmd.redirects > 0 or name == "tee" or (self.powershell and PS_WRITERS[name:lower()]) then self:record_script(cmd) end
    if #by > 0 and has(by, "alias") then
      -- an alias's value runs only where the alias is used
    elseif name == "alias" then
      self:define(cmd)
    elseif COPIERS[name] and next(self.scripts) then
      self:copied_scripts(cmd)
    end
  end
  self.powershell = line_ps
  if ask then return "ask", ask end
end

-- guard answers a tool call: deny, ask or nothing.
local function guard(tool_name, params, cwd, workspace, ctx)
  -- every agent's shell tool (tool module), and the pack's shell_tools
  local dialect = tool.shell(tool_name, ctx.config)
  if not dialect then return nil end
  local line = tool.command(params)
  if not line then return nil end
  if #line > shell.max_line_bytes then
    -- the shell parser's bound on the work one check may do: a long
    -- heredoc is legitimate, so ask rather than refuse what is unseen
    return hook.ask(("the command is %d bytes, more than the %d the shell parser reads, so it was not checked; run it anyway?")
      :format(#line, shell.max_line_bytes), { title = "Unchecked shell command", severity = "medium" })
  end
  -- a PowerShell line as the POSIX line that runs the same commands
  if dialect == "powershell" then line = shell.powershell(line) end
  local ok, cmds = pcall(shell.parse, line)
  local unparsed
  if not ok then
    -- what the parts that parse would do is known: deny that, ask the rest
    -- the parser's message, not where in this file it was called
    unparsed = "it does not parse: " .. tostring(cmds):gsub("^.-%.lua:%d+: ", ""):gsub("^shell%.parse: ", "")
    local sok, s = pcall(shell.salvage, line)
    cmds = sok and s.commands or {}
  end
  local checker = new_checker(ctx, cwd or workspace, params)
  checker.verdicts = verdicts(ctx)
  checker.line = line
  checker.powershell = dialect == "powershell"
  local start = cwd or workspace
  -- a POSIX shell's line with a Windows working directory runs in Git
  -- Bash (Claude Code on Windows): its paths are Windows paths
  checker.gitbash = not checker.powershell and type(start) == "string" and start:match("^%a:[/\\]") ~= nil
  if (checker.powershell or checker.gitbash) and not checker.root and type(start) == "string" then
    -- a Windows working directory (C:\Users\dev\proj) is the workspace
    local win = start:gsub("\\", "/")
    if win:match("^%a:/") or win:match("^%a:$") then
      checker.root = windows_clean(win)
      checker.cwd = checker.root
      local dir = tool.dir(params)
      if dir then checker:move_to((dir:gsub("\\", "/"))) end
    end
  end
  -- bash's tables of commands written on the line (BASH_CMDS[x]=/bin/rm)
  local hash_tables = line:find("BASH_", 1, true) and checker:hash_tables(line)
  local verdict, why = checker:check(cmds)
  if verdict ~= "deny" and (line:find("BASH_", 1, true) or line:find("ENV=", 1, true) or line:find("file", 1, true)
      or line:find("rcfile", 1, true)) then
    local v2, why2 = checker:startup_code(line)
    if v2 == "deny" or (v2 and not verdict) then verdict, why = v2, why2 end
  end
  if verdict ~= "deny" and (line:find("EDITOR=", 1, true) or line:find("GIT_", 1, true) or line:find("PAGER=", 1, true)
      or line:find("VISUAL=", 1, true) or line:find("RUNNER", 1, true) or line:find("WRAPPER=", 1, true)
      or line:find(".runner", 1, true)) then
    local v2, why2 = checker:command_vars(line)
    if v2 == "deny" or (v2 and not verdict) then verdict, why = v2, why2 end
  end
  if verdict ~= "deny" and next(checker.scripts) then
    local v2, why2 = checker:deferred_scripts()
    if v2 == "deny" or (v2 and not verdict) then verdict, why = v2, why2 end
  end
  if hash_tables == "unfollowed" and not verdict then
    verdict, why = "ask", "the line changes which program a command name runs (BASH_CMDS, BASH_ALIASES) in a way not followed"
  end
  if not verdict and (hash_tables or line:find("hash", 1, true)) then
    -- a function's body (or a trap's) is read where it is defined: a name
    -- it runs may be given a program only later in the line (f(){ x; };
    -- hash -p … x; f)
    local renames, defines = hash_tables ~= nil, false
    for _, c in ipairs(cmds) do
      renames = renames or (c.name == "hash" and has_option_p(c))
      defines = defines or (c.in_function ~= "" and c.in_function ~= false and c.in_function ~= nil)
          or has(c.wrapped_by, "trap")
    end
    if renames and defines then
      verdict, why = "ask", "the line defines a function and changes which program a command name runs, which is not followed into the function"
    end
  end
  if unparsed then
    if verdict == "deny" then
      return hook.deny("refusing a destructive command: " .. why .. " (in a line that does not parse as a whole)")
    end
    return hook.ask("the command could not be checked (" .. unparsed .. ")" .. (why and ("; it may be destructive: " .. why) or "")
      .. "; run it anyway?", { title = "Unchecked shell command", severity = "medium" })
  end
  if verdict == "deny" then
    return hook.deny("refusing a destructive command: " .. why)
  elseif verdict == "ask" then
    return hook.ask("possibly destructive: " .. why, { title = "Check this command", severity = "high" })
  end
end

hook.on("tool.execute.pre", guard, { name = "no-destructive-commands", priority = 100, timeout = "2s" })

-- tool.approve is the agent asking whether a call may run at all
-- (PicoClaw's approve_tool, Claude Code's and Codex's PermissionRequest):
-- with no hook there, PicoClaw approves everything. It gets the same
-- answers: deny where tool.execute.pre denies, and ask where it asks,
-- which Claude Code and Codex leave to their own permission dialog and
-- PicoClaw, which has none, refuses.
hook.on("tool.approve", guard, { name = "no-destructive-approvals", priority = 100, timeout = "2s" })
