package lua

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib/std"
)

// Clean interpreters: nothing one call does is visible to a later call on
// the same pooled interpreter, except through the state module.

// leakyFile tries every way of keeping session A's token for session B.
// Each attempt is pcall'ed so that one refused attempt does not stop the
// others; the hook then reports everything it can find.
const leakyFile = `
local json = require("json")
local cache = {}
local last = nil
local nested = { inner = {} }
local Class = {}
Class.__index = Class
local object = setmetatable({}, Class)
config = { seen = {} }
local it = ("a b c"):gmatch("%a")

local function stash(token)
  pcall(function() leaked_global = token end)
  pcall(function() _G.leaked_field = token end)
  pcall(function() rawset(_G, "leaked_raw", token) end)
  pcall(function() cache[#cache + 1] = token end)
  pcall(function() table.insert(cache, token) end)
  pcall(function() nested.inner.token = token end)
  pcall(function() config.seen[token] = true end)
  pcall(function() Class.token = token end)
  pcall(function() object.token = token end)
  pcall(function() string.leak = token end)
  pcall(function() rawset(string, "leak2", token) end)
  pcall(function() json.leak = token end)
  pcall(function() hook.leak = token end)
  pcall(function() math.pi = token end)
  pcall(function() setmetatable(cache, { __index = { token = token } }) end)
  pcall(function() function string.find() return token end end)
  pcall(function() function Class:method() return token end end)
  pcall(function() it() end)
  last = token
end

local function find(...)
  local found = {}
  local function add(where, v) if v ~= nil then found[#found + 1] = where .. "=" .. tostring(v) end end
  add("global", leaked_global)
  add("field", rawget(_G, "leaked_field"))
  add("raw", rawget(_G, "leaked_raw"))
  add("cache", cache[1])
  add("cache.token", cache.token)
  add("nested", nested.inner.token)
  for k in pairs(config.seen) do add("config", k) end
  add("class", Class.token)
  add("object", object.token)
  add("string", string.leak)
  add("string2", string.leak2)
  add("json", json.leak)
  add("hook", hook.leak)
  if math.pi ~= 3.141592653589793 then add("math.pi", math.pi) end
  if string.find("abc", "b", 1, true) ~= 2 then add("string.find", string.find("abc", "b")) end
  if Class.method then add("method", Class.method()) end
  add("upvalue", last)
  return found
end

hook.on("e", function(session, token)
  local found = find()
  stash(token)
  return hook.respond({ session = session, found = found })
end, { name = "probe" })
`

