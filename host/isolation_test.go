package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host/isolate"
	"github.com/hookhost/hookhost/host/isolate/isolatetest"
	"github.com/hookhost/hookhost/scripting"
)

// isolatedHost is a host of files in dir whose config (hookhost.yaml in
// dir's parent) isolates them.
func isolatedHost(t *testing.T, files map[string]string, config string) (*Host, string) {
	t.Helper()
	return isolatedHostOptions(t, files, config, Options{})
}

// isolatedHostOptions is isolatedHost with the embedder's options (its
// per-call limits, its logger); the directory, the config and the worker
// are the test's.
func isolatedHostOptions(t *testing.T, files map[string]string, config string, opts Options) (*Host, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	writeFiles(t, dir, files)
	cfgPath := filepath.Join(root, "hookhost.yaml")
	writeFiles(t, root, map[string]string{"hookhost.yaml": config})
	opts.Dir, opts.ConfigPath, opts.WorkerExecutable = dir, cfgPath, testWorker
	h, err := New(context.Background(), opts)
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

// A worker that dies (here: one allocation past its data limit, which
// the embedder's per-call budget of 8 GiB lets through) costs only that
// call: the hook fails, the next hook runs, and the next call gets a
// fresh worker that decides as before. Each death is a strike: the third
// within ten minutes quarantines the hook.
func TestIsolatedWorkerRestarts(t *testing.T) {
	h, _ := isolatedHostOptions(t, map[string]string{
		"bomb.star": `
def bomb(tool_name):
    if tool_name == "bomb":
        return hook.deny(str(len([0] * (1 << 28))))
    return hook.deny(tool_name + " refused")

hook.on("tool.execute.pre", bomb, priority = 10)`,
		"next.lua": `hook.on("tool.execute.pre", function() return hook.message("next ran") end, { name = "next" })`,
	}, "hooks:\n  bomb.star: { isolation: process }\n", Options{Limits: scripting.Limits{MaxCallMemory: 8 << 30}})
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

// isolatedHostWith is isolatedHost with workers started from exe, the
// test worker or a wrapper that execs it.
func isolatedHostWith(t *testing.T, exe string, files map[string]string, config string) (*Host, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	writeFiles(t, dir, files)
	writeFiles(t, root, map[string]string{"hookhost.yaml": config})
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: filepath.Join(root, "hookhost.yaml"),
		WorkerExecutable: exe, WorkerBuild: testWorkerBuild(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	return h, root
}

// A worker that died is started again in the background, and a fire that
// comes while it starts waits for it without charging the hook's
// deadline: here every start after the first takes a second, and a hook
// with 200 ms that runs right after the crash — the next hook of the same
// fire, then the next fire — decides (both languages).
func TestIsolatedRestartNotCharged(t *testing.T) {
	for _, tc := range []struct{ file, code string }{
		{"a.lua", `
hook.on("tool.execute.pre", function(tool_name)
  if tool_name == "bomb" then
    local t = {}
    for i = 1, 1e9 do t[i] = { i, i + 1, i + 2 } end
  end
end, { name = "bomb", priority = 10, timeout = "10s" })
hook.on("tool.execute.pre", function(tool_name)
  return hook.deny(tool_name .. " refused")
end, { name = "h", timeout = "200ms" })`},
		{"a.star", `
def bomb(tool_name):
    if tool_name == "bomb":
        return hook.deny(str(len(grow())))

def h(tool_name):
    return hook.deny(tool_name + " refused")

hook.on("tool.execute.pre", bomb, priority = 10, timeout = "10s")
hook.on("tool.execute.pre", h, timeout = "200ms")

# grows a list one small list at a time, which no count sees, until the
# worker's data limit ends it
def grow():
    x = []
    for i in range(1000000000):
        x.append([i] * 64)`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "started")
			exe, err := isolatetest.Wrapper(dir, testWorker, "if [ -e '"+marker+"' ]; then sleep 1; fi\ntouch '"+marker+"'")
			if err != nil {
				t.Fatal(err)
			}
			h, _ := isolatedHostWith(t, exe, map[string]string{tc.file: tc.code}, "defaults: { isolation: process }\nlimits: { memory: 128MiB }\n")
			id := tc.file + ":h"
			r := fireOK(t, h, "tool.execute.pre", map[string]any{"tool_name": "bomb"})
			if len(r.Trace) != 2 || !strings.Contains(r.Trace[0].Error, "isolation: the worker process ended") ||
				r.Decision.Action != Deny || r.Decision.Reason != "bomb refused" || r.Decision.Hook != id {
				t.Fatalf("bomb: %+v %+v, want the worker's death as the bomb's failure, then the next hook's deny", r.Decision, r.Trace)
			}
			for _, tool := range []string{"ls", "cat"} {
				r = fireOK(t, h, "tool.execute.pre", map[string]any{"tool_name": tool})
				if r.Decision.Action != Deny || r.Decision.Reason != tool+" refused" || r.Decision.Hook != id {
					t.Fatalf("after the crash: %+v %+v, want the hook's own deny", r.Decision, r.Trace)
				}
			}
		})
	}
}

// A worker that cannot start again after a crash is the hook's failure,
// with an error naming the file, line and hook and why; a fail-closed
// event denies, as for any failing hook. The listing marks isolated
// hooks.
func TestIsolatedStartFailure(t *testing.T) {
	dir := t.TempDir()
	refuse := filepath.Join(dir, "refuse")
	exe, err := isolatetest.Wrapper(dir, testWorker, "if [ -e '"+refuse+"' ]; then echo 'wrapper: refusing to start' >&2; exit 3; fi")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := isolatedHostWith(t, exe, map[string]string{
		"a.star": `
def bomb(tool_name):
    if tool_name == "bomb":
        return hook.deny(str(len(grow())))
    return hook.allow("fine")

hook.on("tool.approve", bomb, timeout = "60s")

# grows a list one small list at a time, which no count sees, until the
# worker's data limit ends it
def grow():
    x = []
    for i in range(1000000000):
        x.append([i] * 64)`,
		"b.lua": `hook.on("tool.approve", function() end, { name = "plain", priority = -1 })`,
	}, "hooks:\n  a.star: { isolation: process }\nlimits: { memory: 128MiB }\n")
	for _, info := range h.Hooks() {
		if want := info.File == "a.star"; info.Isolated != want {
			t.Errorf("%s: Isolated %v, want %v", info.ID, info.Isolated, want)
		}
	}
	if err := os.WriteFile(refuse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The worker's data limit ends the bomb, or on a loaded machine (the
	// worker built with -race grows its list slowly) its deadline does,
	// and its worker is killed: either way the worker must start again.
	r := fireOK(t, h, "tool.approve", map[string]any{"tool_name": "bomb"})
	if r.Decision.Action != Deny || len(r.Trace) == 0 ||
		!strings.Contains(r.Trace[0].Error, "the worker process ended") && r.Trace[0].Outcome != OutcomeTimeout {
		t.Fatalf("bomb: %+v %+v, want its worker's end or its deadline", r.Decision, r.Trace)
	}
	r = fireOK(t, h, "tool.approve", map[string]any{"tool_name": "ls"})
	want := `a.star:7: hook "a.star:bomb": isolation: the worker did not start: wrapper: refusing to start`
	if r.Decision.Action != Deny || r.Decision.Reason != "hook a.star:bomb failed: "+want || len(r.Trace) != 1 ||
		r.Trace[0].Outcome != OutcomeError || r.Trace[0].Error != want {
		t.Fatalf("a worker that cannot start: %+v %+v, want the fail-closed deny with %q", r.Decision, r.Trace, want)
	}
	if q := h.Quarantined(); len(q) != 0 {
		t.Errorf("quarantined %v: a worker that cannot start is not the hook's strike", q)
	}
}

// The state store of an isolated file is its worker's: it lasts across
// calls and reloads, and is lost when the worker restarts (both
// languages).
func TestIsolatedStateAcrossRestart(t *testing.T) {
	for name, code := range map[string]string{
		"a.lua": `
local state = require("state")
hook.on("turn.pre", function(prompt)
  if prompt == "bomb" then
    local t = {}
    for i = 1, 1e9 do t[i] = { i, i + 1, i + 2 } end
  end
  return hook.message(tostring(state.incr("n")))
end, { name = "count", timeout = "10s" })`,
		"a.star": `
load("state", "state")
def count(prompt):
    if prompt == "bomb":
        return hook.message(str(len(grow())))
    return hook.message(str(state.incr("n")))

hook.on("turn.pre", count, timeout = "10s")

# grows a list one small list at a time, which no count sees, until the
# worker's data limit ends it
def grow():
    x = []
    for i in range(1000000000):
        x.append([i] * 64)`,
	} {
		t.Run(name, func(t *testing.T) {
			h, root := isolatedHost(t, map[string]string{name: code}, "defaults: { isolation: process }\nlimits: { memory: 128MiB }\n")
			count := func() string {
				t.Helper()
				r := fireOK(t, h, "turn.pre", map[string]any{"prompt": "count"})
				if len(r.Messages) != 1 {
					t.Fatalf("count: %+v", r.Trace)
				}
				return r.Messages[0].Content
			}
			var got []string
			got = append(got, count(), count())
			writeFiles(t, filepath.Join(root, "hooks.d"), map[string]string{name: code + "\n"})
			if err := h.Reload(context.Background()); err != nil {
				t.Fatal(err)
			}
			got = append(got, count())
			if r := fireOK(t, h, "turn.pre", map[string]any{"prompt": "bomb"}); !strings.Contains(r.Trace[0].Error, "the worker process ended") {
				t.Fatalf("bomb: %+v", r.Trace)
			}
			got = append(got, count(), count())
			if strings.Join(got, " ") != "1 2 3 1 2" {
				t.Errorf("counts %v, want 1 2 3 (calls and a reload keep the store) then 1 2 (a restart loses it)", got)
			}
		})
	}
}

// A worker lives as long as its unit has a loaded version: deleting an
// isolated file, or moving it in process, stops its worker; a pack's
// worker stays while any of its files is loaded.
func TestIsolatedWorkersFollowFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	hookCode := `hook.on("turn.pre", function() end, { name = "h" })`
	writeFiles(t, dir, map[string]string{"a.lua": hookCode, "b.lua": hookCode})
	writeFiles(t, filepath.Join(dir, "pack"), map[string]string{"HOOK.md": "---\ndescription: p\n---\n", "c.lua": hookCode, "d.lua": hookCode})
	cfg := filepath.Join(root, "hookhost.yaml")
	writeFiles(t, root, map[string]string{"hookhost.yaml": "defaults: { isolation: process }\n"})
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfg, WorkerExecutable: testWorker})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	step := func(what, want string) {
		t.Helper()
		if rep := h.Rescan(context.Background(), TriggerAPI); rep.Err != nil {
			t.Fatal(rep.Err)
		}
		if got := strings.Join(h.workers.Units(), " "); got != want {
			t.Errorf("%s: workers %q, want %q", what, got, want)
		}
	}
	step("at start", "a.lua b.lua pack/")
	if err := os.Remove(filepath.Join(dir, "a.lua")); err != nil {
		t.Fatal(err)
	}
	step("a.lua deleted", "b.lua pack/")
	if err := os.Remove(filepath.Join(dir, "pack", "c.lua")); err != nil {
		t.Fatal(err)
	}
	step("one pack file deleted", "b.lua pack/")
	writeFiles(t, root, map[string]string{"hookhost.yaml": "defaults: { isolation: process }\nhooks:\n  b.lua: { isolation: none }\n"})
	step("b.lua in process", "pack/")
	if err := os.Remove(filepath.Join(dir, "pack", "d.lua")); err != nil {
		t.Fatal(err)
	}
	step("the pack's last file deleted", "")
}

