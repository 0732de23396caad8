package lua_test

import (
	"testing"

	"github.com/hookhost/hookhost/host/packbench"
	"github.com/hookhost/hookhost/scripting/lua"
)

// BenchmarkShippedPacks fires each shipped Lua pack on a mix of Claude
// Code tool calls (packbench.Mix). A rewrite or cache proposed only for
// speed shows its gain here, as a variant with it beside one without it
// in the same run, before it is kept (docs/performance.md):
//
//	go test -run '^$' -bench BenchmarkShippedPacks -count 8 -cpu 1 ./scripting/lua > packs.txt
//	benchstat -col /variant packs.txt
func BenchmarkShippedPacks(b *testing.B) {
	for _, pack := range []string{"destructive", "git-risky", "protect-settings", "secrets"} {
		packbench.Fire(b, pack, []packbench.Variant{{Name: "variant=shipped", Engine: lua.Engine{}}})
	}
}
