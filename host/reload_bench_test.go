package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkReloadLatency measures how long a running Watch takes from a
// file renamed into place to the first fire that sees the new version
// (ns/op; median-ms and max-ms are the run's median and worst). A fire
// polls every 100µs, as steady traffic from an agent would.
// docs/performance.md reports it.
func BenchmarkReloadLatency(b *testing.B) {
	dir := b.TempDir()
	write := func(n int) {
		tmp := filepath.Join(dir, ".g.lua.tmp")
		if err := os.WriteFile(tmp, []byte(stormVersion(n)), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "g.lua")); err != nil {
			b.Fatal(err)
		}
	}
	write(0)
	h, err := New(context.Background(), Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Watch(ctx) }()
	defer func() { cancel(); <-done }()
	waitFor := func(want string) {
		deadline := time.Now().Add(waitDeadline)
		for {
			r, err := h.Fire(context.Background(), "tool.approve", nil)
			if err != nil {
				b.Fatal(err)
			}
			if r.Decision.Reason == want {
				return
			}
			if time.Now().After(deadline) {
				b.Fatalf("the watcher never served %q", want)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	waitFor("v0 of g")
	time.Sleep(2 * WatchDebounce) // let Watch's first rescan pass
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		start := time.Now()
		write(i)
		waitFor(fmt.Sprintf("v%d of g", i))
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "median-ms")
	b.ReportMetric(float64(lat[len(lat)-1])/1e6, "max-ms")
}
