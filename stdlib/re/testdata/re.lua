-- Script tests for the re module.
local re = require("re")
local expect = require("expect")

expect.eq(re.match([[rm\s+-rf]], "sudo rm  -rf /"), true)
expect.eq(re.match("^rm", "sudo rm -rf /"), false)
expect.eq(re.match("(?i)drop table", "DROP TABLE users"), true)

expect.eq(re.find([[\d+]], "port 8080 and 443"), "8080")
expect.eq(re.find([[\d+]], "no digits"), nil)
expect.eq(re.find("x*", "abc"), "")   -- an empty match is not nil

local m = re.find_groups([[(?P<user>\w+)@(\w+)]], "mail bob@example now")
expect.eq(m.match, "bob@example")
expect.eq(m.groups[1], "bob")         -- group 1 is groups[1] in Lua
expect.eq(m.groups[2], "example")
expect.eq(m.named.user, "bob")
expect.eq(re.find_groups("a(x)?(b)", "ab").groups, {"", "b"})  -- a group that took no part is ""
expect.eq(re.find_groups("(a)", "zzz"), nil)

expect.eq(re.find_all([[\d+]], "a1 b22 c333"), {"1", "22", "333"})
expect.eq(re.find_all([[\d+]], "a1 b22 c333", 2), {"1", "22"})
expect.eq(#re.find_all([[\d+]], "none"), 0)

expect.eq(re.replace([[secret=\S+]], "a secret=xyz b", "secret=***"), "a secret=*** b")
expect.eq(re.replace([[(\w+)@(\w+)]], "bob@example", "$2 at ${1}"), "example at bob")
expect.eq(re.replace([[\d]], "a1b2c3", "#", 2), "a#b#c3")
expect.eq(re.replace([[\d]], "a1", "$$"), "a$")

expect.eq(re.split([[\s*,\s*]], "a , b,c"), {"a", "b", "c"})
expect.eq(re.split(",", "a,b,c", 2), {"a", "b,c"})

expect.eq(re.escape("a.b*c"), [[a\.b\*c]])
expect.eq(re.match("^" .. re.escape("1+1=2") .. "$", "1+1=2"), true)

-- A padded text takes the interruptible search, which continues past the
-- first position with a second pattern: an unclosed \Q must quote there
-- too, not swallow the parenthesis that pattern adds.
local padded = string.rep("x ", 75000) .. "git push --force"
expect.eq(re.match([[\Qgit push --force]], padded), true)
expect.eq(re.find([[(?i)\QGIT PUSH]], padded), "git push")
local quoted = string.rep("a.b)( ", 600)
expect.eq(#re.find_all([[\Qa.b)(]], quoted), 600)
expect.eq(#re.split([[\Q)(]], quoted), 601)
expect.eq(re.replace([[\Qa.b)(]], quoted, "c"), string.rep("c ", 600))

-- errors
expect.fails(function() return re.match("a(b", "x") end, "bad pattern `a(b`: missing closing )")
expect.fails(function() return re.match("foo(?!bar)", "x") end, "no lookahead")
expect.fails(function() return re.match(string.rep("a", 5000), "x") end, "longer than 4096")
expect.fails(function() return re.match("a") end, "argument 2 (text)")
expect.fails(function() return re.match(1, "x") end, "argument 1 (pattern): want string")
expect.fails(function() return re.find_all("a", "a", "2") end, "argument 3 (n): want integer")
expect.fails(function() return re.replace("a", "a") end, "argument 3 (repl)")
expect.fails(function() return re.escape({}) end, "argument 1 (text)")
