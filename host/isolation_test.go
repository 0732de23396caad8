package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// isolatedHost is a host of files in dir whose config (hookhost.yaml in
// dir's parent) isolates them.
func isolatedHost(t *testing.T, files map[string]string, config string) (*Host, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	writeFiles(t, dir, files)
	cfgPath := filepath.Join(root, "hookhost.yaml")
	writeFiles(t, root, map[string]string{"hookhost.yaml": config})
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfgPath, WorkerExecutable: testWorker})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	return h, root
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, code := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fireOK(t *testing.T, h *Host, event string, payload map[string]any) Result {
	t.Helper()
	r, err := h.Fire(context.Background(), event, payload)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A worker that dies (here: one allocation past its data limit) costs
// only that call: the hook fails, the next hook runs, and the next call
// gets a fresh worker that decides as before. Each death is a strike: the
// third within ten minutes quarantines the hook.
func TestIsolatedWorkerRestarts(t *testing.T) {
	h, _ := isolatedHost(t, map[string]string{
		"bomb.star": `
def bomb(tool_name):
    if tool_name == "bomb":
        return hook.deny(str(len([0] * (1 << 28))))
    return hook.deny(tool_name + " refused")

hook.on("tool.execute.pre", bomb, priority = 10)`,
		"next.lua": `hook.on("tool.execute.pre", function() return hook.message("next ran") end, { name = "next" })`,
	}, "hooks:\n  bomb.star: { isolation: process }\n")
	for i := range strikeLimit {
		r := fireOK(t, h, "tool.execute.pre", map[string]any{"tool_name": "bomb"})
		if len(r.Trace) != 2 || r.Trace[0].Outcome != OutcomeError || !strings.Contains(r.Trace[0].Error, "isolation: the worker process ended") ||
			r.Trace[1].Outcome != OutcomeDecision {
			t.Fatalf("bomb: trace %+v, want the bomb's failure then the next hook", r.Trace)
		}
		if i == strikeLimit-1 {
			break
		}
		r = fireOK(t, h, "tool.execute.pre", map[string]any{"tool_name": "ls"})
		if r.Decision.Action != Deny || r.Decision.Reason != "ls refused" {
			t.Fatalf("after a restart: decision %+v (%v), want the isolated hook's deny", r.Decision, r.Trace)
		}
	}
	if q := h.Quarantined(); len(q) != 1 || q[0] != "bomb.star:bomb" {
		t.Fatalf("quarantined %v after %d deaths of its worker, want the bomb", q, strikeLimit)
	}
}

// A call stuck inside a builtin is cut at its deadline like any other
// (a timeout); its worker is replaced, not left running.
func TestIsolatedStuckBuiltin(t *testing.T) {
	h, _ := isolatedHost(t, map[string]string{"stuck.lua": `
hook.on("tool.approve", function(tool_name)
  -- backtracks for minutes: only killing the worker ends it
  if tool_name == "stuck" then string.find(string.rep("a", 3000), ".-.-b") end
  return hook.allow("fine")
end, { name = "h", timeout = "500ms" })`}, "defaults: { isolation: process }\n")
	r := fireOK(t, h, "tool.approve", map[string]any{"tool_name": "stuck"})
	if len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout || r.Decision.Action != Deny {
		t.Fatalf("stuck: %+v %+v, want a timeout and the fail-closed deny", r.Decision, r.Trace)
	}
	r = fireOK(t, h, "tool.approve", map[string]any{"tool_name": "ls"})
	if r.Decision.Action != Allow {
		t.Fatalf("after the stuck call: %+v %+v, want allow", r.Decision, r.Trace)
	}
	if q := h.Quarantined(); len(q) != 0 {
		t.Errorf("quarantined %v: a worker that can be killed leaves nothing behind", q)
	}
}

// A file change compiles the new version in the worker; a config change
// of isolation compiles the file again where it now runs.
func TestIsolatedReload(t *testing.T) {
	h, root := isolatedHost(t, map[string]string{"a.lua": `
hook.on("tool.approve", function() return hook.deny("one") end, { name = "h" })`}, "defaults: { isolation: process }\n")
	if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "one" {
		t.Fatalf("first version: %+v", r.Decision)
	}
	writeFiles(t, filepath.Join(root, "hooks.d"), map[string]string{"a.lua": `
hook.on("tool.approve", function() return hook.deny("two") end, { name = "h" })`})
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "two" {
		t.Fatalf("after the edit: %+v %+v", r.Decision, r.Trace)
	}
	writeFiles(t, root, map[string]string{"hookhost.yaml": "defaults: { isolation: none }\n"})
	rep := h.Rescan(context.Background(), TriggerAPI)
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Outcome != FileReloaded {
		t.Errorf("a change of isolation: outcomes %+v, want a.lua reloaded", rep.Files)
	}
	if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "two" {
		t.Fatalf("in process again: %+v %+v", r.Decision, r.Trace)
	}
}

// A pack configured "untrusted/: isolation: process" runs in one worker
// for all its files: they share that worker's state store, which the
// host's in-process files do not see.
func TestIsolatedPack(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	writeFiles(t, filepath.Join(dir, "untrusted"), map[string]string{
		"HOOK.md": "---\ndescription: code from elsewhere\n---\n",
		"a.lua": `
local state = require("state")
hook.on("tool.execute.pre", function() state.set("seen", "by a.lua") end, { name = "a", priority = 10 })`,
		"b.star": `
load("state", "state")
def b():
    return hook.deny("pack state: " + str(state.get("seen")))
hook.on("tool.execute.pre", b)`,
	})
	writeFiles(t, dir, map[string]string{"c.lua": `
local state = require("state")
hook.on("tool.execute.pre", function() return hook.message("host state: " .. tostring(state.get("seen"))) end, { name = "c", priority = 20 })`})
	writeFiles(t, root, map[string]string{"hookhost.yaml": "hooks:\n  untrusted/: { isolation: process }\n"})
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: filepath.Join(root, "hookhost.yaml"), WorkerExecutable: testWorker})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	for range 2 { // the second time, a.lua has set its state before the host's file looks
		r := fireOK(t, h, "tool.execute.pre", map[string]any{})
		if r.Decision.Reason != "pack state: by a.lua" || len(r.Messages) != 1 || r.Messages[0].Content != "host state: nil" {
			t.Fatalf("decision %+v, messages %+v, trace %+v", r.Decision, r.Messages, r.Trace)
		}
	}
}
