package lua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// recycleFile reports, through hook.respond, everything a call can see of
// its arguments, and then tries — as mode says — to leave its token
// behind in them for the next call on the same interpreter.
const recycleFile = `
hook.on("e", function(params, list, ctx, mode, token)
  local seen = hook.respond({
    params = params, list = list, config = ctx.config,
    params_mt = getmetatable(params) ~= nil, list_mt = getmetatable(list) ~= nil,
    leak = params.leak, nested_leak = params.nested.leak, ctx_leak = rawget(ctx, "leak"),
    config_leak = ctx.config.leak, id = tostring(params),
  })
  if mode == "assign" then params.leak = token end
  if mode == "nested" then params.nested.leak = token end
  if mode == "overwrite" then params.command = token end
  if mode == "rawset" then rawset(params, "leak", token) end
  if mode == "metatable" then setmetatable(params, { __index = { leak = token } }) end
  if mode == "nested-metatable" then setmetatable(params.nested, { __index = { leak = token } }) end
  if mode == "insert" then table.insert(list, token) end
  if mode == "remove" then table.remove(list) end
  if mode == "sort" then table.sort(list, function(a, b) return a > b end) end
  if mode == "swap" then params.nested, params.other = params.other, params.nested end
  if mode == "method" then function params.nested:leak() return token end end
  if mode == "ctx" then rawset(ctx, "leak", token) end
  if mode == "config" then ctx.config.leak = token end
  if mode == "error" then params.leak = token; error("fails after writing") end
  return seen
end, { name = "probe" })

hook.on("e2", function(params) return hook.respond({ params = params, id = tostring(params) }) end, { name = "other" })
`

var recycleModes = []string{"none", "assign", "none", "nested", "overwrite", "none", "rawset", "metatable", "none",
	"nested-metatable", "insert", "none", "remove", "sort", "swap", "none", "method", "ctx", "config", "error", "none"}

