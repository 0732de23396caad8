package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host"
)

// The hook table gains a FAILURES column when some hook failed recently
// (a host that fires, not a one-shot list's).
func TestWriteHooksFailures(t *testing.T) {
	at := time.Date(2026, 12, 2, 8, 1, 2, 0, time.UTC)
	hooks := []host.HookInfo{
		{ID: "a.lua:ok", Event: "tool.execute.pre", Enabled: true, Enforce: host.Enforce},
		{ID: "b.lua:loop", Event: "tool.execute.pre", Enabled: true, Enforce: host.Enforce,
			Recent: host.RecentFailures{Timeouts: 4, LastError: "timed out after 50ms", LastAt: at}},
	}
	var b bytes.Buffer
	if err := writeHooks(&b, hooks[:1]); err != nil || strings.Contains(b.String(), "FAILURES") {
		t.Fatalf("without failures: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := writeHooks(&b, hooks); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "FAILURES (10m)") ||
		!strings.HasSuffix(strings.TrimSpace(lines[1]), " -") ||
		!strings.HasSuffix(strings.TrimSpace(lines[2]), "4 timeouts, 0 errors, last 2026-12-02T08:01:02Z: timed out after 50ms") {
		t.Errorf("table:\n%s", b.String())
	}
}
