package server

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/metrics"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/scripting/benchcpu"
)

// The served decision beside the in-process one: the same guardrail (the
// host benchmark's, in Lua), the same payload, four concurrent callers.
//
//	in-process  Host.Fire, four goroutines
//	handler     the server's handler called directly (door, body limit,
//	            decode, fire, metrics observer, encode), no network
//	http        POST /v1/fire/tool.execute.pre, four clients with
//	            keep-alive connections, through the whole server (door,
//	            body limit, decode, fire, metrics observer, encode)
//	http-1      the same with one client: the latency of a request that
//	            does not queue behind others
//
// Each reports its median and p99 latency per decision (p50-µs, p99-µs)
// and the process's CPU time per decision (cpu-µs; for http, the client's
// share included), which a loaded machine disturbs less than latency.
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
		concurrently(b, benchClients, func() error {
			_, err := h.Fire(context.Background(), "tool.execute.pre", payload)
			return err
		})
	})
	b.Run("handler", func(b *testing.B) {
		m := metrics.New(metrics.Options{})
		srv, err := New(Options{Backend: benchHost(b, m), Metrics: m.Handler(nil)})
		if err != nil {
			b.Fatal(err)
		}
		h := srv.handler(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7878}, &activity{})
		concurrently(b, benchClients, func() error {
			req := httptest.NewRequest("POST", "http://127.0.0.1:7878/v1/fire/tool.execute.pre", strings.NewReader(benchBody))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				return &statusError{rec.Code}
			}
			return nil
		})
	})
	b.Run("http", func(b *testing.B) { benchHTTP(b, benchClients) })
	b.Run("http-1", func(b *testing.B) { benchHTTP(b, 1) })
}

func benchHTTP(b *testing.B, clients int) {
	m := metrics.New(metrics.Options{})
	h := benchHost(b, m)
	base := serve(b, Options{Backend: h, Metrics: m.Handler(nil)})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	url := base + "/v1/fire/tool.execute.pre"
	concurrently(b, clients, func() error { return post(client, url) })
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

// concurrently runs op b.N times from n goroutines (RunParallel runs a
// multiple of GOMAXPROCS, so n is rounded up to one; n == 1 is a plain
// loop) and reports the median and p99 latency of one op and the CPU
// time per op.
func concurrently(b *testing.B, n int, op func() error) {
	b.Helper()
	b.ReportAllocs()
	if n == 1 {
		sequentially(b, op)
		return
	}
	b.SetParallelism((n + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	var all []time.Duration
	cpu0 := benchcpu.Used(b)
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
	report(b, cpu0, all)
}

// sequentially runs op b.N times on one goroutine.
func sequentially(b *testing.B, op func() error) {
	all := make([]time.Duration, 0, b.N)
	cpu0 := benchcpu.Used(b)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		all = append(all, time.Since(start))
	}
	b.StopTimer()
	report(b, cpu0, all)
}

func report(b *testing.B, cpu0 time.Duration, all []time.Duration) {
	b.ReportMetric(micros(benchcpu.Used(b)-cpu0)/float64(b.N), "cpu-µs")
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	b.ReportMetric(micros(all[len(all)/2]), "p50-µs")
	b.ReportMetric(micros(all[len(all)*99/100]), "p99-µs")
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
