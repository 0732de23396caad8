package host

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookhost/hookhost/scripting"
)

// A decision built at a file's top level is returned by every call; each
// must get its own copy, so that a caller changing one result changes no
// later one.
func TestTopLevelDecisionIsCopiedPerCall(t *testing.T) {
	for _, c := range []struct{ file, src string }{
		{"a.lua", `local cached = hook.respond({ hits = { 1 } })
hook.on("tool.execute.pre", function() return cached end, { name = "cached" })`},
		{"a.star", `CACHED = hook.respond({"hits": [1]})
hook.on("tool.execute.pre", lambda: CACHED, name = "cached")`},
	} {
		t.Run(c.file, func(t *testing.T) {
			h, err := New(context.Background(), Options{FS: fstest.MapFS{c.file: {Data: []byte(c.src)}}})
			if err != nil || len(h.Problems()) > 0 {
				t.Fatal(err, h.Problems())
			}
			defer h.Close()
			for i := range 3 {
				r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
				if err != nil || r.Decision.Action != Respond {
					t.Fatalf("fire %d: %v %+v", i, err, r.Decision)
				}
				res, ok := r.Decision.Result.(map[string]any)
				hits, _ := res["hits"].([]any)
				if !ok || len(hits) != 1 || hits[0] != int64(1) || len(res) != 1 {
					t.Fatalf("fire %d: result %#v, want {hits = {1}}", i, r.Decision.Result)
				}
				hits[0] = "changed by the caller"
				res["extra"] = true
			}
		})
	}
}

// A decision met twice inside another value is copied twice, each copy
// charged to the call: doubling one forty times runs out of the call's
// memory budget after about the budget's worth of work, not out of memory.
func TestSharedDecisionsAreChargedPerCopy(t *testing.T) {
	for _, c := range []struct{ file, src string }{
		{"a.lua", `hook.on("tool.execute.pre", function()
  local d = hook.respond({ 1 })
  for _ = 1, 40 do d = hook.respond({ d, d }) end
  return d
end, { name = "doubler" })`},
		{"a.star", `def doubler():
    d = hook.respond([1])
    for _ in range(40):
        d = hook.respond([d, d])
    return d

hook.on("tool.execute.pre", doubler)`},
	} {
		t.Run(c.file, func(t *testing.T) {
			h, err := New(context.Background(), Options{FS: fstest.MapFS{c.file: {Data: []byte(c.src)}},
				Limits: scripting.Limits{MaxCallMemory: 1 << 20}})
			if err != nil || len(h.Problems()) > 0 {
				t.Fatal(err, h.Problems())
			}
			defer h.Close()
			r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
			if err != nil || len(r.Trace) != 1 {
				t.Fatalf("%v %+v", err, r.Trace)
			}
			if e := r.Trace[0]; e.Outcome != OutcomeError || !strings.Contains(e.Error, "memory limit") {
				t.Fatalf("trace %+v, want an error naming the memory limit", e)
			}
		})
	}
}
