-- The agent loop's guardrails for shell commands (tool "bash").
hook.on("tool.execute.pre", function(tool_name, params)
  if tool_name ~= "bash" then
    return nil
  end
  local cmd = params.command or ""
  if cmd:find("rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  elseif cmd:find("| sh", 1, true) then
    return hook.abort_turn("piping a download into a shell: ending the turn")
  elseif cmd:sub(1, 8) == "git push" then
    return hook.ask("pushing changes others will see", { title = "git push", severity = "medium" })
  elseif cmd == "npm install" then
    return hook.modify({ params = { command = "npm ci" } })
  end
end, { name = "shell", priority = 50 })

-- A human must approve a push to main; others are fine.
hook.on("tool.approve", function(tool_name, params)
  if tool_name == "bash" and (params.command or ""):find("main", 1, true) then
    return hook.deny("pushes to main go through review")
  end
  return hook.allow("a push to a branch")
end, { name = "push-review" })
