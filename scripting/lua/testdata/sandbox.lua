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

-- ipairs and type (baselib.go) answer as Lua's
do
  local seen = {}
  for i, v in ipairs({ "a", "b", nil, "d" }) do seen[#seen + 1] = i .. "=" .. v end
  expect.eq(table.concat(seen, ","), "1=a,2=b")
  local big = {}
  for i = 1, 300 do big[i] = i * 2 end
  local n, sum = 0, 0
  for i, v in ipairs(big) do
    n = n + 1
    sum = sum + v
    expect.eq(v, 2 * i)
  end
  expect.eq(n, 300)
  expect.eq(sum, 300 * 301)
  local step, tab, start = ipairs(big)
  expect.eq(step == (ipairs({})), true)
  expect.eq(tab == big, true)
  expect.eq(start, 0)
  expect.eq(select("#", step(big, 300)), 0)
  local i, v = step(big, 299)
  expect.eq(i, 300)
  expect.eq(v, 600)
  expect.eq(type(i), "number")
  expect.fails(function() return ipairs(nil) end, "bad argument #1")
  expect.fails(function() return ipairs("abc") end, "table expected")
  expect.fails(function() return step(big, "x") end, "bad argument #2")
  for _ in ipairs({}) do error("an empty table has no elements") end
end
expect.eq(type(nil), "nil")
expect.eq(type(true), "boolean")
expect.eq(type(1.5), "number")
expect.eq(type("s"), "string")
expect.eq(type({}), "table")
expect.eq(type(print), "function")
expect.eq(type(type), "function")
expect.fails(function() return type() end, "bad argument #1")

-- pcall and xpcall: a failed protected call leaves the locals the
-- enclosing function shares with its closures shared (gopher-lua closed
-- every frame's upvalues on an error inside pcall: yuin/gopher-lua#448)
local function shared(fail)
  local seen
  local function note(v) seen = v end
  fail()
  note("set")
  return seen
end
expect.eq(shared(function() pcall(error, "x") end), "set")
expect.eq(shared(function() pcall(function() error("x") end) end), "set")
expect.eq(shared(function() pcall(function() local t = nil; return t.x end) end), "set")
expect.eq(shared(function() xpcall(function() error("x") end, function(e) return e end) end), "set")
expect.eq(shared(function() pcall(string.rep) end), "set")
-- what pcall and xpcall return
expect.eq({ pcall(function(a, b) return a + b, "ok" end, 1, 2) }, { true, 3, "ok" })
expect.eq(({ pcall(error, { code = 7 }) })[2].code, 7)
expect.eq({ pcall(error, "boom", 0) }, { false, "boom" })
expect.eq({ pcall(42) }, { false, "attempt to call a number value" })
expect.eq({ xpcall(function() error("boom", 0) end, function(e) return "handled: " .. e end) }, { false, "handled: boom" })
expect.eq({ xpcall(function() return 1, 2 end, print) }, { true, 1, 2 })
-- a closure made inside a failed call, kept past it, no longer reads the
-- stack the call used: what it captured is closed, as its value or as
-- nil (the two first registers of the failed function), never what later
-- code put there
local keep
pcall(function()
  local v = "inner"
  keep = function() return v end
  error("x")
end)
local filler = { pcall(function() local a, b, c = "1", "2", "3"; return a .. b .. c end) }
local got = keep()
expect.truthy(got == "inner" or got == nil, "a closure kept past a failed pcall read " .. tostring(got))
