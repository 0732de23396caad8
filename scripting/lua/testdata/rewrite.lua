-- Concatenation and writes inside functions go through hookhost's helpers
-- (rewrite.go); Lua's semantics must not change. This file runs as a top
-- level, where writes are allowed.
local expect = require("expect")

local function f()
  -- concatenation: numbers, chains, parentheses, multiple returns cut to one
  local function two() return "a", "b" end
  expect.eq("x" .. 1 .. 2.5, "x12.5")
  expect.eq(("a" .. "b") .. ("c" .. "d"), "abcd")
  expect.eq(two() .. two(), "aa")
  expect.eq((function(...) return ... .. "!" end)("v", "w"), "v!")
  expect.fails(function() return "x" .. {} end, "cannot perform concat operation between")
  local mt = { __concat = function(a, b)
    local l = type(a) == "table" and "T" or a
    local r = type(b) == "table" and "T" or b
    return l .. r
  end }
  local t = setmetatable({}, mt)
  expect.eq("a" .. t .. "b", "aTb")

  -- field writes, globals, multiple assignment, swaps
  local o = {}
  o.x, o.y = 1, 2
  o[1], o[2] = o[2], o[1]
  expect.eq(o[1], nil)
  o.a, o.b = two()
  expect.eq(o.a .. o.b, "ab")
  local i = 1
  i, o[i] = i + 1, 20 -- the key is evaluated before the assignment
  expect.eq(i, 2)
  expect.eq(o[1], 20)
  rewrite_global = "g"
  expect.eq(rewrite_global, "g")
  rewrite_a, rewrite_b = two()
  expect.eq(rewrite_a .. rewrite_b, "ab")

  -- __newindex: functions and tables along the chain
  local log = {}
  local p = setmetatable({}, { __newindex = function(t, k, v) rawset(log, k, v) end })
  p.k = "v"
  expect.eq(log.k, "v")
  expect.eq(rawget(p, "k"), nil)
  local target = {}
  local q = setmetatable({}, { __newindex = target })
  q.k = 1
  expect.eq(target.k, 1)
  expect.fails(function() local s = "x" s.k = 1 end, "attempt to index")
  expect.fails(function() local t = {} t[nil] = 1 end, "table index is nil")

  -- function definitions inside functions: fields, methods, globals
  local obj = { n = 1 }
  function obj.get() return obj.n end
  function obj:inc(by) self.n = self.n + (by or 1) return self end
  obj:inc(2):inc()
  expect.eq(obj.get(), 4)
  function rewrite_fn(...) return select("#", ...) end
  expect.eq(rewrite_fn(1, 2, 3), 3)

  -- constructors with computed keys
  local k = "key"
  local c = { [k] = 1, [1 + 1] = 2, ["lit"] = 3, [true] = 4 }
  expect.eq(c.key + c[2] + c.lit + c[true], 10)

  -- locals, upvalues, loops and goto are untouched
  local count = 0
  local function bump() count = count + 1 end
  for _ = 1, 3 do bump() end
  expect.eq(count, 3)
  local n = 0
  ::again::
  n = n + 1
  if n < 3 then goto again end
  expect.eq(n, 3)
  repeat local r = 1 until r == 1
  local function va(...) local t = {...} t.n = select("#", ...) return t end
  expect.eq(va(1, nil, 3).n, 3)
end
f()

-- string.format follows Lua 5.1
expect.eq(string.format("%d|%5s|%-5s|%05.1f|%x|%X|%o|%e|%g|%g", 42, "ab", "cd", 3.14159, 255, 255, 8, 1234.5, 1e20, 0.5),
  "42|   ab|cd   |003.1|ff|FF|10|1.234500e+03|1e+20|0.5")
