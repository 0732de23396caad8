-- Ask before an agent reads or writes secrets: .env files (not
-- .env.example and its kin), ~/.ssh (public keys and known_hosts
-- excepted), cloud credentials (~/.aws/credentials and config, gcloud's
-- ~/.config/gcloud, ~/.azure), ~/.kube/config, ~/.docker/config.json,
-- .netrc, .pgpass, .git-credentials, and private keys (id_rsa,
-- id_ed25519, …, *.pem, *.key, *.p12, *.pfx). It looks at the path of
-- read, write and edit tool calls, at file.save.pre (which cannot ask,
-- so it denies), and at every word and redirection of a shell command
-- (cat .env, cp ~/.ssh/id_rsa /tmp, echo KEY=x >> .env, source .env),
-- parsed with the shell module. Listing (ls, stat, test) and ssh -i pass.
--
-- Settings (ctx.config): see HOOK.md, which holds their defaults.
local path = require("path")
local shell = require("shell")
local tool = require("tool")

-- Programs that name a file without opening it: listing, ssh's use of
-- a key, and changing its mode or owner (chmod 600 ~/.ssh/id_rsa).
local NOT_READING = { ls = true, stat = true, test = true, ["["] = true, ssh = true, ["ssh-add"] = true,
                      chmod = true, chown = true, chgrp = true,
                      -- PowerShell's, matched lower-cased: they test or name a path
                      ["test-path"] = true, ["split-path"] = true, ["join-path"] = true, ["resolve-path"] = true }
-- PowerShell's cmdlets that write a value into a file: the value (the
-- second operand, Add-Content .gitignore '.env') is data, not a path
local VALUE_WRITERS = { ["add-content"] = true, ["set-content"] = true, ac = true, sc = true }

local KEY_NAMES = { id_rsa = true, id_dsa = true, id_ecdsa = true, id_ed25519 = true,
                    ["id_ecdsa_sk"] = true, ["id_ed25519_sk"] = true }
local KEY_EXTS = { pem = true, key = true, p12 = true, pfx = true, jks = true, keystore = true, ppk = true }
local CRED_FILES = { [".netrc"] = true, ["_netrc"] = true, [".pgpass"] = true, [".git-credentials"] = true,
                     [".pypirc"] = true }
local ENV_SAMPLES = { example = true, sample = true, template = true, dist = true, defaults = true }
-- Directories whose whole content is secret, and the programs that copy
-- a directory's whole content (tar czf k.tgz ~/.ssh, cp -r ~/.aws /tmp);
-- naming the directory to others (ls ~/.ssh, chmod 700 ~/.ssh) passes.
local HOLDERS = { [".ssh"] = "SSH keys and settings", [".aws"] = "AWS credentials",
                  [".kube"] = "Kubernetes credentials", [".docker"] = "Docker registry credentials" }
local COPIERS = { tar = true, zip = true, ["7z"] = true, cp = true, rsync = true, scp = true, rclone = true,
                  cpio = true, pax = true, bsdtar = true }

