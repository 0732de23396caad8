package testrun

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeDir writes files (slash paths relative to a new directory) and
// returns the directory.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFind(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"a_test.lua": "", "b_test.star": "", "c_test.yaml": "", "d_test.json": "", "e_test.yml": "",
		"guard.lua": "", "test.lua": "", "x_test.txt": "", ".hidden_test.lua": "",
		"pack/p_test.lua": "", "pack/HOOK.md": "", "pack/.q_test.lua": "",
		"pack/deeper/r_test.lua": "", ".dotdir/s_test.lua": "",
	})
	got, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a_test.lua", "b_test.star", "c_test.yaml", "d_test.json", "pack/p_test.lua"}
	if !slices.Equal(got, want) {
		t.Errorf("Find: %v, want %v", got, want)
	}
	if _, err := Find(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("Find of a missing directory: no error")
	}
}

// counterHooks count calls per session in the state module: a test sees
// a count of 1 only if no other test's fires reached its host.
var counterHooks = map[string]string{
	"count.lua": `local state = require("state")
hook.on("turn.pre", function(session_id)
  if state.incr("n:" .. session_id) > 1 then return hook.deny("again") end
end, { name = "count" })`,
	"idle.star": "def idle():\n    pass\nhook.on(\"session.end\", idle)\n",
}

