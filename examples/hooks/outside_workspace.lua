-- Ask before writing outside the workspace.
local path = require("path")

hook.on("tool.execute.pre", function(tool_name, params, cwd)
  if tool_name ~= "write" and tool_name ~= "edit" then return end
  local root = cwd or "/workspace"
  local target = params.path
  if type(target) ~= "string" or target == "" then
    return hook.deny(tool_name .. " without a path")
  end
  if not path.is_within(root, target) then
    return hook.ask("write to " .. path.abs(target, root) .. ", outside " .. root .. "?",
      { title = "Write outside the workspace", severity = "high" })
  end
end, { name = "ask-outside-workspace", priority = 30 })