// TestNothingCrossesCalls fires sessions A and B alternately, many times,
// over every pooled interpreter (calls run concurrently, so the pool
// keeps several), and fails if any call sees a token of an earlier one.
func TestNothingCrossesCalls(t *testing.T) {
	const states = 4
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "leaky.lua", Code: []byte(leakyFile)},
		&scripting.Env{Modules: std.Modules(std.Options{}), Limits: scripting.Limits{MaxIdle: states}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	fillPool(t, p.(*program), states)
	fn := p.Hooks()[0].Func
	var wg sync.WaitGroup
	for g := range states {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				session := []string{"A", "B"}[(g+i)%2]
				token := fmt.Sprintf("Bearer %s-%d-%d", session, g, i)
				c := &scripting.Call{Payload: map[string]any{"session": session, "token": token}, Event: "e",
					Hook: "leaky.lua:probe", Config: map[string]any{}, Timeout: time.Second, Deadline: time.Now().Add(time.Second)}
				out, err := fn.Call(c)
				if err != nil {
					t.Error(err)
					return
				}
				if found, ok := scripting.AsNeutral(out).(map[string]any)["result"].(map[string]any)["found"].([]any); ok {
					t.Errorf("call %d of goroutine %d found what an earlier call left: %v", i, g, found)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := idleStates(p); n < 2 {
		t.Errorf("the pool kept %d interpreters, want several (the test must cover more than one)", n)
	}
}

// fillPool makes the pool hold n interpreters, so calls use all of them.
func fillPool(t *testing.T, p *program, n int) {
	var sts []*state
	for range n {
		st, err := p.acquire()
		if err != nil {
			t.Fatal(err)
		}
		sts = append(sts, st)
	}
	for _, st := range sts {
		p.release(st)
	}
}

func idleStates(p scripting.Program) int {
	n := 0
	for i := range p.(*program).pool.slots {
		if p.(*program).pool.slots[i].st.Load() != nil {
			n++
		}
	}
	return n
}

// The refusals name what was refused and say what to do instead; what a
// call builds for itself stays writable.
func TestFrozenErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"global", `x = 1`, `cannot set global "x" during a hook call`},
		{"module-level table", `T.k = 1`, "cannot change a table of the file's top level"},
		{"library", `string.find = nil`, "cannot change a table of the file's top level"},
		{"rawset", `rawset(T, "k", 1)`, "cannot change a table of the file's top level"},
		{"table.insert", `table.insert(T, 1)`, "cannot change a table of the file's top level"},
		{"table.sort", `table.sort(T)`, "cannot change a table of the file's top level"},
		{"setmetatable", `setmetatable(T, {})`, "cannot change a table of the file's top level"},
		{"method definition", `function T:m() end`, "cannot change a table of the file's top level"},
		{"own tables are fine", `local t = {} t.k = 1 t[2] = 2 table.insert(t, 3) return hook.respond(t.k + #t)`, ""},
		{"multiple assignment", `local t = {} local a; a, t.x, t[1] = 1, 2, 3 return hook.respond(a + t.x + t[1])`, ""},
		{"swap through fields", `local t = {1, 2} t[1], t[2] = t[2], t[1] return hook.respond(t[1] * 10 + t[2])`, ""},
		{"upvalue changes last for the call", `count = 1`, `cannot set global "count"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "T = {}\nhook.on(\"e\", function()\n" + tc.body + "\nend, { name = \"h\" })\n"
			p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "f.lua", Code: []byte(src)}, &scripting.Env{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			_, err = callWithDeadline(p.Hooks()[0].Func, map[string]any{}, resultDeadline)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			case tc.want != "" && !strings.HasPrefix(err.Error(), "f.lua:3: "):
				t.Errorf("error %q does not name the line", err)
			}
			var se *scripting.Error
			if errors.As(err, &se) && (se.Backtrace == "" || strings.Contains(se.Backtrace, "hookhost.")) {
				t.Errorf("backtrace %q: want the script's frames only", se.Backtrace)
			}
		})
	}
}

// A module-level local a hook reassigns is back to its value after the
// top level when the next call starts; within the call it changes.
func TestUpvaluesReset(t *testing.T) {
	src := `
local n = 0
local function bump() n = n + 1 return n end
hook.on("e", function() bump() return hook.respond(bump()) end, { name = "h" })`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "u.lua", Code: []byte(src)}, &scripting.Env{Limits: scripting.Limits{MaxIdle: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 3 {
		out, err := callWithDeadline(p.Hooks()[0].Func, map[string]any{}, resultDeadline)
		if err != nil {
			t.Fatal(err)
		}
		if got := scripting.AsNeutral(out).(map[string]any)["result"]; got != int64(2) {
			t.Fatalf("call %d: got %v, want 2", i, got)
		}
	}
}

// gopher-lua never shrinks an interpreter's value stack: one that a call
// grew past its starting size (a big unpack) is closed, not pooled.
func TestGrownStateNotPooled(t *testing.T) {
	src := `hook.on("e", function(n) return hook.respond(select("#", unpack({}, 1, n))) end, { name = "h" })`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "g.lua", Code: []byte(src)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tc := range []struct {
		n    int64
		idle int
	}{{10, 1}, {60000, 0}} {
		fillPool(t, p.(*program), 1)
		if _, err := callWithDeadline(p.Hooks()[0].Func, map[string]any{"n": tc.n}, resultDeadline); err != nil {
			t.Fatal(err)
		}
		if got := idleStates(p); got != tc.idle {
			t.Errorf("after unpacking %d values: %d idle interpreters, want %d", tc.n, got, tc.idle)
		}
		p.(*program).pool.drain()
	}
}
