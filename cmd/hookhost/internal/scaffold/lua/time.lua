---@meta time
-- Lets require("time") resolve to the time class of hookhost.lua.

---@type time
local time

return time
