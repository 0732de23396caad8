package lua

import (
	"fmt"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// ipairs and type (baselib.go) give what gopher-lua's give, results and
// error messages alike.
func TestBaseReplacementsLikeGopherLua(t *testing.T) {
	snippets := []string{
		`local out = {} for i, v in ipairs({"a", "b", nil, "d"}) do out[#out+1] = i .. v end return table.concat(out, ",")`,
		`local t = {} for i = 1, 600 do t[i] = i end local s = 0 for i, v in ipairs(t) do s = s + i * v end return s`,
		`local f, t, i = ipairs({}) return type(f), type(t), i`,
		`local f = ipairs({}) return f({10, 20}, 1)`,
		`local f = ipairs({}) return select("#", f({10, 20}, 2))`,
		`return ipairs(nil)`,
		`return ipairs("x")`,
		`local f = ipairs({}) return f({}, "x")`,
		`local f = ipairs({}) return f(nil, 1)`,
		`return type(nil), type(true), type(1), type("s"), type({}), type(print), type(ipairs)`,
		`return type()`,
	}
	for _, code := range snippets {
		want := runSnippet(t, code, func(*lua.LState) {})
		got := runSnippet(t, code, func(L *lua.LState) {
			L.SetGlobal("ipairs", L.NewClosure(ipairs, L.NewFunction(ipairsStep)))
			L.SetGlobal("type", L.NewFunction(luaType))
		})
		if got != want {
			t.Errorf("%s\n got %s\nwant %s", code, got, want)
		}
	}
}

// runSnippet runs code in a state with the base and table libraries,
// patched by patch, and shows what pcall of it returned.
func runSnippet(t *testing.T, code string, patch func(*lua.LState)) string {
	t.Helper()
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	lua.OpenBase(L)
	lua.OpenTable(L)
	patch(L)
	fn, err := L.LoadString(code)
	if err != nil {
		t.Fatal(err)
	}
	top := L.GetTop()
	L.Push(L.GetGlobal("pcall"))
	L.Push(fn)
	L.Call(1, lua.MultRet)
	var out []string
	for i := top + 1; i <= L.GetTop(); i++ {
		out = append(out, fmt.Sprintf("%s:%s", L.Get(i).Type(), L.Get(i).String()))
	}
	return fmt.Sprint(out)
}
