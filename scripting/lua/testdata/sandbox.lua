-- The sandbox (DESIGN §7): no files, processes, environment or code
-- loading; string.rep capped; the string metatable protected.
local expect = require("expect")

for _, name in ipairs({ "io", "debug", "package", "coroutine", "channel" }) do
  expect.eq(_G[name], nil, name)
end
for _, name in ipairs({ "dofile", "loadfile", "load", "loadstring", "module",
                        "collectgarbage", "getfenv", "setfenv", "newproxy", "_printregs" }) do
  expect.eq(_G[name], nil, name)
end
for _, name in ipairs({ "execute", "exit", "getenv", "setenv", "remove", "rename", "tmpname", "setlocale", "difftime" }) do
  expect.eq(os[name], nil, "os." .. name)
end
expect.eq(type(os.time()), "number")
expect.eq(type(os.clock()), "number")
expect.eq(type(os.date("%Y")), "string")

expect.fails(function() return require("x.lua") end, 'module "x.lua" is not available')
expect.fails(function() return require("os") end, "not available")
expect.fails(function() return string.rep("x", 1e10) end, "exceed")
expect.fails(function() return ("x"):rep(1e10) end, "exceed")
expect.eq(string.rep("ab", 3), "ababab")
expect.eq(("ab"):rep(0), "")
expect.eq(getmetatable(""), false)
expect.eq(string.dump, nil)
expect.eq(("abc"):upper(), "ABC")

-- print goes to the log, not stdout, and returns nothing
expect.eq(print("from the sandbox test"), nil)

-- what is left of base works
expect.eq(select("#", 1, 2, 3), 3)
expect.eq(tonumber("0x10"), 16)
expect.eq(pcall(error, "x"), false)
local t = setmetatable({}, { __index = function(_, k) return k .. "!" end })
expect.eq(t.hi, "hi!")
expect.eq(math.max(1, 5, 3), 5)
expect.eq(table.concat({ "a", "b" }, ","), "a,b")
