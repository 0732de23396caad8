package starlark

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// dictAdversarySrc reports exactly what its payload looks like on entry,
// then, by mode, does what it can to make the emptying of a reused dict
// leave something behind: keep the count of entries while changing which
// keys they are, change every value, grow and shrink the table, return
// from inside a loop over the dict, nest the dict in itself or in the
// inner one, fail, or return something that cannot be converted.
const dictAdversarySrc = `
def snapshot(params):
    return {"keys": list(params.keys()), "values": [params[k] for k in params.keys() if type(params[k]) != "dict"],
            "inner": {k: list(params[k].items()) for k in params.keys() if type(params[k]) == "dict"}}

def h(n, params, mode):
    seen = snapshot(params)
    keys = list(params.keys())
    if mode == "same-count-other-keys":
        for k in keys:
            params.pop(k)
        for i in range(len(keys)):
            params["other%d" % i] = "left by %d" % n
    elif mode == "drop-first":
        if keys:
            params.pop(keys[0])
        params["zzz"] = "left by %d" % n
    elif mode == "drop-last":
        if keys:
            params.pop(keys[-1])
        params["aaa"] = "left by %d" % n
    elif mode == "new-values":
        for k in keys:
            params[k] = "left by %d" % n
    elif mode == "grow-shrink":
        for i in range(64):
            params["g%d" % i] = i
        for i in range(64):
            params.pop("g%d" % i)
    elif mode == "loop-return":
        for k in params:
            return hook.respond(seen)  # returns while the dict is being iterated
    elif mode == "self":
        if keys:
            params[keys[0]] = params
    elif mode == "into-inner":
        for k in keys:
            if type(params[k]) == "dict":
                params[k]["back"] = params
                params[k]["left"] = "left by %d" % n
    elif mode == "inner-swap":
        for k in keys:
            if type(params[k]) == "dict":
                inner = params[k]
                for j in list(inner.keys()):
                    inner.pop(j)
                    inner["x" + j] = "left by %d" % n
    elif mode == "fail":
        params["left"] = n
        fail("on purpose")
    elif mode == "bad-return":
        return hook.respond({"f": lambda: params})
    return hook.respond(seen)

hook.on("e", h)
`

// adversaryPayload is call i's params: 0 to 10 keys (9 and 10 are more
// than a reused dict holds), some of them maps of their own, every value
// naming the call.
func adversaryPayload(i int) map[string]any {
	params := map[string]any{}
	for k := range i % 11 {
		key := fmt.Sprintf("k%02d", (k*7+i)%13)
		if k%4 == 1 {
			params[key] = map[string]any{"v": fmt.Sprintf("inner of %d", i), fmt.Sprintf("w%d", i%3): int64(i)}
		} else {
			params[key] = fmt.Sprintf("value of %d", i)
		}
	}
	return params
}

// snapshotOf is what snapshot(params) gives for a payload: keys sorted.
func snapshotOf(params map[string]any) map[string]any {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ks, values, inner := []any{}, []any{}, map[string]any{}
	for _, k := range keys {
		ks = append(ks, k)
		if m, ok := params[k].(map[string]any); ok {
			iks := make([]string, 0, len(m))
			for ik := range m {
				iks = append(iks, ik)
			}
			slices.Sort(iks)
			items := []any{}
			for _, ik := range iks {
				items = append(items, []any{ik, m[ik]})
			}
			inner[k] = items
			continue
		}
		values = append(values, params[k])
	}
	return map[string]any{"keys": ks, "values": values, "inner": inner}
}