// A reload that changes limits.memory replaces the workers, since a
// running process's limits cannot be raised: the hook answers on the new
// worker (its state store starts empty); a reload that leaves the limit
// alone keeps them.
func TestIsolatedMemoryLimitReload(t *testing.T) {
	code := `
local state = require("state")
hook.on("turn.pre", function() return hook.message(tostring(state.incr("n"))) end, { name = "count" })`
	h, root := isolatedHost(t, map[string]string{"a.lua": code}, "defaults: { isolation: process }\nlimits: { memory: 256MiB }\n")
	var got []string
	count := func() {
		t.Helper()
		r := fireOK(t, h, "turn.pre", nil)
		if len(r.Messages) != 1 {
			t.Fatalf("count: %+v", r.Trace)
		}
		got = append(got, r.Messages[0].Content)
	}
	reconfigure := func(config string) {
		t.Helper()
		writeFiles(t, root, map[string]string{"hookhost.yaml": config})
		if rep := h.Rescan(context.Background(), TriggerAPI); rep.Err != nil || rep.Config.Err != nil {
			t.Fatal(rep.Err, rep.Config.Err)
		}
	}
	count()
	count()
	reconfigure("defaults: { isolation: process }\nlimits: { memory: 256MiB }\nstrict: false\n")
	count()
	reconfigure("defaults: { isolation: process }\nlimits: { memory: 300MiB }\n")
	count()
	if strings.Join(got, " ") != "1 2 3 1" {
		t.Errorf("counts %v, want 1 2 3 (the same limit keeps the worker) then 1 (a new limit, a new worker)", got)
	}
}

