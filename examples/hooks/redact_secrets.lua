-- Redact API keys and tokens from tool output before the model sees it.
local re = require("re")

local secret = [[(sk-[A-Za-z0-9]{16,}|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}|(?i)bearer\s+[a-z0-9._-]{20,})]]

-- The most the hook scans. It must finish on any output, since a hook that
-- fails or times out lets the output through as it is: past SCAN bytes,
-- the output is kept up to its last whitespace within them (a secret holds
-- none, so none is cut in two) and the rest withheld.
local SCAN = 256 * 1024

hook.on("tool.execute.post", function(result)
  if type(result) ~= "string" then return end
  local text, note = result, ""
  if #text > SCAN then
    text = re.find([[(?s)\A.*\s]], text:sub(1, SCAN)) or ""
    note = string.format("[%d bytes withheld]", #result - #text)
  end
  if note ~= "" or re.match(secret, text) then
    return hook.modify({ result = re.replace(secret, text, "[redacted]") .. note })
  end
end, { name = "redact-secrets" })
