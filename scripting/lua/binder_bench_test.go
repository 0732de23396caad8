package lua

import (
	"fmt"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting/benchcpu"
)

// BenchmarkBindingViews compares, for one argument table of width fields
// of which the hook reads one, a fresh conversion and the binder's
// recycled eager table with a lazy read-only view — an empty table whose __index converts the field
// asked for — which is what "convert only the fields a hook reads" would
// cost in gopher-lua. The view is built here only to be measured: the
// engine does not use it (a view breaks pairs, # and next, which see the
// empty table, and costs a Go call on every read).
func BenchmarkBindingViews(b *testing.B) {
	for _, width := range []int{1, 8, 40} {
		m := map[string]any{"command": "ls -la"}
		for i := 1; i < width; i++ {
			m[fmt.Sprintf("field%02d", i)] = fmt.Sprintf("value %d", i)
		}
		const src = `return function(t) return t.command end`
		b.Run(fmt.Sprintf("fresh/%d", width), func(b *testing.B) {
			L, fn := viewState(b, src)
			defer benchcpu.PerOp(b)()
			b.ReportAllocs()
			for b.Loop() {
				t, err := toLua(L, m, budget{})
				if err != nil {
					b.Fatal(err)
				}
				callView(b, L, fn, t)
			}
		})
		b.Run(fmt.Sprintf("recycled/%d", width), func(b *testing.B) {
			L, fn := viewState(b, src)
			st := &state{L: L, prog: &program{}}
			var a boundArg
			defer benchcpu.PerOp(b)()
			b.ReportAllocs()
			for b.Loop() {
				t, err := st.bind(&a, m, 1, true)
				if err != nil {
					b.Fatal(err)
				}
				callView(b, L, fn, t)
			}
		})
		b.Run(fmt.Sprintf("view/%d", width), func(b *testing.B) {
			L, fn := viewState(b, src)
			var cur map[string]any
			mt := L.CreateTable(0, 1)
			mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
				lv, err := toLua(L, cur[L.CheckString(2)], budget{})
				if err != nil {
					L.RaiseError("%v", err)
				}
				L.Push(lv)
				return 1
			}))
			view := L.CreateTable(0, 0)
			view.Metatable = mt
			defer benchcpu.PerOp(b)()
			b.ReportAllocs()
			for b.Loop() {
				cur = m
				callView(b, L, fn, view)
			}
		})
	}
}

func viewState(b *testing.B, src string) (*lua.LState, lua.LValue) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	b.Cleanup(L.Close)
	if err := L.DoString(src); err != nil {
		b.Fatal(err)
	}
	fn := L.Get(-1)
	L.Pop(1)
	return L, fn
}

func callView(b *testing.B, L *lua.LState, fn, arg lua.LValue) {
	L.Push(fn)
	L.Push(arg)
	if err := L.PCall(1, 1, nil); err != nil {
		b.Fatal(err)
	}
	if L.Get(-1).String() != "ls -la" {
		b.Fatal("read", L.Get(-1))
	}
	L.Pop(1)
}
