---@meta json
-- Lets require("json") resolve to the json class of hookhost.lua.

---@type json
local json

return json
