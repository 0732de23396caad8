-- No more than 5 web searches a minute per session, shared by every
-- interpreter of the host through the state module.
local state = require("state")

hook.on("tool.execute.pre", function(tool_name, session_id, ctx)
  if tool_name ~= "web_search" then return end
  local limit = ctx.config.per_minute or 5
  local r = state.rate("web_search:" .. (session_id or "-"), limit, "1m")
  if not r.allowed then
    return hook.deny(string.format("web search limit reached (%d a minute); retry in %ds",
      limit, math.ceil(r.reset_ms / 1000)))
  end
end, { name = "web-search-rate", priority = 20 })