// An edit whose top level kills the worker is a failed load like any
// other: the error names the worker's end, the last good version serves
// on (in the restarted worker), and the fix loads (both languages).
func TestIsolatedReloadThatKillsTheWorker(t *testing.T) {
	for name, bomb := range map[string]string{
		"a.lua": "local t = {}\nfor i = 1, 1e9 do t[i] = { i, i + 1, i + 2 } end\n",
		// grows a list one small list at a time, which no count sees
		"a.star": "def grow():\n    x = []\n    for i in range(1000000000):\n        x.append([i] * 64)\n\ngrow()\n",
	} {
		t.Run(name, func(t *testing.T) {
			deny := map[string]func(string) string{"a.lua": luaDeny, "a.star": starDeny}[name]
			h, root := isolatedHost(t, map[string]string{name: deny("one")}, "defaults: { isolation: process }\nlimits: { memory: 128MiB }\n")
			dir := filepath.Join(root, "hooks.d")
			writeFiles(t, dir, map[string]string{name: bomb + deny("two")})
			rep := h.Rescan(context.Background(), TriggerAPI)
			if rep.Err != nil || len(rep.Files) != 1 || rep.Files[0].Outcome != FileFailed ||
				!strings.Contains(fmt.Sprint(rep.Files[0].Err), "isolation: the worker process ended") {
				t.Fatalf("the bomb's edit: %+v (%v)", rep.Files, rep.Err)
			}
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "one" {
				t.Fatalf("after the failed edit: %+v %+v, want the last good version's deny", r.Decision, r.Trace)
			}
			writeFiles(t, dir, map[string]string{name: deny("three")})
			if rep := h.Rescan(context.Background(), TriggerAPI); len(rep.Files) != 1 || rep.Files[0].Outcome != FileReloaded {
				t.Fatalf("the fix: %+v", rep.Files)
			}
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "three" {
				t.Fatalf("after the fix: %+v %+v", r.Decision, r.Trace)
			}
		})
	}
}

