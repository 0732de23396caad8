---@meta state
-- Lets require("state") resolve to the state class of hookhost.lua.

---@type state
local state

return state