func TestRunIsolatesScriptTests(t *testing.T) {
	files := map[string]string{
		"count_test.lua": `local expect = require("expect")
function test_b() expect.action(hook.fire("turn.pre", { session_id = "s" }), "continue") end
function test_a() expect.action(hook.fire("turn.pre", { session_id = "s" }), "continue") end
`,
		"count_test.star": `load("expect", "expect")
def test_one():
    expect.action(hook.fire("turn.pre", {"session_id": "s"}), "continue")
    expect.action(hook.fire("turn.pre", {"session_id": "s"}), "deny")
def test_two():
    expect.action(hook.fire("turn.pre", {"session_id": "s"}), "continue")
`,
		// A table's cases share one host, in order.
		"count_test.yaml": `cases:
  - {name: first, event: turn.pre, payload: {session_id: s}, expect: {action: continue}}
  - {name: second, event: turn.pre, payload: {session_id: s}, expect: {action: deny, reason: again}}
`,
	}
	for k, v := range counterHooks {
		files[k] = v
	}
	var streamed []string
	rep, err := Run(context.Background(), Options{Dir: writeDir(t, files), OnResult: func(r Result) {
		streamed = append(streamed, r.File+":"+r.Name)
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"count_test.lua:test_b", "count_test.lua:test_a", "count_test.star:test_one",
		"count_test.star:test_two", "count_test.yaml:first", "count_test.yaml:second"}
	if !slices.Equal(streamed, want) {
		t.Errorf("results %v, want %v", streamed, want)
	}
	for _, r := range rep.Results {
		if r.Outcome != Pass {
			t.Errorf("%s:%d: %s: %s %s", r.File, r.Line, r.Name, r.Outcome, r.Failure)
		}
	}
	if rep.Passed() != 6 || rep.Failed() != 0 || len(rep.LoadErrors) != 0 || len(rep.Problems) != 0 {
		t.Errorf("passed %d, failed %d, load errors %v, problems %v", rep.Passed(), rep.Failed(), rep.LoadErrors, rep.Problems)
	}
	cov := rep.Coverage()
	if len(cov) != 2 || cov[0].File != "count.lua" || len(cov[0].Unfired()) != 0 ||
		cov[1].File != "idle.star" || !slices.Equal(cov[1].Unfired(), []string{"idle.star:idle"}) {
		t.Errorf("coverage %+v", cov)
	}
}

func TestRunMatchAndOutcomes(t *testing.T) {
	files := map[string]string{
		"o_test.lua": `local expect = require("expect")
function test_pass() expect.eq(1, 1) end
function test_fail() expect.eq(1, 2, "sums") end
function test_timeout() while true do end end
function test_misuse() hook.fire("no.such.event") end
`,
		"o_test.star": "def test_timeout():\n    while True:\n        pass\n",
	}
	for k, v := range counterHooks {
		files[k] = v
	}
	dir := writeDir(t, files)
	type outcome struct {
		name    string
		outcome Outcome
		failure string
	}
	// The tests that must not time out get a deadline no loaded machine
	// reaches; the endless loops get a short one, which they always pass.
	for _, c := range []struct {
		match   string
		timeout time.Duration
		want    []outcome
	}{
		{"fail|misuse", time.Minute, []outcome{
			{"test_fail", Fail, "o_test.lua:3: expect.eq: sums: got 1, want 2"},
			{"test_misuse", Error, `o_test.lua:5: hook.fire: unknown event "no.such.event" (known events: `},
		}},
		{"timeout", 100 * time.Millisecond, []outcome{
			{"test_timeout", Error, "o_test.lua:4: test_timeout timed out after 100ms"},
			{"test_timeout", Error, "o_test.star:1: test_timeout timed out after 100ms"},
		}},
	} {
		rep, err := Run(context.Background(), Options{Dir: dir, Timeout: c.timeout, Match: regexp.MustCompile(c.match)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != len(c.want) {
			t.Fatalf("-run %s: %d results, want %d: %+v", c.match, len(rep.Results), len(c.want), rep.Results)
		}
		for i, w := range c.want {
			r := rep.Results[i]
			if r.Name != w.name || r.Outcome != w.outcome || !strings.HasPrefix(r.Failure, w.failure) {
				t.Errorf("-run %s: result %d: %s %s %q, want %s %s %q…", c.match, i, r.Name, r.Outcome, r.Failure, w.name, w.outcome, w.failure)
			}
		}
	}
}

// TestRunHooksDir: the hooks see the directory tested as ctx.hooks_dir,
// in both languages, unless a table file names another (hooks_dir).
func TestRunHooksDir(t *testing.T) {
	root := writeDir(t, map[string]string{
		"guards/where.lua":  `hook.on("turn.pre", function(ctx) return hook.deny(ctx.hooks_dir) end, { name = "where" })`,
		"guards/where.star": "def where(ctx):\n    return hook.deny(ctx.hooks_dir)\nhook.on(\"tool.execute.pre\", where)\n",
		"guards/tested_test.yaml": `cases:
  - {name: lua, event: turn.pre, expect: {action: deny, reason_contains: /guards}}
  - {name: star, event: tool.execute.pre, payload: {tool_name: x}, expect: {action: deny, reason_contains: /guards}}
`,
		"guards/named_test.yaml": `hooks_dir: /srv/elsewhere
cases:
  - {name: lua, event: turn.pre, expect: {action: deny, reason: /srv/elsewhere}}
  - {name: star, event: tool.execute.pre, payload: {tool_name: x}, expect: {action: deny, reason: /srv/elsewhere}}
`,
	})
	dir := filepath.Join(root, "guards")
	rep, err := Run(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed() != 4 || rep.Failed() != 0 || len(rep.LoadErrors) != 0 {
		t.Fatalf("passed %d, failed %d, load errors %v: %+v", rep.Passed(), rep.Failed(), rep.LoadErrors, rep.Results)
	}
	for _, r := range rep.Results {
		if r.File != "tested_test.yaml" {
			continue
		}
		if got := r.Fires[0].Result.Decision.Reason; got != dir {
			t.Errorf("%s: ctx.hooks_dir %q, want the directory tested %q", r.Name, got, dir)
		}
	}
}

// TestRunCancelled: cancelling the run interrupts the running test (here
// as soon as it prints), starts no other, and returns the report so far
// with the context's error.
func TestRunCancelled(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"c_test.lua": "function test_forever() print(\"started\") while true do end end\nfunction test_next() end\n",
		"d_test.lua": "function test_later() end\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep, err := Run(ctx, Options{Dir: dir, Timeout: time.Minute, Logger: slog.New(cancelOnRecord{cancel})})
	if !errors.Is(err, context.Canceled) || rep == nil {
		t.Fatalf("Run: %v, %v; want the report and context.Canceled", rep, err)
	}
	if len(rep.Results) == 0 || rep.Results[0].Outcome != Error || !strings.Contains(rep.Results[0].Failure, "test_forever was interrupted") {
		t.Errorf("results %+v, want test_forever interrupted", rep.Results)
	}
	for _, r := range rep.Results {
		if r.Name == "test_later" || r.Name == "test_next" {
			t.Errorf("%s ran after the cancel", r.Name)
		}
	}
}

// cancelOnRecord is a slog handler that cancels a run at its first record.
type cancelOnRecord struct{ cancel context.CancelFunc }

func (h cancelOnRecord) Enabled(context.Context, slog.Level) bool  { return true }
func (h cancelOnRecord) Handle(context.Context, slog.Record) error { h.cancel(); return nil }
func (h cancelOnRecord) WithAttrs([]slog.Attr) slog.Handler        { return h }
func (h cancelOnRecord) WithGroup(string) slog.Handler             { return h }

// TestNoHostAfterTheTest: a fire that starts after its test ended (one
// the deadline abandoned) gets an error, not a new host nobody closes.
func TestNoHostAfterTheTest(t *testing.T) {
	r := &runner{opts: Options{Dir: writeDir(t, counterHooks)}, report: &Report{}}
	ts := &testState{r: r}
	if _, err := ts.host(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts.close()
	if _, err := ts.fire(context.Background(), "turn.pre", map[string]any{}, nil); !errors.Is(err, errTestEnded) {
		t.Errorf("fire after close: %v, want %v", err, errTestEnded)
	}
}
