hook.on("tool.execute.pre", function(params)
  local c = params.content or params.command or ""
  if c == "deny-me" then return hook.deny("denied by the test hook") end
  if c == "ask-me" then return hook.ask("a person must approve this") end
  if c == "abort-me" then return hook.abort_turn("aborted by the test hook") end
  if c == "respond-me" then return hook.respond("canned result") end
  if c == "allow-me" then return hook.allow("allowed by the test hook") end
  if c == "modify-me" then
    local p = {}
    for k, v in pairs(params) do p[k] = v end
    if params.content then p.content = "echo rewritten" else p.command = "echo rewritten" end
    return hook.modify({params = p})
  end
end)
hook.on("session.start", function()
  return hook.message("hello from hookhost")
end)
hook.on("generation.pre", function(model)
  if model == "abort-model" then return hook.abort_turn("no model calls today") end
  if model == "respond-model" then return hook.respond("canned answer") end
  if model == "modify-model" then return hook.modify({model = "safer-model"}) end
end)
-- Spins far past any HOOKHOST_TIMEOUT a test sets, and denies if it ever
-- times out, so a bridge can only see a timeout or a deny.
hook.on("tool.execute.pre", function(params)
  if (params.content or params.command) == "spin-me" then
    while true do end
  end
end, {name = "spin", timeout = "60s", timeout_behavior = "deny", error_behavior = "deny"})
