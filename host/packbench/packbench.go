// Package packbench fires a shipped pack (hooks.d) in a benchmark, in
// process, on tool calls as Claude Code sends them, once for each of
// several engines. The engine packages use it to show what each of their
// speed-only rewrites gains on a real guard's fire, by comparing an
// engine with every rewrite on against one with a rewrite off
// (docs/benchmarks.md, "Speed-only rewrites on a guard's fire").
package packbench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/benchcpu"
)

// A Variant is an engine a pack is fired with, under a name.
type Variant struct {
	Name   string
	Engine scripting.Engine
}

// An Event is one call of a hook event with its payload.
type Event struct {
	Name    string
	Event   string
	Payload map[string]any
}

// claudeTool is a Claude Code PreToolUse event as hooks see it: Claude's
// own fields and the hookhost names the Claude dialect adds (params for
// tool_input, workspace for cwd).
func claudeTool(tool string, input map[string]any) map[string]any {
	return map[string]any{
		"session_id": "5e1f2c3a-0b9d-4c1e-9a7f-2d6b8e4c1a30", "transcript_path": "/home/dev/.claude/projects/p/5e1f.jsonl",
		"cwd": "/work/project", "workspace": "/work/project", "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "params": input,
		"tool_use_id": "toolu_01ABCDEF",
	}
}

// Mix returns the tool calls each op fires, one after another: what an agent
// does most (shell lines that run builds and searches, writes and edits
// inside the workspace), with a few of the calls the packs are there to
// stop, and a web fetch and a turn's end for the packs on those.
func Mix() []Event {
	return []Event{
		{"bash-test", host.EventToolExecutePre, claudeTool("Bash", map[string]any{"command": "git status && go test ./... 2>&1 | tail -20", "description": "Run the tests"})},
		{"bash-grep", host.EventToolExecutePre, claudeTool("Bash", map[string]any{"command": `grep -rn "TODO" src/ | head -50`})},
		{"bash-build", host.EventToolExecutePre, claudeTool("Bash", map[string]any{"command": "rm -rf ./build && mkdir -p build && cp -r assets build/"})},
		{"bash-rm-root", host.EventToolExecutePre, claudeTool("Bash", map[string]any{"command": "sudo rm -rf / --no-preserve-root"})},
		{"bash-force-push", host.EventToolExecutePre, claudeTool("Bash", map[string]any{"command": "git push --force origin main"})},
		{"write-inside", host.EventToolExecutePre, claudeTool("Write", map[string]any{"file_path": "/work/project/src/util.go", "content": "package src\n\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n"})},
		{"write-outside", host.EventToolExecutePre, claudeTool("Write", map[string]any{"file_path": "/etc/profile.d/env.sh", "content": "export PATH=$PATH:/opt/bin\n"})},
		{"write-key", host.EventToolExecutePre, claudeTool("Write", map[string]any{"file_path": "/work/project/.env", "content": "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"})},
		{"edit-inside", host.EventToolExecutePre, claudeTool("Edit", map[string]any{"file_path": "/work/project/src/main.go", "old_string": "fmt.Println(\"hello\")", "new_string": "fmt.Println(\"hello, world\")"})},
		{"edit-settings", host.EventToolExecutePre, claudeTool("Edit", map[string]any{"file_path": "/work/project/.claude/settings.json", "old_string": `"allow": []`, "new_string": `"allow": ["Bash(*)"]`})},
		{"web-fetch", host.EventToolExecutePre, claudeTool("WebFetch", map[string]any{"url": "https://pkg.go.dev/net/http", "prompt": "How do I set a timeout?"})},
		{"stop", host.EventLoopContinue, map[string]any{
			"session_id": "5e1f2c3a-0b9d-4c1e-9a7f-2d6b8e4c1a30", "cwd": "/work/project", "workspace": "/work/project",
			"hook_event_name": "Stop", "stop_hook_active": false,
			"last_assistant_message": "Done so far:\n- [x] parse the flags\n- [ ] write the tests\n- [ ] update the docs\n",
			"response":               "Done so far:\n- [x] parse the flags\n- [ ] write the tests\n- [ ] update the docs\n",
		}},
	}
}

