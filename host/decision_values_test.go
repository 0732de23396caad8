package host

import (
	"context"
	"testing"
	"testing/fstest"
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
