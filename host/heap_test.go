package host

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/scripting"
)

// heapBombs grow the heap without end through the interpreter itself
// (a table or list of fresh 1 KiB strings), which the per-call budget
// lifted in these tests would otherwise stop, beside a lower-priority
// hook that must still run.
var heapBombs = map[string]string{
	"bomb.lua": `
hook.on("tool.execute.pre", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 1e9 do t[i] = s .. i end
end, { name = "bomb", priority = 10, timeout = "60s" })
hook.on("tool.execute.pre", function() return hook.deny("the next hook ran") end, { name = "next" })`,
	"bomb.star": `
def bomb():
    x, s = [], "x" * 1024
    for i in range(1000000000):
        x.append(s + str(i))

def next():
    return hook.deny("the next hook ran")

hook.on("tool.execute.pre", bomb, priority = 10, timeout = "60s")
hook.on("tool.execute.pre", next)`,
}

// The heap watchdog interrupts a hook that grows the heap past
// limits.memory, says so in the trace, lets the rest of the fire run,
// and quarantines the hook after three strikes.
func TestHeapLimit(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB, concurrency: 8 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for file, code := range heapBombs {
		t.Run(file, func(t *testing.T) {
			// the per-call budget is lifted, so that only the watchdog can stop the bomb
			h := newTestHost(t, map[string]string{file: code}, Options{Config: cfg, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
			id := file + ":bomb"
			for i := range strikeLimit {
				runtime.GC()
				r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"tool_name": "bash"})
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Trace) != 2 || r.Trace[0].Hook != id || r.Trace[0].Outcome != OutcomeError {
					t.Fatalf("fire %d: trace %+v, want the bomb's error then the next hook", i+1, r.Trace)
				}
				want := `hook "` + id + `": memory limit: the host's heap passed 64MiB while this hook ran`
				if !strings.Contains(r.Trace[0].Error, want) {
					t.Errorf("fire %d: error %q, want %q", i+1, r.Trace[0].Error, want)
				}
				if r.Decision.Action != Deny || r.Decision.Reason != "the next hook ran" {
					t.Errorf("fire %d: decision %+v, want the next hook's deny", i+1, r.Decision)
				}
			}
			if q := h.Quarantined(); len(q) != 1 || q[0] != id {
				t.Fatalf("quarantined %v, want [%s]", q, id)
			}
			r, _ := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
			if len(r.Trace) != 2 || !strings.Contains(r.Trace[0].Error, "quarantined since") || r.Trace[1].Hook != file+":next" {
				t.Errorf("after quarantine: trace %+v, want the bomb quarantined, then the next hook", r.Trace)
			}
		})
	}
}

// A heap failure is a hook failure: a fail-closed event denies.
func TestHeapLimitFailsClosed(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB, concurrency: 8 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := newTestHost(t, map[string]string{"bomb.lua": `
hook.on("tool.approve", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 1e9 do t[i] = s .. i end
end, { name = "bomb", timeout = "60s" })`}, Options{Config: cfg, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	runtime.GC()
	r, err := h.Fire(context.Background(), "tool.approve", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision.Action != Deny || !strings.Contains(r.Decision.Reason, "memory limit") {
		t.Errorf("decision %+v, want a deny naming the memory limit", r.Decision)
	}
	if !strings.Contains(r.Trace[0].Error, "bomb.lua:2:") {
		t.Errorf("trace error %q does not name the file and line", r.Trace[0].Error)
	}
}

// The per-call budget follows limits.memory unless the embedder set one.
func TestCallLimitsFromConfig(t *testing.T) {
	cfg := &Config{Limits: ConfigLimits{Memory: 1 << 30}}
	if got := callLimits(scripting.Limits{}, cfg).MaxCallMemory; got != 128<<20 {
		t.Errorf("derived per-call budget %d, want 128MiB", got)
	}
	if got := callLimits(scripting.Limits{MaxCallMemory: 5 << 20}, cfg).MaxCallMemory; got != 5<<20 {
		t.Errorf("the embedder's budget was replaced: %d", got)
	}
	if got := callLimits(scripting.Limits{}, &Config{}).MaxCallMemory; got != 0 {
		t.Errorf("no config: budget %d, want 0 (the scripting default)", got)
	}
	if DefaultMemoryLimit/8 != scripting.DefaultMaxCallMemory {
		t.Errorf("the default heap limit's eighth is not the default per-call budget")
	}
}

// Calls well within the limit are never interrupted: a hundred quick
// fires under the default limit all decide.
func TestHeapLimitSparesQuickCalls(t *testing.T) {
	h := newTestHost(t, map[string]string{"ok.lua": `
hook.on("tool.approve", function() return hook.allow() end, { name = "ok" })`}, Options{})
	for i := range 100 {
		r, err := h.Fire(context.Background(), "tool.approve", map[string]any{})
		if err != nil || r.Decision.Action != Allow {
			t.Fatalf("fire %d: %+v, %v", i, r.Decision, err)
		}
	}
}