// Fire benchmarks the pack (a directory of hooks.d) firing every event of
// Mix, once per op, with each variant in turn: sub-benchmarks
// pack/variant, so that -count runs the variants one after another,
// interleaved. It reports cpu-ns/fire, the process's CPU time per fire,
// and what a fire allocates (B/fire, allocs/fire). Before timing, it
// checks that every variant gives every event the same result (Same).
func Fire(b *testing.B, pack string, variants []Variant) { FireCalls(b, pack, pack, variants, Mix()) }

// Denied is the call of Mix that the packs and the small guards deny
// (sudo rm -rf /): fired alone, it measures a fire that decides.
func Denied() []Event {
	for _, e := range Mix() {
		if e.Name == "bash-rm-root" {
			return []Event{e}
		}
	}
	panic("packbench: Mix has no bash-rm-root")
}

// FireCalls is Fire on calls instead of Mix, its sub-benchmarks named
// label/variant; Same still checks the variants on the whole Mix (and
// Saves).
func FireCalls(b *testing.B, label, pack string, variants []Variant, calls []Event) {
	fireCalls(b, label, pack, variants, calls, "")
}

// fireCalls is FireCalls; when decides is not empty, it first checks
// that each variant's host, warmed up, decides every call so (decided).
func fireCalls(b *testing.B, label, pack string, variants []Variant, calls []Event, decides host.Action) {
	// The hosts are made inside the label's benchmark, so that a -bench
	// that selects none of its variants skips their set-up too (under
	// callgrind, the set-up of every pack is most of a run).
	b.Run(label, func(b *testing.B) {
		ctx := context.Background()
		hosts := same(b, pack, variants)
		for i, v := range variants {
			h := hosts[i]
			// Each variant starts alike: its host warm, and no garbage of
			// the set-up or of the variant before it left to collect.
			for range warmUp {
				fire(b, ctx, h, calls)
			}
			if decides != "" {
				decided(b, ctx, h, label+"/"+v.Name, calls, decides)
			}
			runtime.GC()
			b.Run(v.Name, func(b *testing.B) { timeFires(b, ctx, h, calls) })
		}
	})
}

// timeFires fires every call once per op, and reports cpu-ns/fire,
// B/fire and allocs/fire.
func timeFires(b *testing.B, ctx context.Context, h *host.Host, calls []Event) {
	var res host.Result
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := benchcpu.Used(b)
	for b.Loop() {
		for _, e := range calls {
			if err := h.FireInto(ctx, &res, e.Event, e.Payload); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu := benchcpu.Used(b) - start
	runtime.ReadMemStats(&after)
	fires := float64(b.N * len(calls))
	b.ReportMetric(float64(cpu)/fires, "cpu-ns/fire")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/fires, "B/fire")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/fires, "allocs/fire")
}

// Saves are file.save.pre events (an editor's or an agent's save of a
// file, which cannot ask) that the shipped packs with a save hook deny:
// outside the workspace, an environment file, an agent's settings.
func Saves() []Event {
	save := func(name, path string) Event {
		return Event{name, host.EventFileSavePre, map[string]any{
			"path": path, "content": "x\n", "cwd": "/work/project", "workspace": "/work/project",
		}}
	}
	return []Event{
		save("save-outside", "/etc/cron.d/job"),
		save("save-env", "/work/project/.env"),
		save("save-settings", "/work/project/.claude/settings.json"),
	}
}

// A Decided is calls that a shipped pack decides alike, fired in turn by
// FireDecided: Label is the pack and what it decides (pack-ask,
// pack-deny), Action what every call's fire comes to.
type Decided struct {
	Label  string
	Action host.Action
	Calls  []Event
}

