---@meta setting
-- Lets require("setting") resolve to the setting class of hookhost.lua.

---@type setting
local setting

return setting
