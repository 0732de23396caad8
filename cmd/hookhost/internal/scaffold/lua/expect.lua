---@meta expect
-- Lets require("expect") resolve to the expect class of hookhost.lua.

---@type expect
local expect

return expect
