-- string.find, match, gmatch and gsub are hookhost's own (so a deadline
-- can abandon a runaway match): they must behave as Lua 5.1's.
local expect = require("expect")

expect.eq({ string.find("hello world", "o w") }, { 5, 7 })
expect.eq({ string.find("hello world", "o", 6) }, { 8, 8 })
expect.eq({ string.find("a.b", ".", 1, true) }, { 2, 2 })
expect.eq({ string.find("hello", "l+") }, { 3, 4 })
expect.eq({ string.find("key=val", "(%w+)=(%w+)") }, { 1, 7, "key", "val" })
expect.eq({ string.find("abc", "()b()") }, { 2, 2, 2, 3 })
expect.eq(string.find("abc", "x"), nil)
expect.eq({ string.find("abc", "") }, { 1, 0 })
expect.eq({ string.find("abc", "", 10) }, {})
expect.eq({ string.find("abc", "c", -1) }, { 3, 3 })

expect.eq(string.match("hello world", "%w+"), "hello")
expect.eq({ string.match("key = value", "(%w+)%s*=%s*(%w+)") }, { "key", "value" })
expect.eq(string.match("abc", "x"), nil)
expect.eq(string.match("  trim  ", "^%s*(.-)%s*$"), "trim")
expect.eq(string.match("f(a(b)c)", "%b()"), "(a(b)c)")
-- (gopher-lua's %f frontier differs from Lua 5.1; not tested here)

local words = {}
for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
expect.eq(words, { "one", "two", "three" })
local pairs_ = {}
for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do pairs_[#pairs_ + 1] = k .. ":" .. v end
expect.eq(pairs_, { "a:1", "b:2" })

expect.eq({ string.gsub("hello world", "o", "0") }, { "hell0 w0rld", 2 })
expect.eq({ string.gsub("hello world", "o", "0", 1) }, { "hell0 world", 1 })
expect.eq({ string.gsub("hello world", "(%w+)", "<%1>") }, { "<hello> <world>", 2 })
expect.eq({ string.gsub("abc", "%w", "%0%0") }, { "aabbcc", 3 })
expect.eq({ string.gsub("abc", "", "-") }, { "-a-b-c-", 4 })
expect.eq({ string.gsub("$name is $age", "%$(%w+)", { name = "Ann", age = 30 }) }, { "Ann is 30", 2 })
expect.eq({ string.gsub("$x $y", "%$(%w+)", { x = "1" }) }, { "1 $y", 2 })
expect.eq({ string.gsub("1 2 3", "%d", function(d) return d * 2 end) }, { "2 4 6", 3 })
expect.eq({ string.gsub("a b", "%w", function() return nil end) }, { "a b", 2 })
expect.eq({ string.gsub("100%", "%%", " percent") }, { "100 percent", 1 })
expect.eq({ string.gsub("x", "x", "%%") }, { "%", 1 })
expect.fails(function() return string.gsub("x", "x", "%2") end, "invalid capture index")
expect.fails(function() return string.find("x", "[") end, "")

-- method syntax reaches the same functions
expect.eq(("a-b-c"):gsub("-", "+"), "a+b+c")
expect.eq(("path/to/file.txt"):match("[^/]+$"), "file.txt")