// The wait for a starting worker is bounded by the caller's context: a
// fire whose context ends while the worker starts ends as any cancelled
// fire does, its hook's trace entry saying so.
func TestIsolatedStartWaitCancelled(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	exe, err := isolatetest.Wrapper(dir, testWorker, "if [ -e '"+marker+"' ]; then sleep 3; fi\ntouch '"+marker+"'")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := isolatedHostWith(t, exe, map[string]string{"a.star": `
def grow():
    x = []
    for i in range(1000000000):
        x.append([i] * 64)

def h(tool_name):
    if tool_name == "bomb":
        grow()
    return hook.deny(tool_name + " refused")

hook.on("tool.approve", h, timeout = "10s")`}, "defaults: { isolation: process }\nlimits: { memory: 128MiB }\n")
	if r := fireOK(t, h, "tool.approve", map[string]any{"tool_name": "bomb"}); !strings.Contains(r.Trace[0].Error, "the worker process ended") {
		t.Fatalf("bomb: %+v", r.Trace)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel) // while the restart sleeps its 3 s
	r, err := h.Fire(ctx, "tool.approve", map[string]any{"tool_name": "ls"})
	if !errors.Is(err, context.Canceled) || len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout ||
		r.Trace[0].Error != "the fire was cancelled: context canceled" || r.Decision.Action != Deny {
		t.Fatalf("a fire cancelled while the worker starts: %v %+v %+v", err, r.Decision, r.Trace)
	}
}

// testWorkerBuild is the build of the test workers' binary, which
// wrappers exec.
func testWorkerBuild(t *testing.T) string {
	t.Helper()
	id, err := isolate.ExecutableBuild(testWorker)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
