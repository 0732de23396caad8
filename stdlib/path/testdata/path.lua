-- Script tests for the path module.
local path = require("path")
local expect = require("expect")

expect.eq(path.clean("/a//b/./c/../d/"), "/a/b/d")
expect.eq(path.clean(""), ".")
expect.eq(path.base("/a/b.txt"), "b.txt")
expect.eq(path.dir("/a/b.txt"), "/a")
expect.eq(path.ext("backup.tar.gz"), ".gz")

expect.eq(path.join("a", "b"), "a/b")
expect.eq(path.join("/ws", "src", "..", "lib", "x.lua"), "/ws/lib/x.lua")
expect.eq(path.join("/ws", "/etc"), "/ws/etc")   -- use abs for paths an agent gave
expect.eq(path.join(unpack({"a", "b", "c"})), "a/b/c")
expect.fails(function() return path.join("a") end, "argument 2 (elem2)")
expect.fails(function() return path.join("a", nil, "c") end, "argument 2 (elem2)")

expect.eq(path.abs("src/main.go", "/ws"), "/ws/src/main.go")
expect.eq(path.abs("/etc/passwd", "/ws"), "/etc/passwd")
expect.fails(function() return path.abs("x", "ws") end, "argument 2 (cwd): want an absolute path")

expect.eq(path.rel("/a/b", "/a/c/d"), "../c/d")
expect.eq(path.rel("/a", "/a"), ".")
expect.fails(function() return path.rel("/a", "b") end, "one is absolute")

-- is_within: lexical, relative p is taken relative to root
expect.eq(path.is_within("/ws", "/ws"), true)
expect.eq(path.is_within("/ws", "src/x.lua"), true)
expect.eq(path.is_within("/ws", "/ws/a/../../etc/passwd"), false)
expect.eq(path.is_within("/ws", "../etc"), false)
expect.eq(path.is_within("/ws", "/wsx/a"), false)
expect.fails(function() return path.is_within("ws", "a") end, "argument 1 (root): want an absolute path")
expect.fails(function() return path.is_within("/ws", "") end, "empty path")

expect.eq(path.glob("/etc/**", "/etc/ssh/sshd_config"), true)
expect.eq(path.glob("/etc/**", "/ws/../etc/passwd"), true)
expect.eq(path.glob("**/*.{pem,key}", "/home/u/certs/server.key"), true)
expect.eq(path.glob("*.pem", "certs/server.pem"), false)
expect.fails(function() return path.glob("[a", "a") end, "bad pattern")

expect.eq(path.expand_home("~/.ssh/id_rsa", "/home/u"), "/home/u/.ssh/id_rsa")
expect.eq(path.expand_home("~", "/home/u"), "/home/u")
expect.eq(path.expand_home("~root/x", "/home/u"), "~root/x")
expect.fails(function() return path.expand_home("~/x", "") end, "argument 2 (home)")

-- bad arguments
expect.fails(function() return path.clean(42) end, "argument 1 (p): want string")
expect.fails(function() return path.base() end, "argument 1 (p)")
expect.fails(function() return path.glob("*", {}) end, "argument 2 (p): want string")

-- windows: a path as Windows reads it, with slashes
expect.eq(path.windows([[C:\Users\dev\.claude\settings.json.]]), "C:/Users/dev/.claude/settings.json")
expect.eq(path.windows([[\\?\C:\Windows]]), "C:/Windows")
expect.eq(path.windows([[\\localhost\C$\Windows]]), "C:/Windows")
expect.eq(path.windows(".env::$DATA"), ".env")
expect.eq(path.windows("..\\x"), "../x")
expect.eq(path.windows("SETTIN~1.JSO"), "SETTIN~1.JSO")
