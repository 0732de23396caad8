package starlark

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// The dicts a call was given are refilled for later calls on the same
// thread; whatever a call did to them — added keys, grew them past a
// bucket and emptied them again, nested a value of its own — a later call
// sees exactly its own payload, in sorted key order; a dict that holds
// just as many keys as it was given, not all of them its own, or its own
// in another order, too.
func TestReusedDictsHoldOnlyTheirCall(t *testing.T) {
	const src = `
def h(n, params, mode):
    seen = {"keys": list(params.keys()), "inner": dict(params.get("inner", {}))}
    if mode == "add":
        params["leftover"] = n
        params.get("inner", {})["leftover"] = n
    elif mode == "grow":
        for i in range(100):
            params["k%d" % i] = i
        for i in range(100):
            params.pop("k%d" % i)
        params["leftover"] = n
    elif mode == "clear":
        params.clear()
    elif mode == "swap":
        params.pop("a")
        params["leftover"] = n
    elif mode == "reorder":
        params["a"] = params.pop("a")
        params["inner"] = n
    return hook.respond(seen)

hook.on("e", h)
`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "d.star", Code: []byte(src)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	for i := range 60 {
		mode := []string{"add", "grow", "clear", "none", "swap", "reorder"}[i%6]
		params := map[string]any{fmt.Sprintf("z%d", i%3): int64(i), "a": "x", "inner": map[string]any{"only": int64(i)}}
		out, err := fn.Call(&scripting.Call{Hook: "d.star:h", Timeout: time.Second,
			Payload: map[string]any{"n": int64(i), "params": params, "mode": mode}})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"keys": []any{"a", "inner", fmt.Sprintf("z%d", i%3)}, "inner": map[string]any{"only": int64(i)}}
		if got := scripting.AsNeutral(out).(map[string]any)["result"]; !stdlib.Equal(got, want) {
			t.Fatalf("call %d (%s) saw %v, want %v", i, mode, got, want)
		}
	}
}

// A call that keeps the dicts it was given busy past recycleSteps, or
// grows one past reusedDictLen, leaves them to the collector.
func TestDictCacheKeepsOnlySmallQuietDicts(t *testing.T) {
	var dc dictCache
	small, _ := dc.dict(2)
	big, _ := dc.dict(2)
	for i := range reusedDictLen + 1 {
		_ = big.SetKey(starlark.String(fmt.Sprint(i)), starlark.String("v"))
	}
	dc.recycle(10)
	if len(dc.free) != 1 || dc.free[0] != small || small.Len() != 0 {
		t.Fatalf("after a quiet call: %d kept (want the small one, empty)", len(dc.free))
	}
	d, _ := dc.dict(1)
	if d != small {
		t.Fatal("the kept dict was not handed out again")
	}
	dc.recycle(recycleSteps + 1)
	if len(dc.free) != 0 {
		t.Fatalf("after a busy call: %d dicts kept, want none", len(dc.free))
	}
	if d, place := dc.dict(reusedDictLen + 1); d == nil || place != -1 || len(dc.used) != 0 {
		t.Fatal("a dict for a large map was tracked")
	}
}
