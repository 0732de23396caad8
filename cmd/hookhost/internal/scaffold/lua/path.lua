---@meta path
-- Lets require("path") resolve to the path class of hookhost.lua.

---@type path
local path

return path
