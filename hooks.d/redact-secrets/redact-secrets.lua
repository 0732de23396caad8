-- Redact credentials from tool output before the model sees it: API keys
-- (OpenAI, Anthropic, GitHub, GitLab, AWS, Google, Slack, Stripe,
-- Hugging Face, npm), AWS secret keys, bearer tokens, JWTs, passwords in
-- URLs and private key blocks. The result may be a string or any
-- structure of maps and lists (Claude's tool_response, PicoClaw's
-- {for_llm = …}): every string in it is redacted. Patterns are RE2 (re
-- module): linear time, cached.
--
-- Settings (ctx.config): see HOOK.md, which holds their defaults.
local re = require("re")

local PATTERNS = {
  [[sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}]],
  [[(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})]],
  [[glpat-[A-Za-z0-9_-]{20,}]],
  [[(?:AKIA|ASIA)[0-9A-Z]{16}]],
  [[(?i)(aws_secret_access_key|secret_access_key)(\s*[=:]\s*)["']?[A-Za-z0-9/+=]{40,}["']?]],
  [[AIza[0-9A-Za-z_-]{35}]],
  [[xox[abprs]-[A-Za-z0-9-]{10,}]],
  [[(?:sk|rk)_live_[A-Za-z0-9]{20,}]],
  [[hf_[A-Za-z0-9]{30,}]],
  [[npm_[A-Za-z0-9]{36}]],
  [[(?i)bearer\s+[a-z0-9._~+/-]{20,}=*]],
  [[eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}]],
  [[(?i)([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^/\s@]+@]],
  [[(?s)-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----.*?-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----]],
}

-- Replacements: where a pattern keeps a prefix (the key's name, the URL's
-- user), its group says so.
local KEEP_PREFIX = { [5] = "${1}${2}[REDACTED]", [13] = "${1}[REDACTED]@" }

local MAX_DEPTH = 32

local function patterns(ctx)
  local list = {}
  for i, p in ipairs(PATTERNS) do list[#list + 1] = { p, KEEP_PREFIX[i] or "[REDACTED]" } end
  if type(ctx.config.patterns) == "table" then
    for _, p in ipairs(ctx.config.patterns) do
      if type(p) == "string" then list[#list + 1] = { p, "[REDACTED]" } end
    end
  end
  return list
end

local function redact_text(text, pats)
  local changed = false
  for _, p in ipairs(pats) do
    if re.match(p[1], text) then
      text = re.replace(p[1], text, p[2])
      changed = true
    end
  end
  return text, changed
end

-- redact returns a copy of v with every string redacted, and whether
-- anything changed.
local function redact(v, pats, depth)
  if type(v) == "string" then return redact_text(v, pats) end
  if type(v) ~= "table" or depth > MAX_DEPTH then return v, false end
  local copy, changed = {}, false
  for k, x in pairs(v) do
    local y, c = redact(x, pats, depth + 1)
    copy[k] = y
    changed = changed or c
  end
  return copy, changed
end

hook.on("tool.execute.post", function(tool_name, result, ctx)
  if type(ctx.config.keep) == "table" and type(tool_name) == "string" then
    for _, t in ipairs(ctx.config.keep) do
      if type(t) == "string" and t:lower() == tool_name:lower() then return nil end
    end
  end
  local redacted, changed = redact(result, patterns(ctx), 0)
  if changed then return hook.modify({ result = redacted }) end
end, { name = "redact-secrets", priority = 100 })
