package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/stdlib/shell/shelltest"
)

// BenchmarkDestructiveInProcess: the destructive pack alone deciding a
// typical line, in process (a host loaded with only that pack; no
// process start, no JSON decoding). docs/performance.md, "The
// destructive pack in process", reports it; the target is 100 µs.
// HOOKHOST_BENCH_PACK names another version's directory (HOOK.md and
// destructive.lua) to measure instead, alternated with this one.
func BenchmarkDestructiveInProcess(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "hooks.d")
	src := filepath.Join(shippedDir, "destructive")
	if d := os.Getenv("HOOKHOST_BENCH_PACK"); d != "" {
		src = d // another version of the pack, to compare in one run
	}
	if err := os.MkdirAll(filepath.Join(dir, "destructive"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"HOOK.md", "destructive.lua"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "destructive", f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	for _, line := range shelltest.TypicalLines() {
		// the line in more versions (a trailing comment) than the shell
		// module keeps parsed, so that each fire parses its line, as a
		// tool call with a new line does
		payloads := make([]map[string]any, 16)
		for k := range payloads {
			payloads[k] = map[string]any{"tool_name": "Bash", "params": map[string]any{"command": fmt.Sprintf("%s # %d", line, k)}, "cwd": "/work/project"}
		}
		b.Run(line[:min(len(line), 24)], func(b *testing.B) {
			cpu := cpuTime(b)
			k := 0
			for b.Loop() {
				payload := payloads[k%len(payloads)]
				k++
				res, err := h.Fire(ctx, "tool.execute.pre", payload)
				if err != nil || res.Decision.Action != host.Continue {
					b.Fatalf("%s: %v %v", line, res.Decision, err)
				}
			}
			// the process's CPU time: on a shared machine the wall clock
			// also counts the time spent waiting for a core
			b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkClaudeShipped: `hookhost claude` answering a Claude Code
// PreToolUse with the shipped hooks.d, process start to answer, to be
// compared with BenchmarkSpawnTrue in the same run (the target
// is within 10x of spawning /bin/true).
func BenchmarkClaudeShipped(b *testing.B) {
	bin := benchBinary(b)
	dir, err := filepath.Abs(shippedDir)
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv(eventCacheEnv, filepath.Join(b.TempDir(), "events.txt"))
	loop(b, []byte(benchEvent), bin, "claude", "--dir", dir)
}
