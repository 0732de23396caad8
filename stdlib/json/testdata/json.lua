-- Script tests for the json module.
local json = require("json")
local expect = require("expect")

-- encode: compact, keys sorted, deterministic
expect.eq(json.encode({b = 1, a = {true, false}}), '{"a":[true,false],"b":1}')
expect.eq(json.encode({}), "{}")                 -- an empty table is a map
expect.eq(json.encode({1, 2, 3}), "[1,2,3]")
expect.eq(json.encode("<a & b>"), '"<a & b>"')   -- no HTML escaping
expect.eq(json.encode(1.5), "1.5")
expect.eq(json.encode(2), "2")                   -- whole Lua numbers are integers
expect.eq(json.encode({a = {1}}, 2), '{\n  "a": [\n    1\n  ]\n}')
expect.eq(json.encode("tab\there"), '"tab\\there"')

-- decode
local v = json.decode('{"tool": "bash", "args": ["-c", "ls"], "n": 3, "x": null}')
expect.eq(v.tool, "bash")
expect.eq(v.args[1], "-c")
expect.eq(#v.args, 2)
expect.eq(v.n, 3)
expect.eq(v.x, nil)
expect.eq(json.decode("2.5"), 2.5)
expect.eq(json.decode('"\\u00e9"'), "é")

-- round trip
local doc = {name = "x", tags = {"a", "b"}, nested = {deep = {k = 1}}}
expect.eq(json.decode(json.encode(doc)), doc)

-- errors say where and what
expect.fails(function() return json.decode('{"a": }') end, "line 1, column 7: found '}', want a value")
expect.fails(function() return json.decode("{\n  \"a\" 1}") end, "line 2, column 7")
expect.fails(function() return json.decode("[1] x") end, "after the value")
expect.fails(function() return json.decode("") end, "want a value")
expect.fails(function() return json.decode(string.rep("[", 600)) end, "nested deeper than 512")
expect.fails(function() return json.encode(0/0) end, "NaN")
expect.fails(function() return json.encode({x = 1/0}) end, "Inf")

-- bad arguments
expect.fails(function() return json.decode(42) end, "argument 1 (text): want string")
expect.fails(function() return json.decode() end, "argument 1 (text)")
expect.fails(function() return json.encode({}, -1) end, "argument 2 (indent)")
expect.fails(function() return json.encode({}, "2") end, "argument 2 (indent)")
