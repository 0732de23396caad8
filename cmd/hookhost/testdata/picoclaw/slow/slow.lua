-- Hooks that take their time: one that waits for a flag another call sets,
-- and ones that never return (their deadlines end them).
local state = require("state")

hook.on("tool.execute.pre", function(params)
  if params.action == "wait" then
    while not state.get("go") do end
    return hook.deny("waited")
  elseif params.action == "go" then
    state.set("go", true)
    return hook.deny("went")
  elseif params.action == "fast" then
    return hook.deny("fast")
  end
end, { name = "flag", timeout = "60s" })

hook.on("tool.execute.pre", function(params)
  if params.action == "spin" then
    while true do end
  end
end, { name = "spin", timeout = "300ms", priority = 10 })

hook.on("tool.execute.pre", function(params)
  if params.action == "slow" then
    while true do end
  end
end, { name = "slow", timeout = "60s", priority = 20 })

hook.on("tool.approve", function(params)
  if params.action == "spin" then
    while true do end
  end
end, { name = "approve-spin", timeout = "300ms" })

hook.on("tool.approve", function(params)
  if params.action == "slow" then
    while true do end
  end
end, { name = "approve-slow", timeout = "60s" })
