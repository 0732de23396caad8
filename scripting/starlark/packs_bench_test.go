package starlark_test

import (
	"testing"

	"github.com/hookhost/hookhost/host/packbench"
	"github.com/hookhost/hookhost/scripting/starlark"
)

// BenchmarkShippedPacks fires each shipped Starlark pack on a mix of Claude
// Code tool calls (packbench.Mix). A rewrite or cache proposed only for
// speed shows its gain here, as a variant with it beside one without it
// in the same run, before it is kept (docs/performance.md):
//
//	go test -run '^$' -bench BenchmarkShippedPacks -count 8 -cpu 1 ./scripting/starlark > packs.txt
//	benchstat -col /variant packs.txt
func BenchmarkShippedPacks(b *testing.B) {
	for _, pack := range []string{"outside-workspace", "todo-continue", "web-fetch-limit"} {
		packbench.Fire(b, pack, []packbench.Variant{{Name: "variant=shipped", Engine: starlark.Engine{}}})
	}
}