// decidedCalls names, for each shipped pack, the calls of Mix and Saves
// it decides, by what it decides: where a speed rewrite of a decision
// (Starlark's hoisting, the reason shortcuts) can act on a shipped pack.
var decidedCalls = map[string][]struct {
	what   host.Action
	events []string
}{
	"outside-workspace": {{host.Ask, []string{"write-outside"}}, {host.Deny, []string{"save-outside"}}},
	// Over its 10 fetches a minute (the hosts' clock stands still).
	"web-fetch-limit": {{host.Deny, []string{"web-fetch"}}},
	// Sends the agent back to work three fires in four: its max_rounds
	// is 3, and the fourth lets the agent stop and starts again.
	"todo-continue":    {{host.Allow, []string{"stop"}}},
	"destructive":      {{host.Deny, []string{"bash-rm-root"}}},
	"git-risky":        {{host.Ask, []string{"bash-force-push"}}},
	"protect-settings": {{host.Ask, []string{"bash-rm-root", "edit-settings"}}, {host.Deny, []string{"save-settings"}}},
	"secrets":          {{host.Ask, []string{"write-key"}}, {host.Deny, []string{"save-env"}}},
}

// Decides is what the shipped pack decides, one Decided for each kind of
// decision (ask, deny, allow with a reason).
func Decides(pack string) []Decided {
	byName := map[string]Event{}
	for _, e := range append(Mix(), Saves()...) {
		byName[e.Name] = e
	}
	var out []Decided
	for _, d := range decidedCalls[pack] {
		label := pack + "-" + string(d.what)
		if d.what == host.Allow {
			label = pack + "-continue"
		}
		calls := make([]Event, len(d.events))
		for i, name := range d.events {
			calls[i] = byName[name]
		}
		out = append(out, Decided{Label: label, Action: d.what, Calls: calls})
	}
	return out
}

// FireDecided is FireCalls on the calls of d, named d.Label/variant, after
// checking that every variant's host decides each of them as d says.
func FireDecided(b *testing.B, pack string, d Decided, variants []Variant) {
	fireCalls(b, d.Label, pack, variants, d.Calls, d.Action)
}

// decided fails tb unless the host, fired on every call four times in a
// row, decides each of them with the action want at least three times
// (todo-continue lets the agent stop every fourth time), by a hook of its
// own and not by a failure's error behaviour.
func decided(tb testing.TB, ctx context.Context, h *host.Host, label string, calls []Event, want host.Action) {
	for _, e := range calls {
		n := 0
		for range 4 {
			res, err := h.Fire(ctx, e.Event, e.Payload)
			if err != nil {
				tb.Fatalf("%s, %s: %v", label, e.Name, err)
			}
			failed := false
			for _, t := range res.Trace {
				failed = failed || t.Error != ""
			}
			if res.Decision.Action == want && res.Decision.Hook != "" && !failed {
				n++
			}
		}
		if n < 3 {
			tb.Fatalf("%s, %s: decided %s %d times in 4, want at least 3", label, e.Name, want, n)
		}
	}
}

// Same fails tb unless the pack, loaded on a host of each variant, gives
// every event of Mix and Saves the same result with every variant, fired three
// times (later fires find what earlier ones kept, such as a recycled
// binding, and the packs' state): the decision, the messages, and each
// hook's outcome, action and error.
func Same(tb testing.TB, pack string, variants []Variant) { same(tb, pack, variants) }

