package host_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/hookhost/hookhost/host"
)

// A reload compiles what changed, keeps the last good version of a file
// whose edit broke it, and says so in its report and in every answer.
func ExampleHost_Rescan() {
	scripts := fstest.MapFS{
		"guard.lua": {Data: []byte(`hook.on("tool.approve", function() return hook.deny("v1") end, { name = "g" })`)},
	}
	h, err := host.New(context.Background(), host.Options{FS: scripts})
	if err != nil {
		panic(err)
	}
	defer h.Close()

	scripts["guard.lua"] = &fstest.MapFile{Data: []byte(`hook.on("tool.approve", function() return hook.deny("v2") end`)}
	rep := h.Rescan(context.Background(), host.TriggerAPI)
	for _, f := range rep.Files {
		fmt.Println(f.Path, f.Outcome, f.Err)
	}
	r, _ := h.Fire(context.Background(), "tool.approve", nil)
	fmt.Println(r.Decision.Reason, r.Problems)
	fmt.Println("generation", h.Status().Generation)
	// Output:
	// guard.lua failed guard.lua:1: syntax error at end of file: syntax error
	// v1 [guard.lua:1: syntax error at end of file: syntax error]
	// generation 2
}