// TestRecycledArgumentsNeverSeen calls one interpreter over and over with
// the payloads of two sessions, each call trying one way of writing into
// its arguments, and some payloads of another shape; every call must see
// exactly its own payload. It also checks that the arguments are indeed
// recycled when nothing wrote to them, so the test covers the recycling.
func TestRecycledArgumentsNeverSeen(t *testing.T) {
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "recycle.lua", Code: []byte(recycleFile)},
		&scripting.Env{Limits: scripting.Limits{MaxIdle: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	probe, other := p.Hooks()[0].Func, p.Hooks()[1].Func
	lastID, reused := "", 0
	for i := range 300 {
		session := []string{"A", "B"}[i%2]
		token := fmt.Sprintf("secret-%s-%d", session, i)
		params := map[string]any{"command": "ls " + session, "nested": map[string]any{"k": token}, "other": map[string]any{"k": "o"}}
		list := []any{"a", token, "c"}
		switch {
		case i%7 == 3:
			params["extra"] = token // another shape
		case i%11 == 5:
			list = append(list, "d")
		case i%13 == 6:
			params["nested"] = "a string where a table was"
		case i%17 == 8:
			params["other"] = nil
		}
		config := map[string]any{"limit": int64(i % 3)}
		mode := recycleModes[i%len(recycleModes)]
		if _, ok := params["nested"].(string); ok {
			mode = "none" // the writes into params.nested would fail
		}
		c := &scripting.Call{Payload: map[string]any{"params": params, "list": list, "mode": mode, "token": token},
			Event: "e", Hook: "recycle.lua:probe", Config: config, Timeout: time.Second, Deadline: time.Now().Add(time.Second)}
		out, err := probe.Call(c)
		if mode == "error" {
			if err == nil {
				t.Fatalf("call %d: the failing hook did not fail", i)
			}
			lastID = ""
			continue
		}
		if err != nil {
			t.Fatalf("call %d (%s): %v", i, mode, err)
		}
		seen := scripting.AsNeutral(out).(map[string]any)["result"].(map[string]any)
		// leak, nested_leak, ctx_leak and config_leak must be nil: no key
		want := map[string]any{"params": dropNil(params), "list": list, "config": config, "params_mt": false, "list_mt": false, "id": seen["id"]}
		if !stdlib.Equal(seen, want) {
			t.Fatalf("call %d (%s, session %s) saw\n%s\nwant\n%s", i, mode, session, scripting.Show(seen), scripting.Show(want))
		}
		if seen["id"] == lastID {
			reused++
		}
		lastID = seen["id"].(string)
		if i%10 == 9 { // another hook of the file on the same interpreter
			o, err := other.Call(&scripting.Call{Payload: map[string]any{"params": map[string]any{"only": session}}, Event: "e2",
				Hook: "recycle.lua:other", Config: map[string]any{}, Timeout: time.Second, Deadline: time.Now().Add(time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			if got := scripting.AsNeutral(o).(map[string]any)["result"].(map[string]any)["params"]; !stdlib.Equal(got, map[string]any{"only": session}) {
				t.Fatalf("the other hook saw %s", scripting.Show(got))
			}
		}
	}
	if reused < 20 {
		t.Errorf("the arguments were recycled %d times in 300 calls: the test no longer covers recycling", reused)
	}
}

func dropNil(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// FuzzRecycledArguments binds two JSON values, one after the other, to
// the same argument of one interpreter: what the second binding gives the
// script must be what a fresh conversion gives, and it must be charged no
// less.
func FuzzRecycledArguments(f *testing.F) {
	f.Add(`{"a": "x", "b": [1, 2, {"c": null}]}`, `{"a": "y", "b": [3, 4, {"c": true}]}`)
	f.Add(`{"a": "x", "b": [1, 2]}`, `{"a": "x", "b": [1, 2, 3]}`)
	f.Add(`{"a": {"b": {}}}`, `{"a": {"b": []}}`)
	f.Add(`{"a": 1, "b": null}`, `{"a": 1, "b": 2}`)
	f.Add(`[1, null, 3]`, `[null, 2, null]`)
	f.Add(`{"a": {"x": 1}}`, `{"a": "x"}`)
	f.Add(`"s"`, `{"s": "s"}`)
	f.Add(`-0.0`, `0`)
	f.Fuzz(func(t *testing.T, first, second string) {
		var v1, v2 any
		if json.Unmarshal([]byte(first), &v1) != nil || json.Unmarshal([]byte(second), &v2) != nil {
			return
		}
		if stdlib.Check(v1) != nil || stdlib.Check(v2) != nil {
			return
		}
		L := lua.NewState(lua.Options{SkipOpenLibs: true})
		defer L.Close()
		st := &state{L: L}
		var a boundArg
		st.prog = &program{}
		if _, err := st.bind(&a, v1, 0, true); err != nil {
			t.Fatal(err)
		}
		rc, fc := &scripting.Call{}, &scripting.Call{}
		st.cur = rc
		got, err := st.bind(&a, v2, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := toLua(L, v2, budget{call: fc})
		if err != nil {
			t.Fatal(err)
		}
		g, err1 := toNeutral(got, v2, budget{})
		w, err2 := toNeutral(fresh, v2, budget{})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !stdlib.Equal(g, w) || luaShape(got) != luaShape(fresh) {
			t.Fatalf("after %s, binding %s gave %s (%s), a fresh conversion %s (%s)", first, second,
				scripting.Show(g), luaShape(got), scripting.Show(w), luaShape(fresh))
		}
		if rc.Charged() < fc.Charged() {
			t.Fatalf("the refill charged %d, a fresh conversion %d", rc.Charged(), fc.Charged())
		}
	})
}

// luaShape writes what a script sees of v that the conversion back cannot
// tell: metatables, and the bits of numbers (-0 is not 0).
func luaShape(v lua.LValue) string {
	switch v := v.(type) {
	case *lua.LTable:
		var parts []string
		v.ForEach(func(k, e lua.LValue) { parts = append(parts, k.String()+"="+luaShape(e)) })
		sort.Strings(parts)
		return fmt.Sprintf("{mt=%v %s}", v.Metatable != lua.LNil, strings.Join(parts, " "))
	case lua.LNumber:
		return fmt.Sprintf("%x", float64(v))
	}
	return v.Type().String()
}

// Decision wrappers are reused from call to call, never within one: each
// decision a call makes is its own value, past the pooled ones too, and
// what a call returns is its own decision.
func TestDecisionWrappersPerCall(t *testing.T) {
	src := `
local shared = hook.deny("made by the top level")
hook.on("e", function(n, pick)
  local ds = {}
  for i = 1, n do ds[i] = hook.deny("reason " .. i) end
  for i = 1, n do
    if ds[i].reason ~= "reason " .. i then error("decision " .. i .. " reads " .. ds[i].reason) end
    for j = 1, i - 1 do if rawequal(ds[i], ds[j]) then error("decisions " .. j .. " and " .. i .. " are one value") end end
  end
  if pick == 0 then return shared end
  return ds[pick]
end, { name = "h" })`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "d.lua", Code: []byte(src)}, &scripting.Env{Limits: scripting.Limits{MaxIdle: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 40 {
		n, pick := int64(1+i%12), int64(1+i%5)
		want := fmt.Sprintf("reason %d", min(pick, n))
		if i%7 == 0 {
			pick, want = 0, "made by the top level"
		}
		out, err := callWithDeadline(p.Hooks()[0].Func, map[string]any{"n": n, "pick": min(pick, n)}, resultDeadline)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if got := scripting.AsNeutral(out).(map[string]any)["reason"]; got != want {
			t.Fatalf("call %d returned the reason %v, want %q", i, got, want)
		}
	}
	st := p.(*program).pool.get()
	if st == nil {
		t.Fatal("no idle interpreter after the calls")
	}
	if len(st.decisions) != maxPooledDecisions || st.usedDecisions != 0 {
		t.Fatalf("the idle interpreter keeps %d decision wrappers with %d in use, want %d and none", len(st.decisions), st.usedDecisions, maxPooledDecisions)
	}
	for _, ud := range st.decisions {
		if ud.Value != nil {
			t.Fatal("an idle interpreter's decision wrapper still holds a decision")
		}
	}
	p.(*program).release(st)
}

// A hook's fields are checked as they are bound, refilled or not: a value
// stdlib.Check refuses fails the call with scripting.ErrNotNeutral before
// the script runs, after a good payload of the same shape too.
func TestBindingRefusesWhatIsNotNeutral(t *testing.T) {
	src := `hook.on("e", function(params, ...) return hook.respond(params.x) end, { name = "h" })`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "n.lua", Code: []byte(src)}, &scripting.Env{Limits: scripting.Limits{MaxIdle: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	deep := any("x")
	for range stdlib.MaxDepth - 1 {
		deep = []any{deep}
	}
	for _, bad := range []any{math.NaN(), math.Inf(-1), int32(1), struct{}{}, deep} {
		for _, x := range []any{float64(1), bad, []any{bad}, float64(2)} {
			payload := map[string]any{"params": map[string]any{"x": x}}
			out, err := callWithDeadline(p.Hooks()[0].Func, payload, resultDeadline)
			if stdlib.Check(payload) != nil {
				if !errors.Is(err, scripting.ErrNotNeutral) {
					t.Fatalf("x = %v: got %v, %v; want an error wrapping ErrNotNeutral", scripting.Show(x), out, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("x = %v: %v", scripting.Show(x), err)
			}
		}
	}
}

// A kept argument never holds on to more than maxKeptStrings of the
// payload's strings once its call is over: a large field is converted
// afresh next time instead of pinned by an idle interpreter.
func TestKeptArgumentsPinNoLargeString(t *testing.T) {
	src := `hook.on("e", function(file) return hook.respond(#file.content) end, { name = "h" })`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "k.lua", Code: []byte(src)}, &scripting.Env{Limits: scripting.Limits{MaxIdle: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tc := range []struct {
		size int
		kept bool
	}{{10, true}, {maxKeptStrings + 1, false}, {20, true}, {1 << 20, false}} {
		content := strings.Repeat("x", tc.size)
		out, err := callWithDeadline(p.Hooks()[0].Func, map[string]any{"file": map[string]any{"content": content}}, resultDeadline)
		if err != nil {
			t.Fatal(err)
		}
		if got := scripting.AsNeutral(out).(map[string]any)["result"]; got != int64(tc.size) {
			t.Fatalf("the hook saw %v bytes, want %d", got, tc.size)
		}
		st := p.(*program).pool.get()
		a := st.binder.hooks[0][0]
		if a.bound != tc.kept || st.binder.keptStrings > maxKeptStrings {
			t.Errorf("after a %d-byte field: kept %v (want %v), %d bytes of strings held", tc.size, a.bound, tc.kept, st.binder.keptStrings)
		}
		p.(*program).release(st)
	}
}
