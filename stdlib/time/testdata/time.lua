-- Script tests for the time module; the harness's clock may be real, so
-- only relations between readings are checked, except for fixed instants.
local time = require("time")
local expect = require("expect")

local t = time.now()
expect.truthy(t > 1600000000000)          -- Unix milliseconds, not seconds
expect.eq(math.floor(t), t)                -- a whole number
expect.truthy(time.since(t) >= 0)
expect.eq(time.since(t + 60000) < 0, true) -- the future is negative

expect.eq(time.parse_duration("1m30s"), 90000)
expect.eq(time.parse_duration("250ms"), 250)
expect.eq(time.parse_duration(42), 42)
expect.fails(function() return time.parse_duration("soon") end, "bad duration")
expect.fails(function() return time.parse_duration("-1s") end, "negative")

expect.eq(time.format(0), "1970-01-01T00:00:00Z")
expect.eq(time.format(1709618828009), "2024-03-05T06:07:08Z")
expect.eq(time.format(1709618828009, "rfc3339ms"), "2024-03-05T06:07:08.009Z")
expect.eq(time.format(1709618828009, "date"), "2024-03-05")
expect.eq(time.format(1709618828009, "time"), "06:07:08")
expect.eq(time.format(1709618828009, "datetime"), "2024-03-05 06:07:08")
expect.eq(time.format(1709618828009, "Mon 15h"), "Tue 06h")
expect.fails(function() return time.format(0, "iso") end, "unknown layout")
expect.fails(function() return time.format("now") end, "argument 1")
expect.fails(function() return time.format(1.5) end, "want integer")
