-- Script tests for the state module. The store may be shared with other
-- fixtures, so every key starts with "fixture.lua:".
local state = require("state")
local expect = require("expect")

local k = "fixture.lua:"

expect.eq(state.get(k .. "absent"), nil)
state.set(k .. "v", { tool = "bash", args = { "ls", "-l" }, n = 3 })
local v = state.get(k .. "v")
expect.eq(v.tool, "bash")
expect.eq(v.args[2], "-l")
expect.eq(v.n, 3)
v.tool = "changed" -- a copy: the store keeps its own
expect.eq(state.get(k .. "v").tool, "bash")
expect.eq(state.delete(k .. "v"), true)
expect.eq(state.delete(k .. "v"), false)
state.set(k .. "nil", 1)
state.set(k .. "nil", nil) -- nil deletes, as in a Lua table
expect.eq(state.get(k .. "nil"), nil)
state.set(k .. "ttl", "x", "1h")
expect.eq(state.get(k .. "ttl"), "x")

state.delete(k .. "n")
expect.eq(state.incr(k .. "n"), 1)
expect.eq(state.incr(k .. "n", 10), 11)
expect.eq(state.incr(k .. "n", -1, "1h"), 10)
state.set(k .. "s", "five")
expect.fails(function() return state.incr(k .. "s") end, "not an integer")

state.delete(k .. "r")
local r = state.rate(k .. "r", 2, "1m")
expect.eq(r.allowed, true)
expect.eq(r.remaining, 1)
expect.truthy(r.reset_ms > 0 and r.reset_ms <= 60000)
expect.eq(state.rate(k .. "r", 2, 60000).allowed, true)
r = state.rate(k .. "r", 2, "1m")
expect.eq(r.allowed, false)
expect.eq(r.remaining, 0)
expect.fails(function() return state.get(k .. "r") end, "rate window")

expect.fails(function() return state.get("") end, "key is empty")
expect.fails(function() return state.get(42) end, "want string")
expect.fails(function() return state.set(k .. "x", 1, "soon") end, "bad duration")
expect.fails(function() return state.set(k .. "x", 1, 0) end, "ttl")
expect.fails(function() return state.set(k .. "x", string.rep("x", 70000)) end, "too large")
expect.fails(function() return state.set(k .. "x", function() end) end, "cannot be converted")
expect.fails(function() return state.incr(k .. "n", 0.5) end, "want integer")
expect.fails(function() return state.rate(k .. "q", 0, "1s") end, "out of range")
expect.fails(function() return state.rate(k .. "q", 100000, "1s") end, "out of range")
expect.fails(function() return state.rate(k .. "q", 1, "0s") end, "window must be positive")
