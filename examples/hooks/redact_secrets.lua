-- Redact API keys and tokens from tool output before the model sees it.
local re = require("re")

local secret = [[(sk-[A-Za-z0-9]{16,}|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}|(?i)bearer\s+[a-z0-9._-]{20,})]]

hook.on("tool.execute.post", function(result)
  if type(result) == "string" and re.match(secret, result) then
    return hook.modify({ result = re.replace(secret, result, "[redacted]") })
  end
end, { name = "redact-secrets" })
