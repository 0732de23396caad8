---@meta re
-- Lets require("re") resolve to the re class of hookhost.lua.

---@type re
local re

return re
