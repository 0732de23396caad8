package host

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Sessions share nothing: fires for session A and then session B, many
// at once so that every pooled interpreter serves both, find nothing of
// each other — not through globals, library or module tables, upvalues,
// replaced builtins, module-level values, or the payload's own tables
// (which an interpreter may recycle for its next call) — in process or
// isolated. Each fire's "find" hook denies naming what it found; its
// "stash" hook then tries every way to leave its own token behind, and
// every third fire's "find" writes into its payload tables too.

const leakyLua = `
local json = require("json")
local cache, last = {}, nil
local nested = { inner = {} }

hook.on("tool.execute.pre", function(session_id, token, req, write)
  local found = {}
  local function add(where, v) if v ~= nil and v ~= token then found[#found + 1] = where .. "=" .. tostring(v) end end
  for k, v in pairs(req) do if k ~= "token" and k ~= "list" then add("req." .. tostring(k), v) end end
  add("req.token", req.token)
  if #req.list ~= 1 then add("req.list", table.concat(req.list, ",")) end
  add("req.list[1]", req.list[1])
  if getmetatable(req) ~= nil then add("req's metatable", "set") end
  if write then -- the payload's tables are recycled: try to leave this token in them
    pcall(function() req.leak = token end)
    pcall(function() table.insert(req.list, token) end)
    pcall(function() setmetatable(req, { __index = { leak = token } }) end)
  end
  add("global", rawget(_G, "leaked_global"))
  add("cache", cache[1])
  add("nested", nested.inner.token)
  add("string", rawget(string, "leak"))
  add("json", rawget(json, "leak"))
  add("hook", rawget(hook, "leak"))
  add("upvalue", last)
  if string.find("abc", "b", 1, true) ~= 2 then found[#found + 1] = "string.find replaced" end
  if #found > 0 then return hook.deny(session_id .. " found " .. table.concat(found, ", ")) end
end, { name = "find", priority = 10 })

hook.on("tool.execute.pre", function(session_id, token)
  pcall(function() leaked_global = token end)
  pcall(function() rawset(_G, "leaked_global", token) end)
  pcall(function() cache[1] = token end)
  pcall(function() nested.inner.token = token end)
  pcall(function() string.leak = token end)
  pcall(function() json.leak = token end)
  pcall(function() hook.leak = token end)
  pcall(function() string.find = function() return token end end)
  last = token
end, { name = "stash" })
`

const leakyStar = `
load("json", "json")
cache = []
nested = {"inner": {}}

def find(session_id, token, req):
    found = [v for v in cache + nested["inner"].values() if v != token]
    if req != {"token": token, "list": [token]}:
        found.append("req=" + str(req))
    if found:
        return hook.deny(session_id + " found " + ", ".join(found))

def stash(token, req):
    # the payload's values are the call's own; each of the others fails
    # (module values are frozen), and the first ends the call
    req["leak"] = token
    req["list"].append(token)
    cache.append(token)
    nested["inner"]["token"] = token

hook.on("tool.execute.pre", find, priority = 10)
hook.on("tool.execute.pre", stash)
`

func TestSessionsShareNothing(t *testing.T) {
	for _, iso := range []Isolation{InProcess, ProcessIsolation} {
		for file, code := range map[string]string{"leaky.lua": leakyLua, "leaky.star": leakyStar} {
			t.Run(string(iso)+"/"+file, func(t *testing.T) {
				h := newTestHost(t, map[string]string{file: code},
					Options{Config: &Config{Defaults: Defaults{Isolation: iso}}, WorkerExecutable: testWorker})
				fireSessions(t, h, 8, 40)
			})
		}
	}
}

// fireSessions fires, from each of workers goroutines, rounds pairs of
// fires (session A, then session B) and fails on any leak.
func fireSessions(t *testing.T, h *Host, workers, rounds int) {
	var wg sync.WaitGroup
	errs := make(chan string, workers*rounds*2)
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				for _, s := range []string{"A", "B"} {
					token := fmt.Sprintf("secret-%s-%d-%d", s, w, r)
					req := map[string]any{"token": token, "list": []any{token}}
					res, err := h.Fire(context.Background(), "tool.execute.pre",
						map[string]any{"session_id": s, "token": token, "req": req, "write": r%3 == 0})
					switch {
					case err != nil:
						errs <- err.Error()
					case res.Decision.Action == Deny:
						errs <- res.Decision.Reason
					case res.Trace[0].Outcome == OutcomeError:
						errs <- "find failed: " + res.Trace[0].Error
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	var leaks []string
	for e := range errs {
		leaks = append(leaks, e)
	}
	if len(leaks) > 0 {
		t.Fatalf("%d of %d fires saw another session's data, e.g.:\n%s", len(leaks), workers*rounds*2, strings.Join(leaks[:min(5, len(leaks))], "\n"))
	}
}
