-- Redact credentials from tool output before the model sees it: API keys
-- (OpenAI, Anthropic, GitHub, AWS, Slack), bearer tokens and private key
-- blocks. Patterns are RE2 (re module): linear time, cached.
local re = require("re")

local PATTERNS = {
  [[sk-(ant-)?[A-Za-z0-9_-]{20,}]],
  [[gh[pousr]_[A-Za-z0-9]{30,}]],
  [[AKIA[0-9A-Z]{16}]],
  [[xox[abpr]-[A-Za-z0-9-]{10,}]],
  [[(?i)bearer\s+[a-z0-9._~+/-]{20,}=*]],
  [[(?s)-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----]],
}

local function redact(text)
  local changed = false
  for _, p in ipairs(PATTERNS) do
    if re.match(p, text) then
      text = re.replace(p, text, "[REDACTED]")
      changed = true
    end
  end
  return text, changed
end

hook.on("tool.execute.post", function(result)
  if type(result) == "string" then
    local text, changed = redact(result)
    if changed then return hook.modify({ result = text }) end
  elseif type(result) == "table" and type(result.for_llm) == "string" then
    local text, changed = redact(result.for_llm)
    if changed then
      local copy = {}
      for k, v in pairs(result) do copy[k] = v end
      copy.for_llm = text
      return hook.modify({ result = copy })
    end
  end
end, { name = "redact-secrets", priority = 100 })
