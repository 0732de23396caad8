package starlark_test

import (
	"testing"

	"github.com/hookhost/hookhost/host/packbench"
	"github.com/hookhost/hookhost/scripting/starlark"
)

// BenchmarkSpeedRewrites fires each shipped Starlark pack on a mix of
// Claude Code tool calls with every speed rewrite on ("all") and with
// each one off in turn (speed.go), and every one on again as a control, in the
// same run:
//
//	go test -run '^$' -bench BenchmarkSpeedRewrites -benchtime 4000x -count 8 -cpu 1 ./scripting/starlark > star.txt
//	benchstat -col /variant star.txt
func BenchmarkSpeedRewrites(b *testing.B) {
	for _, pack := range append(shippedPacks, packbench.SmallGuardStar) {
		packbench.Fire(b, pack, speedVariants())
	}
	// The decision rewrites only matter on a fire that decides: each
	// shipped pack on the calls it decides (asks about, denies, sends the
	// agent back to work on), by kind of decision, and the small guard on
	// the call it denies, each alone.
	for _, pack := range shippedPacks {
		for _, d := range packbench.Decides(pack) {
			packbench.FireDecided(b, pack, d, speedVariants())
		}
	}
	packbench.FireCalls(b, packbench.SmallGuardStar+"-deny", packbench.SmallGuardStar, speedVariants(), packbench.Denied())
}

// shippedPacks are the shipped packs written in this language.
var shippedPacks = []string{"outside-workspace", "todo-continue", "web-fetch-limit"}

// speedVariants are an engine with every speed rewrite on, one with each
// off, and a control.
func speedVariants() []packbench.Variant {
	variants := []packbench.Variant{{Name: "variant=all", Engine: starlark.Engine{}}}
	for _, name := range starlark.SpeedRewrites() {
		variants = append(variants, packbench.Variant{Name: "variant=no-" + name, Engine: starlark.EngineWithout(name)})
	}
	// The control is "all" again on a host of its own, timed last: what
	// separates it from "all" is the benchmark's own noise and bias.
	return append(variants, packbench.Variant{Name: "variant=control", Engine: starlark.Engine{}})
}

// Turning a speed rewrite off changes nothing a shipped pack decides, on
// any call of the mix, however often it is fired (the benchmark checks
// this too, before it times anything): neither one rewrite nor all of
// them at once.
func TestSpeedRewritesInvisibleOnShippedPacks(t *testing.T) {
	variants := append(speedVariants(), packbench.Variant{Name: "none", Engine: starlark.EngineWithout(starlark.SpeedRewrites()...)})
	for _, pack := range append(shippedPacks, packbench.SmallGuardStar) {
		t.Run(pack, func(t *testing.T) { packbench.Same(t, pack, variants) })
	}
}
