---@meta shell
-- Lets require("shell") resolve to the shell class of hookhost.lua.

---@type shell
local shell

return shell
