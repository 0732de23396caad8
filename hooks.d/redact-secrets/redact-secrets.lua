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

-- The most the hook scans in one call, over all the strings of a result:
-- far more than an agent shows its model, and little enough that every
-- pattern finishes well within the hook's deadline whatever the output
-- is (an error or a timeout would let the output through unredacted). A
-- string costs its length and STRING_COST more, so that a million tiny
-- strings cost as much as a long one; a table entry costs ENTRY_COST.
-- Past the budget, output is withheld, never passed on unscanned: a
-- string is cut after its last whitespace within the budget (no
-- credential holds whitespace, so none is cut in two; a private key
-- block the cut leaves open is redacted to the end), and what is left
-- over is replaced by a note.
local SCAN_BYTES = 256 * 1024
local STRING_COST, ENTRY_COST = 64, 16
local OPEN_KEY_BLOCK = [[(?s)-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----.*]]

local function withheld(n)
  return string.format("[REDACTED: %d bytes withheld, past what redact-secrets scans]", n)
end
local WITHHELD_TABLE = "[REDACTED: withheld, nested too deep or past what redact-secrets scans]"

-- bounded returns the part of text the budget lets the hook scan, and
-- how many bytes of it are withheld.
local function bounded(text, budget)
  local cost = #text + STRING_COST
  if cost <= budget.left then
    budget.left = budget.left - cost
    return text, 0
  end
  local room = budget.left - STRING_COST
  budget.left = 0
  if room <= 0 then return "", #text end
  local head = re.find([[(?s)\A.*\s]], text:sub(1, room)) or ""
  return head, #text - #head
end

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

local function redact_text(text, pats, budget)
  local kept, cut = bounded(text, budget)
  local changed = cut > 0
  for _, p in ipairs(pats) do
    if re.match(p[1], kept) then
      kept = re.replace(p[1], kept, p[2])
      changed = true
    end
  end
  if cut > 0 then
    kept = re.replace(OPEN_KEY_BLOCK, kept, "[REDACTED]") .. withheld(cut)
  end
  return kept, changed
end

-- redact returns a copy of v with every string redacted, and whether
-- anything changed. What lies deeper than MAX_DEPTH, or past the scan
-- budget, is withheld.
local function redact(v, pats, depth, budget)
  if type(v) == "string" then return redact_text(v, pats, budget) end
  if type(v) ~= "table" then return v, false end
  if depth > MAX_DEPTH or budget.left <= 0 then return WITHHELD_TABLE, true end
  local copy, changed = {}, false
  for k, x in pairs(v) do
    budget.left = budget.left - ENTRY_COST
    local y, c = redact(x, pats, depth + 1, budget)
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
  local redacted, changed = redact(result, patterns(ctx), 0, { left = SCAN_BYTES })
  if changed then return hook.modify({ result = redacted }) end
end, { name = "redact-secrets", priority = 100 })
