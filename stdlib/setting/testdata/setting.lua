-- Script tests for the setting module.
local setting = require("setting")
local expect = require("expect")

local THEMES = { "disks", "kernel_modules" }

-- nothing set, or an empty map: no verdicts
expect.eq(next(setting.verdicts(nil, THEMES)), nil)
expect.eq(next(setting.verdicts({}, THEMES)), nil)

-- a good setting comes back as it is
local v = setting.verdicts({ disks = "ask", kernel_modules = "allow" }, THEMES, "theme")
expect.eq(v.disks, "ask")
expect.eq(v.kernel_modules, "allow")

-- what cannot be used is an error naming the key and the choices
expect.fails(function() return setting.verdicts({ kernal = "ask" }, THEMES, "theme") end,
  'unknown theme "kernal" (themes: disks, kernel_modules)')
expect.fails(function() return setting.verdicts({ disks = "maybe" }, THEMES) end,
  'disks: want deny, ask or allow, got "maybe"')
expect.fails(function() return setting.verdicts({ disks = 1 }, THEMES) end, "got int")
expect.fails(function() return setting.verdicts("deny", THEMES, "theme") end,
  "want a map of theme to deny, ask or allow, got string")
expect.fails(function() return setting.verdicts({}, nil) end, "argument 2 (names)")
expect.fails(function() return setting.verdicts({}, { 1 }) end, "entry 1 is int")