// same is Same, returning the hosts.
func same(tb testing.TB, pack string, variants []Variant) []*host.Host {
	fsys := packFS(tb, pack)
	ctx := context.Background()
	// The host's heap watchdog samples the whole process: in a test
	// binary, another test's garbage can pass the default 512 MiB while a
	// pack runs here and fail one variant's hook, which is not the
	// difference this compares. The budget is set far above that.
	cfg, err := host.ParseConfig("packbench.yaml", []byte("limits:\n  memory: 64GiB\n"))
	if err != nil {
		tb.Fatal(err)
	}
	hosts := make([]*host.Host, len(variants))
	for i, v := range variants {
		h, err := host.New(ctx, host.Options{FS: fsys, Config: cfg, Engines: []scripting.Engine{v.Engine}, Now: stoppedClock})
		if err != nil {
			tb.Fatalf("%s: %v", v.Name, err)
		}
		tb.Cleanup(func() { h.Close() })
		hosts[i] = h
	}
	want := results(tb, ctx, hosts[0])
	for i, h := range hosts[1:] {
		got := results(tb, ctx, h)
		for j := range want {
			if got[j] != want[j] {
				tb.Fatalf("%s: %s gives\n%s\nand %s\n%s", pack, variants[i+1].Name, got[j], variants[0].Name, want[j])
			}
		}
	}
	return hosts
}

// stoppedClock is the hosts' clock: it stands still, so that what a
// pack keeps in its state (web-fetch-limit's fetches of the last minute,
// todo-continue's rounds of the last hour) never expires while a
// benchmark runs, however slowly (under callgrind, say).
func stoppedClock() time.Time { return time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC) }

// warmUp is how many times each variant fires the mix before it is timed.
const warmUp = 20

// fire fires each call once.
func fire(tb testing.TB, ctx context.Context, h *host.Host, calls []Event) {
	var res host.Result
	for _, e := range calls {
		if err := h.FireInto(ctx, &res, e.Event, e.Payload); err != nil {
			tb.Fatal(err)
		}
	}
}

// An observed result is what Same compares of a fire: everything but
// the durations.
type observed struct {
	Decision host.Decision
	Messages []host.Message
	Trace    []observedHook
	Problems []string
}

type observedHook struct {
	Hook           string
	Outcome        host.Outcome
	Action         host.Action
	Error, Enforce string
}

// results fires every event of Mix and Saves three times and describes what each
// fire gave.
func results(tb testing.TB, ctx context.Context, h *host.Host) []string {
	var out []string
	calls := append(Mix(), Saves()...)
	for round := range 3 {
		for _, e := range calls {
			res, err := h.Fire(ctx, e.Event, e.Payload)
			if err != nil {
				tb.Fatalf("%s: %v", e.Name, err)
			}
			o := observed{Decision: res.Decision, Messages: res.Messages, Problems: res.Problems}
			for _, t := range res.Trace {
				o.Trace = append(o.Trace, observedHook{Hook: t.Hook, Outcome: t.Outcome, Action: t.Action, Error: t.Error, Enforce: fmt.Sprint(t.Enforce)})
			}
			d, err := json.Marshal(o)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s, round %d: %s", e.Name, round, d))
		}
	}
	return out
}

// Small guards are pseudo-packs: the guard most operators write first
// (the README's: deny a shell command containing "rm -rf /", one payload
// field read with get, a decision with a literal reason), in each
// language, so that a speed rewrite's gain can be shown on a small
// guard's fire beside the shipped packs'.
const (
	SmallGuardLua  = "small-guard-lua"
	SmallGuardStar = "small-guard-star"
)

var smallGuards = map[string]fstest.MapFS{
	SmallGuardLua: {"guard.lua": &fstest.MapFile{Data: []byte(`hook.on("tool.execute.pre", function(tool_name, params)
  if tool_name == "Bash" and string.find(params.command or "", "rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  end
end, { name = "guard" })
`)}},
	SmallGuardStar: {"guard.star": &fstest.MapFile{Data: []byte(`def guard(tool_name, params):
    if tool_name == "Bash" and "rm -rf /" in params.get("command", ""):
        return hook.deny("refusing to delete the root filesystem")

hook.on("tool.execute.pre", guard, name = "guard")
`)}},
}

// packFS is the pack's files, without its tests, as a host's scripts.
func packFS(tb testing.TB, pack string) fstest.MapFS {
	if fsys, ok := smallGuards[pack]; ok {
		return fsys
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "hooks.d", pack)
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.Contains(name, "_test.") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		fsys[pack+"/"+name] = &fstest.MapFile{Data: data}
	}
	return fsys
}
