-- PicoClaw protocol tests: every decision, keyed by the call's "action"
-- argument.
local state = require("state")

local function with(t, k, v)
  local c = {}
  for key, val in pairs(t) do c[key] = val end
  c[k] = v
  return c
end

hook.on("tool.execute.pre", function(tool_name, params, session_id, turn_id, channel, sender_id)
  local a = params.action
  if a == "deny" then
    return hook.deny("denied " .. tool_name .. " in " .. tostring(session_id) .. "/" .. tostring(turn_id) ..
      " from " .. tostring(channel) .. ":" .. tostring(sender_id))
  elseif a == "ask" then
    return hook.ask("a human must look")
  elseif a == "respond" then
    return hook.respond("canned output")
  elseif a == "respond_object" then
    return hook.respond({ for_llm = "from the hook", for_user = "shown", is_error = true })
  elseif a == "abort" then
    return hook.abort_turn("stop the turn")
  elseif a == "hard_abort" then
    return hook.hard_abort("stop everything")
  elseif a == "modify" or a == "big" then
    return hook.modify({ params = with(params, "checked", true) })
  elseif a == "rename" then
    return hook.modify({ tool_name = "safe_" .. tool_name })
  elseif a == "allow" then
    return hook.allow("fine")
  elseif a == "message" then
    return hook.message("this cannot reach PicoClaw")
  elseif a == "print" then
    print("a print goes to the log, never to stdout")
  elseif a == "seen" then
    return hook.deny("runtime event seen: " .. tostring(state.get("runtime_kind")))
  end
end, { name = "pre" })

hook.on("tool.approve", function(params)
  local a = params.action
  if a == "allow" then
    return hook.allow()
  elseif a == "deny" then
    return hook.deny("no")
  elseif a == "ask" then
    return hook.ask("a human decides")
  end
end, { name = "approve" })

hook.on("tool.execute.post", function(params, result, error, duration_ms)
  if params.action == "redact" then
    return hook.modify({ result = with(result, "for_llm", "[redacted] error=" .. tostring(error) ..
      " ms=" .. tostring(duration_ms)) })
  end
end, { name = "post" })

hook.on("generation.pre", function(model, messages)
  if model == "modify" then
    local m = {}
    for i, v in ipairs(messages) do m[i] = v end
    m[#m + 1] = { role = "user", content = "added by a hook" }
    return hook.modify({ messages = m })
  elseif model == "respond" then
    return hook.respond("no model needed")
  elseif model == "abort" then
    return hook.abort_turn("no more model calls")
  end
end, { name = "llm-in" })

hook.on("generation.post", function(model, response)
  if model == "modify" then
    return hook.modify({ response = with(response, "content", "[rewritten]") })
  end
end, { name = "llm-out" })

hook.on("runtime.event", function(kind)
  state.set("runtime_kind", kind)
end, { name = "runtime" })
