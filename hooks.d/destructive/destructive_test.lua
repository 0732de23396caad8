-- Script tests of destructive.lua for lines a table case cannot hold:
-- a command over the shell parser's 16 KiB limit. Run them with
-- `hookhost test hooks.d`.
local expect = require("expect")

local function bash(command)
  return hook.fire("tool.execute.pre", {
    tool_name = "Bash", params = { command = command }, cwd = "/work/project",
  })
end

-- A long here-document is legitimate: over the limit the packs ask, saying
-- why, and never deny for the length alone.
function test_a_line_over_the_limit_asks()
  local body = string.rep("a line of release notes\n", 800)
  local r = bash("cat > NOTES.md <<'EOF'\n" .. body .. "EOF")
  expect.action(r, "ask")
  expect.reason_contains(r, "more than the 16384 the shell parser reads")
  -- even a destructive command in it is asked about, not denied: nothing
  -- past the limit is read
  r = bash("rm -rf / # " .. body)
  expect.action(r, "ask")
end

-- Just under the limit the line is read and judged.
function test_a_line_under_the_limit_is_judged()
  local r = bash("rm -rf / # " .. string.rep("x", 16000))
  expect.action(r, "deny")
end

-- A line that does not parse is read in the parts that do: a destructive
-- part is denied, and the rest asks, saying why.
function test_a_line_that_does_not_parse()
  local r = bash("echo \\$(date); rm -rf ~")
  expect.action(r, "deny")
  expect.reason_contains(r, "does not parse as a whole")
  r = bash("echo \\$(cat .env)")
  expect.action(r, "ask")
  expect.reason_contains(r, "could not be checked")
  r = bash("make (( && git reset --hard")
  expect.action(r, "ask")
end

-- The reason names what the parser found, not where in the pack it was
-- called.
function test_a_parse_error_names_the_parser_s_message()
  local r = bash("cat <<'EOF'\nno end")
  expect.action(r, "ask")
  expect.reason_contains(r, "it does not parse: ")
  expect.reason_contains(r, "here-document")
  if r.reason:find(".lua:", 1, true) then error("the reason names the pack's source: " .. r.reason) end
end