// Whatever a call does to the dicts it was given, and however it ends,
// the next call on the same thread sees exactly its own payload, in
// sorted key order, and nothing any earlier call put there; bindings
// that fail halfway (a NaN at the end of a map) leave nothing behind
// either.
func TestReusedDictsResistTheirCall(t *testing.T) {
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "a.star", Code: []byte(dictAdversarySrc)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	modes := []string{"none", "same-count-other-keys", "drop-first", "drop-last", "new-values", "grow-shrink", "loop-return",
		"self", "into-inner", "inner-swap", "fail", "bad-return", "bad-binding"}
	for i := range 600 {
		mode := modes[i%len(modes)]
		params := adversaryPayload(i)
		if mode == "bad-binding" {
			params["zz"] = math.NaN() // sorted last: the other keys are bound first
			params["k00"] = map[string]any{"a": "bound", "b": math.Inf(1)}
		}
		out, err := fn.Call(&scripting.Call{Hook: "a.star:h", Timeout: 5 * time.Second,
			Payload: map[string]any{"n": int64(i), "params": params, "mode": mode}})
		switch mode {
		case "fail", "bad-return", "bad-binding":
			if err == nil {
				t.Fatalf("call %d (%s): want an error", i, mode)
			}
			continue
		case "self":
			if err != nil && !strings.Contains(err.Error(), "cycle") {
				t.Fatalf("call %d (%s): %v", i, mode, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("call %d (%s): %v", i, mode, err)
		}
		want := snapshotOf(params)
		if got := scripting.AsNeutral(out).(map[string]any)["result"]; !stdlib.Equal(got, want) {
			t.Fatalf("call %d (%s) saw\n  %v\nwant\n  %v", i, mode, got, want)
		}
	}
}

// The deletion path itself, without the pool between calls: a dict whose
// count of entries matches what the binding put, but not its keys, is
// still emptied whole; one left as it was given is emptied and handed
// out again; a binding that failed after some keys is emptied too.
func TestDictCacheEmptiesWhatTheScriptChanged(t *testing.T) {
	limits := scripting.Limits{}.Or()
	bind := func(dc *dictCache, v map[string]any) (*starlark.Dict, error) {
		m := meterFor(&scripting.Call{}, &limits)
		var sc stringCache
		var kc keyCache
		m.dicts, m.strings, m.keys = dc, &sc, &kc
		d, err := m.bindField(v)
		if err != nil {
			return nil, err
		}
		return d.(*starlark.Dict), nil
	}
	str := func(s string) starlark.Value { return starlark.String(s) }
	for _, tc := range []struct {
		name   string
		change func(d *starlark.Dict)
	}{
		{"untouched", func(*starlark.Dict) {}},
		{"other keys, same count", func(d *starlark.Dict) {
			_, _, _ = d.Delete(str("a"))
			_, _, _ = d.Delete(str("b"))
			_ = d.SetKey(str("x"), str("left"))
			_ = d.SetKey(str("y"), str("left"))
		}},
		{"last key swapped", func(d *starlark.Dict) {
			_, _, _ = d.Delete(str("b"))
			_ = d.SetKey(str("x"), str("left"))
		}},
		{"first key swapped", func(d *starlark.Dict) {
			_, _, _ = d.Delete(str("a"))
			_ = d.SetKey(str("x"), str("left"))
		}},
		{"int key for a string one", func(d *starlark.Dict) {
			_, _, _ = d.Delete(str("b"))
			_ = d.SetKey(starlark.MakeInt(1), str("left"))
		}},
		{"values replaced", func(d *starlark.Dict) {
			_ = d.SetKey(str("a"), str("left"))
			_ = d.SetKey(str("b"), str("left"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dc dictCache
			d, err := bind(&dc, map[string]any{"a": "1", "b": "2"})
			if err != nil {
				t.Fatal(err)
			}
			tc.change(d)
			dc.recycle(0)
			if len(dc.free) != 1 || dc.free[0] != d || d.Len() != 0 {
				t.Fatalf("after the call: %d kept, len %d (want the dict, empty)", len(dc.free), d.Len())
			}
			again, err := bind(&dc, map[string]any{"c": "3", "a": "4"})
			if err != nil {
				t.Fatal(err)
			}
			if again != d || again.String() != `{"a": "4", "c": "3"}` {
				t.Fatalf("the next call got %v (same dict: %v), want {\"a\": \"4\", \"c\": \"3\"}", again, again == d)
			}
		})
	}
	t.Run("a binding that failed halfway", func(t *testing.T) {
		var dc dictCache
		if _, err := bind(&dc, map[string]any{"a": "1", "b": "2", "c": math.NaN()}); err == nil {
			t.Fatal("want a binding error")
		}
		if len(dc.used) != 1 || dc.used[0].n != 2 || dc.used[0].d.Len() != 2 {
			t.Fatalf("the half-bound dict is not tracked with its two keys: %+v", dc.used)
		}
		half := dc.used[0].d
		dc.recycle(0)
		if len(dc.free) != 1 || half.Len() != 0 {
			t.Fatalf("the half-bound dict was not kept empty: %d kept, len %d", len(dc.free), half.Len())
		}
		for _, u := range dc.used[:cap(dc.used)] {
			if u.d != nil || u.n != 0 || slices.ContainsFunc(u.keys[:], func(k starlark.Value) bool { return k != nil }) {
				t.Fatalf("a recycled slot still holds %+v", u)
			}
		}
	})
	t.Run("a frozen dict", func(t *testing.T) {
		var dc dictCache
		d, err := bind(&dc, map[string]any{"a": "1"})
		if err != nil {
			t.Fatal(err)
		}
		d.Freeze()
		dc.recycle(0)
		if len(dc.free) != 0 || d.Len() != 1 {
			t.Fatalf("a frozen dict was kept (%d) or changed (len %d)", len(dc.free), d.Len())
		}
	})
	t.Run("a dict being iterated", func(t *testing.T) {
		var dc dictCache
		d, err := bind(&dc, map[string]any{"a": "1"})
		if err != nil {
			t.Fatal(err)
		}
		it := d.Iterate()
		defer it.Done()
		dc.recycle(0)
		if len(dc.free) != 0 || d.Len() != 1 {
			t.Fatalf("a dict under iteration was kept (%d) or changed (len %d)", len(dc.free), d.Len())
		}
	})
}
