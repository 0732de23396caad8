package host

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// BenchmarkFireBurst fires a guard that does a few milliseconds of CPU
// work from 64 goroutines at once, under several limits.concurrency
// settings, and reports the share of calls that timed out (the guard's
// budget is 100ms, several times what one call takes alone) and the
// slowest fire. It is the measurement behind DefaultConcurrency: with no
// bound (4096) the calls share the cores and time out together; with a
// bound near the cores they queue and none does.
func BenchmarkFireBurst(b *testing.B) {
	const fires = 64
	procs := runtime.GOMAXPROCS(0)
	src := `hook.on("tool.execute.pre", function()
  local n = 0
  for i = 1, 100000 do n = n + i end
  return hook.allow("ok")
end, { name = "guard", timeout = "100ms" })`
	for _, n := range []int{procs, 2 * procs, 4 * procs, 16 * procs, MaxConcurrency} {
		b.Run(fmt.Sprintf("concurrency=%d", n), func(b *testing.B) {
			cfg := &Config{Limits: ConfigLimits{Concurrency: n, QueueTimeout: DefaultQueueTimeout}}
			h, err := New(context.Background(), Options{FS: fstest.MapFS{"g.lua": &fstest.MapFile{Data: []byte(src)}}, Config: cfg})
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			var timeouts, calls, slowest atomic.Int64
			b.ResetTimer()
			for range b.N {
				var wg sync.WaitGroup
				for range fires {
					wg.Go(func() {
						r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
						if err != nil {
							b.Error(err)
							return
						}
						calls.Add(1)
						if len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeDecision {
							timeouts.Add(1)
						}
						d := int64(r.Trace[0].Duration)
						for old := slowest.Load(); d > old && !slowest.CompareAndSwap(old, d); old = slowest.Load() {
						}
					})
				}
				wg.Wait()
			}
			b.ReportMetric(float64(timeouts.Load())/float64(calls.Load()), "timeouts/call")
			b.ReportMetric(float64(slowest.Load())/1e6, "max-call-ms")
		})
	}
}
