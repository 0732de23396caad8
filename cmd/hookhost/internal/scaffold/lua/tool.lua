---@meta tool
-- Lets require("tool") resolve to the tool class of hookhost.lua.

---@type tool
local tool

return tool