-- secret says what kind of secret a path holds, or nil. Names are
-- compared without case: on macOS's and Windows' file systems .ENV is
-- .env and ~/.SSH is ~/.ssh.
local function secret_one(p)
  -- as Windows reads it: backslashes, device prefixes, ::$DATA and the
  -- dots and spaces that end a name (.env. is .env)
  -- (C:x is x in drive C's current directory)
  p = path.windows(p):lower():gsub("^%a:([^/])", "%1")
  if #p > 1 then p = p:gsub("/+$", "") end -- ~/.ssh/ names the directory, as ~/.ssh does
  local base = p:match("([^/]*)$") or p
  local padded = "/" .. p .. "/"
  if padded:find("/%.ssh/") then
    if base:match("%.pub$") or base == "known_hosts" or base == ".ssh" then return nil end
    return "SSH keys and settings"
  end
  if padded:find("/%.aws/credentials/", 1) or padded:find("/%.aws/config/", 1) then return "AWS credentials" end
  if padded:find("/%.config/gcloud/") or padded:find("/appdata/roaming/gcloud/") then return "Google Cloud credentials" end
  if padded:find("/%.config/gh/hosts%.yml/") or padded:find("/appdata/roaming/github cli/hosts%.yml/") then
    return "GitHub CLI credentials"
  end
  -- the user's npm settings hold registry tokens; a project's .npmrc
  -- usually holds none and is read all the time
  if base == ".npmrc" and (p:match("^~[^/]*/%.npmrc$") or p:match("^/home/[^/]+/%.npmrc$")
      or p:match("^/users/[^/]+/%.npmrc$") or p == "/root/.npmrc") then
    return "npm registry credentials"
  end
  if padded:find("/%.azure/") then return "Azure credentials" end
  -- Windows: the account hashes (the SAM, SYSTEM and SECURITY hives, a
  -- domain controller's ntds.dit) and the saved credentials with the
  -- keys that decrypt them
  if padded:find("/windows/system32/config/") and (base == "sam" or base == "system" or base == "security") then
    return "Windows account hashes"
  end
  if base == "ntds.dit" then return "a domain's account hashes" end
  if padded:find("/appdata/roaming/microsoft/credentials/") or padded:find("/appdata/local/microsoft/credentials/")
      or padded:find("/appdata/roaming/microsoft/protect/") then
    return "Windows saved credentials"
  end
  -- browsers' saved passwords: Chrome's and Edge's Login Data, Firefox's
  -- logins.json and key4.db in a profile
  if base == "login data" and (padded:find("/user data/") or padded:find("chrom") or padded:find("/microsoft edge/")
      or padded:find("/brave")) then
    return "a browser's saved passwords"
  end
  if (base == "logins.json" or base == "key4.db") and (padded:find("/firefox/") or padded:find("/%.mozilla/")) then
    return "a browser's saved passwords"
  end
  if padded:find("/%.kube/config/") then return "Kubernetes credentials" end
  if padded:find("/%.docker/config%.json/") then return "Docker registry credentials" end
  if CRED_FILES[base] then return "a credentials file" end
  if base == ".env" or base == ".envrc" then return "an environment file" end
  local suffix = base:match("^%.env%.(.+)$")
  if suffix and not ENV_SAMPLES[suffix:lower()] then return "an environment file" end
  local stem = base:match("^(id_[%w_]+)")
  if stem and KEY_NAMES[stem] and not base:match("%.pub$") then return "a private key" end
  local ext = base:match("%.([%w]+)$")
  if ext and KEY_EXTS[ext:lower()] then return "a private key or certificate" end
  return nil
end

-- The names a secret's path may hold, for short 8.3 names: Windows
-- answers to CREDEN~1 for credentials, ENV~1.LOC for .env.local.
local SHORT_CANDIDATES = { ".env", ".env.local", ".env.production", ".env.development", ".envrc", ".ssh", ".aws",
                           "credentials", "config", ".kube", ".docker", "config.json", ".azure", "gcloud",
                           "github cli", "hosts.yml", ".npmrc", ".netrc", ".pgpass", ".git-credentials", ".pypirc",
                           "user data", "login data", "microsoft", "credentials", "protect", "id_rsa", "id_ed25519",
                           "id_ecdsa", "logins.json", "key4.db" }

-- short_names returns the long names of SHORT_CANDIDATES an 8.3 name
-- (STEM~N.EXT) may stand for: the long name without its leading dots
-- and spaces and inner dots starts with STEM, and its extension with EXT.
local function short_names(elem)
  local stem, ext = elem:match("^([^~%.]+)~%d+%.?([^%.]*)$")
  if not stem or #stem > 6 then return nil end
  stem, ext = stem:upper(), ext:upper()
  local out = {}
  for _, n in ipairs(SHORT_CANDIDATES) do
    local long = n:gsub("^%.+", ""):gsub(" ", ""):upper()
    local base, lext = long:match("^(.*)%.([^%.]*)$")
    base, lext = (base or long):gsub("%.", ""), lext or ""
    if base:sub(1, #stem) == stem and lext:sub(1, #ext) == ext and (ext ~= "" or lext == "") then out[#out + 1] = n end
  end
  return out
end

-- secret says what kind of secret a path holds, or nil; a short 8.3
-- name in it is tried as each long name it may stand for (at most 16
-- spellings).
local function secret(p)
  if not p:find("~%d") then return secret_one(p) end
  local spellings = { "" }
  for elem in (path.windows(p) .. "/"):gmatch("([^/]*)/") do
    local longs = short_names(elem) or {}
    longs[#longs + 1] = elem
    local next_spellings = {}
    for _, s in ipairs(spellings) do
      for _, l in ipairs(longs) do
        if #next_spellings < 16 then next_spellings[#next_spellings + 1] = s == "" and l or s .. "/" .. l end
      end
    end
    spellings = next_spellings
  end
  for _, s in ipairs(spellings) do
    local kind = secret_one(s)
    if kind then return kind end
  end
  return nil
end

-- Names secrets have, tried against a glob that names files (cat .env*,
-- grep KEY *.pem).
local SECRET_NAMES = { ".env", ".env.local", ".env.production", ".envrc", "id_rsa", "id_ed25519", "id_ecdsa",
                       "x.pem", "x.key", "x.p12", "x.pfx", "x.jks", ".netrc", ".pgpass", ".git-credentials",
                       ".pypirc" }

-- glob_secret says what kind of secret a glob could name: one whose
-- last element keeps a literal beyond a dot (.env*, *.pem, id_*; not *,
-- which would make every `wc -l *` a read of secrets) and matches a
-- secret's name, a leading dot only by a leading dot as the shell does.
local function glob_secret(p)
  local dir, base = p:match("^(.*/)([^/]*)$")
  if not base then dir, base = "", p end
  if not base:find("[%*%?%[]") then return nil end
  local literal = base:gsub("%[[^%]]*%]", ""):gsub("[%*%?]", "")
  if literal == "" or literal == "." then return nil end
  for _, n in ipairs(SECRET_NAMES) do
    if n:sub(1, 1) ~= "." or base:sub(1, 1) == "." then
      local ok, hit = pcall(path.glob, base, n)
      local kind = ok and hit and secret(dir .. n)
      if kind then return kind end
    end
  end
end

local function allowed(p, ctx)
  if type(ctx.config.allow) ~= "table" then return false end
  for _, pat in ipairs(ctx.config.allow) do
    if type(pat) == "string" and p:match("^" .. pat .. "$") then return true end
  end
  return false
end

local function check_path(p, ctx)
  if type(p) ~= "string" or p == "" or allowed(p, ctx) then return nil end
  local kind = secret(p) or glob_secret(p)
  if kind then return kind .. " (" .. p .. ")" end
end

-- SEARCHERS read every file of a directory they are given: rg, ag and
-- ack always, grep with -r, -R or --recursive (grep -r KEY ~/.aws prints
-- the credentials it matches).
local SEARCHERS = { rg = true, ag = true, ack = true, ["ack-grep"] = true }
local GREPS = { grep = true, egrep = true, fgrep = true }
local function reads_whole(cmd)
  local n = cmd.name
  return COPIERS[n] or SEARCHERS[n]
      or (GREPS[n] and (shell.has_flag(cmd.argv, "r", "recursive") or shell.has_flag(cmd.argv, "R", "dereference-recursive")))
end

-- check_holder says what a directory holding only secrets (~/.ssh)
-- holds, for a program that reads all of it.
local function check_holder(cmd, p, ctx)
  if type(p) ~= "string" then return nil end
  local kind = HOLDERS[(p:match("([^/]*)/*$") or ""):lower()]
  if kind and reads_whole(cmd) and not allowed(p, ctx) then return kind .. " (all of " .. p .. ")" end
end

-- FORM is a curl -F/--form value that sends a file: name=@file or
-- name=<file (curl -F "f=@.env" URL).
local FORM = "^[%w_%.%-]+=[@<]([^;]+)"

-- windows_dump says how a command copies Windows credentials out of the
-- running machine, or nil: reg save of the SAM, SYSTEM or SECURITY hive,
-- a memory dump of lsass (procdump, comsvcs.dll's MiniDump).
local function windows_dump(cmd)
  local low = cmd.name:lower():gsub("%.exe$", "")
  local words = table.concat(cmd.argv, " ", 2):lower()
  if low == "reg" and (cmd.argv[2] or ""):lower() == "save" then
    local root, hive = (cmd.argv[3] or ""):lower():gsub("\\", "/"):match("^(hk[%a_]*)/(%a+)$")
    if (root == "hklm" or root == "hkey_local_machine") and (hive == "sam" or hive == "system" or hive == "security") then
      return "reg save copies the " .. hive:upper() .. " hive (Windows account hashes)"
    end
  end
  if (low == "procdump" or low == "procdump64") and words:find("lsass", 1, true) then
    return cmd.name .. " dumps lsass's memory (the logged-on users' credentials)"
  end
  if low == "rundll32" and words:find("comsvcs", 1, true) and words:find("minidump", 1, true) then
    return "rundll32 comsvcs.dll MiniDump dumps a process's memory (lsass's holds the credentials)"
  end
end

-- has_option reports whether cmd has option (any case, or a prefix of
-- three letters or more).
local function has_option(cmd, option)
  for i = 2, #cmd.argv do
    local a = cmd.argv[i]:lower()
    if #a >= 4 and option:sub(1, #a) == a then return true end
  end
  return false
end

-- first_operand reports whether argv[i] is cmd's first operand.
local function first_operand(cmd, i)
  for k = 2, i - 1 do
    if cmd.roles[k] == "operand" and cmd.argv[k - 1]:lower() ~= "-path" then return false end
  end
  return true
end

-- shell_secret returns the first secret a shell line touches.
local function shell_secret(line, ctx)
  -- a line that does not parse whole is read in the parts that do
  -- (destructive.lua asks about the rest, and about a line too long)
  local ok, s = pcall(shell.salvage, line)
  if not ok then return nil end
  for _, cmd in ipairs(s.commands) do
    local dump = windows_dump(cmd)
    if dump then return dump end
    local low = cmd.name:lower()
    if not NOT_READING[cmd.name] and not NOT_READING[low] then
      local seen = 0 -- a value writer's operands so far
      for i = 2, #cmd.argv do
        -- only a word the program may open: a pattern (grep .env x), a
        -- filter, a script or data (echo, git commit -m) is not a path;
        -- nor is a value writer's -Value, or its operand after the path
        local role = cmd.roles[i]
        if low == "select-string" or low == "sls" then
          -- PowerShell's grep: -Pattern's value, else its first operand,
          -- is the pattern; -Path's value is the file it reads
          local prev = cmd.argv[i - 1]:lower()
          if prev == "-pattern" or prev == "-pa" or prev == "-pat" then role = "pattern"
          elseif role == "operand" and not has_option(cmd, "-pattern") and prev ~= "-path" and prev ~= "-literalpath" then
            role = first_operand(cmd, i) and "pattern" or role
          end
        end
        if VALUE_WRITERS[low] then
          if cmd.argv[i - 1]:lower() == "-value" then role = "data"
          elseif role == "operand" then
            seen = seen + 1
            if seen > 1 then role = "data" end
          end
        end
        local attached = role == "option" and (cmd.argv[i]:match("^%-%-?[%w-]+=(.+)$")
          or cmd.argv[i]:match("^%-%a+:(.+)$")) -- PowerShell's -Path:.env
        -- curl -d @.env, --data-binary=@.env: the file's content is sent
        local at = (role == "operand" or role == "value") and cmd.argv[i]:match("^@(.+)$")
        local form = (role == "operand" or role == "value") and cmd.argv[i]:match(FORM)
        local what = (role == "operand" and (check_path(cmd.paths[i].path, ctx)
              or check_holder(cmd, cmd.paths[i].path, ctx)))
            or check_path(at, ctx) or check_path(attached, ctx) or check_path(form, ctx)
            or check_path(attached and attached:match("^@(.+)$"), ctx)
        if what then return cmd.name .. " touches " .. what end
      end
    end
    -- interpreter code (python3 -c "open('/home/u/.aws/credentials')"):
    -- each string literal that names a secret
    if cmd.lang ~= "" and cmd.lang ~= "sh" and cmd.code ~= "" then
      for _, q in ipairs({ "'([^'\n]+)'", '"([^"\n]+)"', "`([^`\n]+)`" }) do
        for lit in cmd.code:gmatch(q) do
          local what = check_path(lit, ctx)
          if what then return cmd.name .. " code touches " .. what end
        end
      end
    end
    -- find -name .env -exec cat {} ;: the pattern names what the
    -- command it runs opens
    if cmd.roles[1] == "name" and (cmd.name == "find" or cmd.name == "fd") then
      local runs = false
      for i = 2, #cmd.argv do
        if cmd.roles[i] == "command" or cmd.argv[i] == "-x" or cmd.argv[i] == "-X" or cmd.argv[i] == "--exec" then runs = true end
      end
      for i = 2, #cmd.argv do
        local what = runs and (cmd.roles[i] == "pattern" or cmd.name == "fd") and check_path(cmd.argv[i]:gsub("^%*", ""), ctx)
        if what then return cmd.name .. " runs a command on " .. what end
      end
    end
    for _, r in ipairs(cmd.redirects) do
      if r.op ~= "<<" and r.op ~= "<<-" and r.op ~= "<<<" then
        local what = check_path(r.target, ctx)
        if what then return "a redirection touches " .. what end
      end
    end
  end
end

hook.on("tool.execute.pre", function(tool_name, params, ctx)
  -- every agent's file and shell tools (tool module), and the pack's
  -- shell_tools, read_tools and write_tools
  local kind = tool.kind(tool_name, ctx.config)
  -- A shell call's tool.paths are the files of a patch it carries, which
  -- it writes (Codex's ["apply_patch", BODY], apply_patch <<'EOF').
  local verb = kind == "read" and "read" or (kind == "write" or kind == "edit" or kind == "patch") and "write"
  if verb or kind == "shell" then
    for _, p in ipairs(tool.paths(tool_name, params, nil, ctx.config)) do
      local what = check_path(p, ctx)
      if what then
        return hook.ask(tool_name .. " wants to " .. (verb or "patch") .. " " .. what,
          { title = "Secrets", severity = "high" })
      end
    end
    if verb then return nil end
  end
  if kind ~= "shell" then return nil end
  local line = tool.command(params)
  if line and tool.shell(tool_name, ctx.config) == "powershell" then
    -- as the POSIX line that runs the same commands (C:\x is C:/x); one
    -- too long to read is destructive.lua's to ask about
    local ok, posix = pcall(shell.powershell, line)
    line = ok and posix or nil
  end
  local why = line and shell_secret(line, ctx)
  if why then
    return hook.ask("this command " .. why, { title = "Secrets", severity = "high" })
  end
end, { name = "ask-secrets", priority = 80, timeout = "2s" })

hook.on("file.save.pre", function(path, ctx)
  local what = check_path(path, ctx)
  if what then return hook.deny("refusing to save " .. what .. " without approval") end
end, { name = "deny-saving-secrets", priority = 80 })
