package host

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// cpuWork is a module whose work() is a blocking builtin (run under
// scripting.Guard) that does several milliseconds of CPU work: on an
// idle core it ends well inside its hook's deadline; on a starved one it
// may not, and is abandoned.
func cpuWork() stdlib.Module {
	return stdlib.Module{Name: "cpu", Funcs: []stdlib.Func{{
		Name: "work", Blocking: true,
		Impl: func(*stdlib.Call) (any, error) {
			x := uint64(1)
			for i := 0; i < 10_000_000; i++ {
				x = x*6364136223846793005 + 1442695040888963407
			}
			return int64(x >> 40), nil
		},
	}}}
}

// starve keeps far more goroutines busy than the process has processors
// until the returned function is called.
func starve() (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range 16 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			x := 0
			for !done.Load() {
				for i := 0; i < 1000; i++ {
					x += i
				}
			}
			_ = x
		})
	}
	return func() { done.Store(true); wg.Wait() }
}

// On a host starved of CPU, a guard whose builtin could not finish by its
// deadline for want of a core is not struck: however many of its calls
// are abandoned, it is never quarantined. (Without the starvation check
// three abandoned calls quarantined it.) Whether a given call is
// abandoned depends on the scheduler; both outcomes are accepted, and
// what the test holds is that no strike is counted while starved.
func TestStarvedHostStrikesNoGuard(t *testing.T) {
	for name, code := range map[string]string{
		"guard.lua": `local cpu = require("cpu")
hook.on("tool.approve", function() cpu.work() return hook.allow() end, { name = "guard", timeout = "100ms" })`,
		"guard.star": "load(\"cpu\", \"cpu\")\ndef guard():\n    cpu.work()\n    return hook.allow()\n" +
			"hook.on(\"tool.approve\", guard, name = \"guard\", timeout = \"100ms\")",
	} {
		t.Run(name, func(t *testing.T) {
			h := newTestHost(t, map[string]string{name: code}, Options{Modules: []stdlib.Module{cpuWork()}})
			stop := starve()
			defer stop()
			abandoned := 0
			for range 4 * strikeLimit {
				r, err := h.Fire(context.Background(), "tool.approve", map[string]any{})
				if err != nil {
					t.Fatal(err)
				}
				if e := entry(r, name+":guard"); e != nil && e.Outcome == OutcomeTimeout {
					abandoned++
				}
			}
			stop()
			t.Logf("%d of %d calls timed out while starved", abandoned, 4*strikeLimit)
			if q := h.Quarantined(); len(q) != 0 {
				t.Fatalf("quarantined while starved: %v", q)
			}
			if n := strikesOf(h, name+":guard"); n != 0 {
				t.Fatalf("%d strikes while starved", n)
			}
		})
	}
}
