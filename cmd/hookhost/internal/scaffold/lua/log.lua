---@meta log
-- Lets require("log") resolve to the log class of hookhost.lua.

---@type log
local log

return log
