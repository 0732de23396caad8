package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/metrics"
	"github.com/hookhost/hookhost/host"
)

// The served decision beside the in-process one: the same guardrail (the
// host benchmark's, in Lua), the same payload, four concurrent callers.
//
//	in-process  Host.Fire, four goroutines
//	http        POST /v1/fire/tool.execute.pre, four clients with
//	            keep-alive connections, through the whole server (door,
//	            body limit, decode, fire, metrics observer, encode)
//
// Each reports its median and p99 latency per decision (p50-µs, p99-µs);
// docs/performance.md reports benchstat medians.

const benchGuard = `
hook.on("tool.execute.pre", function(tool_name, params)
  if tool_name == "bash" and string.find(params.command, "rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  end
end, { name = "guard" })
`

const benchBody = `{"tool_name": "bash", "params": {"command": "ls -la"}}`

// benchClients is how many callers run at once.
const benchClients = 4

func BenchmarkFire(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		h := benchHost(b, nil)
		payload := map[string]any{"tool_name": "bash", "params": map[string]any{"command": "ls -la"}}
		concurrently(b, func() error {
			_, err := h.Fire(context.Background(), "tool.execute.pre", payload)
			return err
		})
	})
	b.Run("http", func(b *testing.B) {
		m := metrics.New(metrics.Options{})
		h := benchHost(b, m)
		base := serve(b, Options{Backend: h, Metrics: m.Handler()})
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
		url := base + "/v1/fire/tool.execute.pre"
		concurrently(b, func() error { return post(client, url) })
	})
}

func post(client *http.Client, url string) error {
	resp, err := client.Post(url, "application/json", bytes.NewReader([]byte(benchBody)))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &statusError{resp.StatusCode}
	}
	return nil
}

type statusError struct{ code int }

func (e *statusError) Error() string { return http.StatusText(e.code) }

func benchHost(b *testing.B, obs host.Observer) *host.Host {
	b.Helper()
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "guard.lua"), []byte(benchGuard), 0o644); err != nil {
		b.Fatal(err)
	}
	h, err := host.New(context.Background(), host.Options{Dir: dir, Observer: obs})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	return h
}

// concurrently runs op b.N times over benchClients goroutines and reports
// the median and p99 latency of one op.
func concurrently(b *testing.B, op func() error) {
	b.Helper()
	b.ReportAllocs()
	b.SetParallelism((benchClients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	var all []time.Duration
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			start := time.Now()
			if err := op(); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(start))
		}
		mu.Lock()
		all = append(all, mine...)
		mu.Unlock()
	})
	b.StopTimer()
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	b.ReportMetric(micros(all[len(all)/2]), "p50-µs")
	b.ReportMetric(micros(all[len(all)*99/100]), "p99-µs")
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
