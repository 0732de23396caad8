-- The expect module's assertions on values and on hook.fire results, and
-- hook.fire outside a test run.
local expect = require("expect")

expect.contains("rm -rf /", "-rf")
expect.contains({ "a", "b" }, "b")
expect.contains({ a = 1 }, "a")
expect.fails(function() expect.contains("abc", "x") end, 'expect.contains: "abc" does not contain "x"')
expect.fails(function() expect.contains({ 1, 2 }, 3) end, "does not contain 3")
expect.fails(function() expect.contains(5, 3) end, "want a string, list or map, got int")
expect.fails(function() expect.contains("abc", "x", "flags") end, "flags: ")

local denied = {
  action = "deny", reason = "refusing to delete /", hook = "guard.lua:no-rm",
  payload = {}, messages = { { role = "system", content = "careful now" } },
  trace = { { hook = "guard.lua:no-rm", priority = 0, outcome = "decision", action = "deny", duration_ms = 0.1 } },
}
expect.action(denied, "deny")
expect.reason_contains(denied, "delete")
expect.hook(denied, "guard.lua:no-rm")
expect.ran(denied, "guard.lua:no-rm")
expect.message_contains(denied, "careful")
expect.fails(function() expect.action(denied, "allow") end,
  'expect.action: got action "deny" by hook "guard.lua:no-rm", reason "refusing to delete /", want action "allow"')
expect.fails(function() expect.reason_contains(denied, "root") end, 'want a reason containing "root"')
expect.fails(function() expect.hook(denied, "other.lua:x") end, 'want the decision of hook "other.lua:x"')
expect.fails(function() expect.ran(denied, "other.lua:x") end, 'hook "other.lua:x" did not run (the hooks that ran: ["guard.lua:no-rm"])')
expect.fails(function() expect.message_contains(denied, "xyz") end, 'no message contains "xyz"')
expect.fails(function() expect.action(denied, "allow", "rm of root") end, "expect.action: rm of root: got")

local nothing = { action = "continue", reason = "", hook = "", payload = {}, messages = {}, trace = {} }
expect.fails(function() expect.action(nothing, "deny") end, 'got action "continue", no hook decided, want action "deny"')
expect.fails(function() expect.ran(nothing, "a.lua:1") end, "the hooks that ran: null")
expect.fails(function() expect.action({ 1, 2 }, "deny") end, "argument 1 (result): want what hook.fire returned, got [1,2]")
expect.fails(function() expect.action(denied) end, "missing argument 2 (action)")

-- hook.fire exists only in test files run by hookhost test.
expect.fails(function() hook.fire("tool.execute.pre", {}) end,
  "hook.fire: only test files (*_test.lua, *_test.star) run by hookhost test can fire events")