expect.eq(string.format("%q", "a\nb\"c\\\0"), '"a\\\nb\\"c\\\\\\000"')
expect.eq(string.format("%q", "\r\0\0"), '"\\r\\000\\000"')
expect.eq(#string.format("%q", ("\0"):rep(1000)), 4002)
expect.eq(string.format("%s %s", 1, true), "1 true")
expect.eq(string.format("%%"), "%")
expect.eq(string.format("%c%c", 72, 105), "Hi")
expect.eq(string.format("%.3s", "abcdef"), "abc")
expect.fails(function() return string.format("%d") end, "no value")
expect.fails(function() return string.format("%100d", 1) end, "width or precision too long")
expect.fails(function() return string.format("%y", 1) end, "invalid option")

-- table functions
local t = { 3, 1, 2 }
table.sort(t)
expect.eq(table.concat(t, ","), "1,2,3")
table.sort(t, function(a, b) return a > b end)
expect.eq(table.concat(t, ","), "3,2,1")
table.insert(t, 1, 0)
table.insert(t, 9)
expect.eq(table.concat(t, ","), "0,3,2,1,9")
expect.eq(table.remove(t, 1), 0)
expect.eq(table.remove(t), 9)
expect.eq(table.remove({}), nil)
expect.eq(table.concat({ 1, "a", 2.5 }, "-", 2, 3), "a-2.5")
expect.eq(table.concat({}, ","), "")
expect.eq(select("#", unpack({ 1, 2, 3 })), 3)
expect.eq(select("#", unpack({ 1, 2, 3 }, 2)), 2)
expect.eq(select("#", unpack({}, 1, 0)), 0)
expect.eq(table.maxn({ 1, 2, 3 }), 3)

-- string functions
expect.eq(("abc"):byte(), 97)
expect.eq(select("#", ("abc"):byte(1, -1)), 3)
expect.eq(select("#", ("abc"):byte(10)), 0)
expect.eq(string.char(104, 105), "hi")
expect.fails(function() return string.char(256) end, "invalid value")
expect.eq(("abc"):reverse(), "cba")
expect.eq(("aBc"):upper() .. ("aBc"):lower(), "ABCabc")
-- case mapping is byte-wise ASCII, as Lua 5.1's C locale: other bytes,
-- UTF-8 or not, are kept as they are
expect.eq(("\255"):upper(), "\255")
expect.eq(("\255\128X"):lower(), "\255\128x")
expect.eq(("\226\132\170"):lower(), "\226\132\170") -- the Kelvin sign is not "k"
expect.eq(("\195\169t\195\169"):upper(), "\195\169T\195\169") -- é stays é
expect.eq(("\195\137"):lower(), "\195\137") -- É stays É
expect.eq(#("\255"):rep(1000):upper(), 1000)
expect.eq(("@[`{"):upper() .. ("@[`{"):lower(), "@[`{@[`{")
local words = {}
for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
expect.eq(table.concat(words, "|"), "one|two|three")
local n = 0
for _ in ("abc"):gmatch("") do n = n + 1 end
expect.eq(n, 4)
expect.eq(select(2, ("hello world"):gsub("o", "0")), 2)
expect.eq(("hello world"):gsub("o", "0", 1), "hell0 world")
expect.eq(("abc"):gsub("%w*", "-"), "--")
expect.eq(("aaa"):gsub("^a", "b"), "baa")
expect.eq(("hello"):gsub("l+", function(m) return "[" .. m .. "]" end), "he[ll]o")
expect.eq(("k=v"):gsub("(%w)=(%w)", "%2=%1"), "v=k")

-- an and/or value given to a local that already exists: gopher-lua's
-- compiler kept the old value when an and's left operand was false or
-- nil (x = t.k and v left x as it was); the rewrite computes the value
-- into a new local first. The same in a function body and at the top
-- level, for one target and several.
local function logical(t)
  local x = "old"
  x = t.missing and "v"
  expect.eq(x, nil)
  x = "old"
  x = (t.missing and "v")
  expect.eq(x, nil)
  x = "old"
  x = t.no and t.yes
  expect.eq(x, nil)
  x = "old"
  x = t.f and t.yes
  expect.eq(x, false)
  x = "old"
  x = not t.yes and "v"
  expect.eq(x, false)
  x = "old"
  x = t.yes and t.missing and "v"
  expect.eq(x, nil)
  x = "old"
  x = t.yes and "v"
  expect.eq(x, "v")
  x = "old"
  x = t.missing and "v" or "w"
  expect.eq(x, "w")
  local y = "old"
  x, y = t.missing and "v", t.yes and "w"
  expect.eq(x, nil)
  expect.eq(y, "w")
  x, y = "old", "old"
  x, t.out = t.missing and "v", t.missing and "w"
  expect.eq(x, nil)
  expect.eq(t.out, nil)
  -- an upvalue, and a value that is not the and/or's
  local function set() x = t.missing and "v" end
  x = "old"
  set()
  expect.eq(x, nil)
  x = "old"
  x = t.missing
  expect.eq(x, nil)
end
logical({ yes = true, f = false })
do
  local t = { yes = true, f = false }
  local x = "old"
  x = t.missing and "v"
  expect.eq(x, nil)
  x = "old"
  x = t.f and t.yes
  expect.eq(x, false)
  local y = "old"
  x, y = t.missing and "v", t.yes and "w"
  expect.eq(x, nil)
  expect.eq(y, "w")
end

-- Other Lua 5.1 that gopher-lua's compiler gets wrong and the rewrite
-- avoids (found by comparing generated programs with lua5.1).

-- A multiple assignment to locals reads every value before it assigns
-- (a, b = b, a swapped nothing: both became b).
local sa, sb = "a", "b"
sa, sb = sb, sa
expect.eq(sa .. sb, "ba")
local st = { k = "old" }
local sv = "v"
st.k, sv = sv, "new"
expect.eq(st.k, "v")
expect.eq(sv, "new")
local function swaps()
  local a, b = 1, 2
  a, b = b, a
  expect.eq(a, 2)
  expect.eq(b, 1)
  local t, v = { k = "old" }, "v"
  t.k, v = v, "new"
  expect.eq(t.k, "v")
  local x, y, z = 1, 2, 3
  x, y, z = z, x, y
  expect.eq(x .. y .. z, "312")
end
swaps()

-- A loop whose body starts with a jump ran the wrong code, or never
-- ended: a generic for or a repeat, after relational values in locals.
local function loops()
  local ra = 1 == 1
  local rb = 2 == 2
  local rc = 3 == 3
  local out = {}
  for _, v in ipairs({ "a", "b" }) do local x = nil and 1 or 2 out[#out + 1] = v end
  for _, v in ipairs({ "c", "d" }) do local x = false and v out[#out + 1] = v end
  for _, v in ipairs({ "e", "f" }) do if nil then out[#out + 1] = 0 end out[#out + 1] = v end
  for _, v in ipairs({ "g", "h" }) do if false then out[#out + 1] = 0 else out[#out + 1] = v end end
  local n = 0
  repeat local x = nil and 1 or 2 n = n + 1 out[#out + 1] = n until n >= 2
  n = 0
  while true do
    local x = nil and 1 or 2
    n = n + 1
    if n >= 2 then break end
  end
  out[#out + 1] = n
  local go, m = true, 0
  while nil and ra or go do
    m = m + 1
    if m >= 2 then go = false end
  end
  out[#out + 1] = m
  m = 0
  while false or m < 2 do m = m + 1 end
  out[#out + 1] = m
  return table.concat(out, " ")
end
expect.eq(loops(), "a b c d e f g h 1 2 2 2 2")

-- A call that is the value of a keyed last field gives one value (its
-- results became array elements: {"a", name = tostring(5)} had t[2]).
local kt = { "a", name = tostring(5) }
expect.eq(#kt, 1)
expect.eq(kt[2], nil)
expect.eq(kt.name, "5")
local kn = { "a", "b", n = select("#", "x", "y") }
expect.eq(#kn, 2)
expect.eq(kn.n, 2)
local function keyed()
  local n = 0
  for _ in ipairs({ "a", k = tostring(1) }) do n = n + 1 end
  return n
end
expect.eq(keyed(), 1)

-- A call or ... assigned to the last parameter, or to a local beside
-- it, left a Go nil behind ("invalid memory address or nil pointer
-- dereference" when used).
local function strip(s)
  s = (s:gsub("^%s+", ""))
  return s
end
expect.eq(strip("  hi"), "hi")
local function upper2(a, s)
  s = s:upper(), 1
  return a .. s
end
expect.eq(upper2("x", "y"), "xY")
local function rest(...)
  local a, b = 1, 2
  a = (...)
  return tostring(a) .. tostring(b)
end
expect.eq(rest("x"), "x2")

-- The file's own ... is empty, as for a file run without arguments.
expect.eq(select("#", ...), 0)
expect.eq(type((...)), "nil")
local va, vb = ...
expect.eq(va, nil)
expect.eq(#{ ... }, 0)
