package starlark

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// dictAdversarySrc reports exactly what its payload looks like on entry,
// then, by mode, does what it can to leave something behind for the next
// call on the same pooled thread: keep the count of entries while changing which
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
func TestPayloadDictsResistTheirCall(t *testing.T) {
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
