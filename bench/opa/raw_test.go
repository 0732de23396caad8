package opa

import (
	"context"
	"testing"
	"time"

	glua "github.com/yuin/gopher-lua"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// The raw deciders run the very source the host loads, through the
// interpreter's own API with a per-call deadline done the plain way
// (context.WithTimeout + SetContext for Lua, Thread.Cancel on a timer for
// Starlark), and a hook module that only records the function and builds
// the deny value: the floor a hook engine can approach.

const rawLuaPrelude = `hook = {
  on = function(event, fn) H = fn end,
  deny = function(reason) return { action = "deny", reason = reason } end,
}`

func rawLuaDecider(tb testing.TB, src string) decider {
	L := glua.NewState()
	tb.Cleanup(L.Close)
	if err := L.DoString(rawLuaPrelude); err != nil {
		tb.Fatal(err)
	}
	if err := L.DoString(src); err != nil {
		tb.Fatal(err)
	}
	fn := L.GetGlobal("H").(*glua.LFunction)
	return func(ctx context.Context, in map[string]any) (bool, string) {
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		L.SetContext(ctx)
		params := L.CreateTable(0, 1)
		params.RawSetString("command", glua.LString(in["params"].(map[string]any)["command"].(string)))
		L.Push(fn)
		L.Push(glua.LString(in["tool_name"].(string)))
		L.Push(params)
		if err := L.PCall(2, 1, nil); err != nil {
			tb.Fatal(err)
		}
		ret := L.Get(-1)
		L.Pop(1)
		t, ok := ret.(*glua.LTable)
		if !ok {
			return false, ""
		}
		return t.RawGetString("action").String() == "deny", t.RawGetString("reason").String()
	}
}

func rawStarDecider(tb testing.TB, src string) decider {
	var fn starlark.Value
	on := starlark.NewBuiltin("on", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		fn = args[1]
		return starlark.None, nil
	})
	deny := starlark.NewBuiltin("deny", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		d := starlark.NewDict(2)
		_ = d.SetKey(starlark.String("action"), starlark.String("deny"))
		_ = d.SetKey(starlark.String("reason"), args[0])
		return d, nil
	})
	hook := starlarkstruct.FromStringDict(starlark.String("hook"), starlark.StringDict{"on": on, "deny": deny})
	globals, err := starlark.ExecFileOptions(&syntax.FileOptions{}, &starlark.Thread{}, "guard.star", src, starlark.StringDict{"hook": hook})
	if err != nil {
		tb.Fatal(err)
	}
	globals.Freeze()
	return func(_ context.Context, in map[string]any) (bool, string) {
		thread := &starlark.Thread{}
		timer := time.AfterFunc(time.Second, func() { thread.Cancel("timeout") })
		defer timer.Stop()
		params := starlark.NewDict(1)
		_ = params.SetKey(starlark.String("command"), starlark.String(in["params"].(map[string]any)["command"].(string)))
		ret, err := starlark.Call(thread, fn, starlark.Tuple{starlark.String(in["tool_name"].(string)), params}, nil)
		if err != nil {
			tb.Fatal(err)
		}
		d, ok := ret.(*starlark.Dict)
		if !ok {
			return false, ""
		}
		action, _, _ := d.Get(starlark.String("action"))
		reason, _, _ := d.Get(starlark.String("reason"))
		return action == starlark.String("deny"), string(reason.(starlark.String))
	}
}
