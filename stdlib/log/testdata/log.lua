-- Script tests for the log module: calls return nil; bad calls fail.
local log = require("log")
local expect = require("expect")

expect.eq(log.debug("debug line"), nil)
expect.eq(log.info("info line", { tool = "bash", calls = 3, ok = true }), nil)
expect.eq(log.warn("nested", { argv = { "rm", "-rf", "/" }, params = { command = "ls" } }), nil)
expect.eq(log.error("empty attrs", {}), nil)
expect.eq(log.info("no attrs", nil), nil) -- a variable that happens to be nil is no table of named values
expect.eq(log.info(string.rep("x", 10000)), nil) -- cut, not refused

expect.fails(function() return log.info(42) end, "want string")
expect.fails(function() return log.info(nil) end, "msg")
expect.fails(function() return log.warn("spoof", { hook = "other.lua:x" }) end, "reserved")
