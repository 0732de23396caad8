-- The guard of the end-to-end test through OpenClaw (openclaw.test.js):
-- the model's exec commands are real shell commands there, so the
-- markers are substrings of a command rather than whole commands as in
-- integrations/testsupport/guard.lua.
hook.on("tool.execute.pre", function(params)
  local c = params.command or ""
  if c:find("hookhost-deny-me", 1, true) then
    return hook.deny("denied by the e2e hook")
  end
  if c:find("hookhost-modify-me", 1, true) then
    local p = {}
    for k, v in pairs(params) do p[k] = v end
    p.command = (c:gsub("hookhost%-modify%-me", "rewritten-by-hookhost"))
    return hook.modify({params = p})
  end
end)
hook.on("tool.execute.pre", function(params)
  if (params.command or ""):find("hookhost-ask-me", 1, true) then
    return hook.ask("a person must approve this")
  end
end)
