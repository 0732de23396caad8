package host

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// blame names the hook to blame and whether it counts a strike, or makes
// the hooks running suspects.
func TestHeapBlame(t *testing.T) {
	call := func(hook string) *watchedCall {
		c := &watchedCall{}
		c.Hook = hook
		return c
	}
	cases := []struct {
		name        string
		suspects    []string
		running     []string
		culprit     string
		strike      bool
		newSuspects []string
	}{
		{"nothing running", nil, nil, "", false, nil},
		{"one hook", nil, []string{"a"}, "a", true, nil},
		{"one hook, two calls", nil, []string{"a", "a"}, "a", true, nil},
		{"two hooks, no suspect", nil, []string{"a", "b"}, "", false, []string{"a", "b"}},
		{"two hooks, one suspect", []string{"b"}, []string{"a", "b"}, "b", false, []string{"b"}},
		{"two hooks, both suspects", []string{"a", "b"}, []string{"a", "b", "c"}, "", false, []string{"a", "b", "c"}},
		{"a suspect not running", []string{"z"}, []string{"a", "b"}, "", false, []string{"a", "b", "z"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := unstartedWatchdog(0)
			now := monoNow()
			if tc.suspects != nil {
				s := suspectSet{}
				for _, id := range tc.suspects {
					s[id] = int64(now + time.Minute)
				}
				w.suspects.Store(&s)
			}
			var running []*watchedCall
			for _, id := range tc.running {
				running = append(running, call(id))
			}
			culprit, strike := w.blame(running, now)
			if culprit != tc.culprit || strike != tc.strike {
				t.Fatalf("blame = %q, %v; want %q, %v", culprit, strike, tc.culprit, tc.strike)
			}
			for _, id := range tc.newSuspects {
				if !w.isSuspect(id, now) {
					t.Errorf("%s is not a suspect", id)
				}
			}
			if w.isSuspect("other", now) {
				t.Error("a hook that never ran is a suspect")
			}
		})
	}
	t.Run("suspects expire", func(t *testing.T) {
		w := unstartedWatchdog(0)
		now := monoNow()
		w.blame([]*watchedCall{call("a"), call("b")}, now)
		if !w.isSuspect("a", now+suspectFor-time.Second) || w.isSuspect("a", now+suspectFor) {
			t.Fatal("a suspect does not stay one for suspectFor, and no longer")
		}
		w.blame([]*watchedCall{call("c"), call("d")}, now+suspectFor)
		if s := w.suspects.Load(); len(*s) != 2 {
			t.Fatalf("expired suspects kept: %v", *s)
		}
	})
}

// A memory bomb in one file that runs while another file's guard runs
// does not get the guard struck or quarantined: the first time, both are
// interrupted and neither is struck; then they run one at a time, the
// guard decides, and the bomb alone is struck until it is quarantined.
func TestHeapBlameSparesTheHookBesideABomb(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB }\n"))
	if err != nil {
		t.Fatal(err)
	}
	bombs := map[string]string{
		"bomb.lua": `
hook.on("tool.execute.post", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 1e9 do t[i] = s .. i end
end, { name = "bomb", timeout = "60s" })`,
		"bomb.star": `
def bomb():
    x, s = [], "x" * 1024
    for i in range(1000000000):
        x.append(s + str(i))

hook.on("tool.execute.post", bomb, timeout = "60s")`,
	}
	for file, bomb := range bombs {
		t.Run(file, func(t *testing.T) {
			var started, released atomic.Bool
			probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{
				{Name: "started", Impl: func(*stdlib.Call) (any, error) { started.Store(true); return nil, nil }},
				{Name: "released", Impl: func(*stdlib.Call) (any, error) { return released.Load(), nil }},
			}}
			h := newTestHost(t, map[string]string{
				"guard.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function()
  probe.started()
  while not probe.released() do end
  return hook.deny("guarded")
end, { name = "guard", timeout = "60s" })`,
				file: bomb,
			}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
			bombID := file + ":bomb"
			for round := 1; round <= 1+strikeLimit; round++ {
				runtime.GC()
				released.Store(false)
				guardDone, bombDone := fireBeside(h, &started, "tool.execute.pre", "tool.execute.post")
				var guard, bombed Result
				if round == 1 {
					// Nothing is a suspect yet: the bomb runs beside the
					// guard until the heap passes the limit, which
					// interrupts both.
					bombed = <-bombDone
					released.Store(true)
					guard = <-guardDone
					for _, r := range []Result{guard, bombed} {
						if len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeError ||
							!strings.Contains(r.Trace[0].Error, "beside others (not counted against it)") {
							t.Fatalf("round 1: trace %+v, want an interruption not counted", r.Trace)
						}
					}
				} else {
					// Both are suspects: the bomb waits for the guard's
					// turn, then runs alone and is blamed.
					time.Sleep(20 * time.Millisecond) // the bomb fire starts waiting (or not yet: either way it runs after the guard)
					released.Store(true)
					guard, bombed = <-guardDone, <-bombDone
					if guard.Decision.Action != Deny || guard.Decision.Reason != "guarded" {
						t.Fatalf("round %d: the guard decided %+v, trace %+v", round, guard.Decision, guard.Trace)
					}
					want := `hook "` + bombID + `": memory limit: the host's heap passed 64MiB while this hook ran`
					if len(bombed.Trace) != 1 || !strings.Contains(bombed.Trace[0].Error, want) {
						t.Fatalf("round %d: the bomb's trace %+v, want %q", round, bombed.Trace, want)
					}
				}
			}
			if q := h.Quarantined(); len(q) != 1 || q[0] != bombID {
				t.Fatalf("quarantined %v, want only %s", q, bombID)
			}
			if r, _ := h.Fire(context.Background(), "tool.execute.post", map[string]any{}); len(r.Trace) != 1 ||
				r.Trace[0].Outcome != OutcomeError || !strings.Contains(r.Trace[0].Error, "quarantined since") {
				t.Fatalf("the quarantined bomb ran: %+v", r.Trace)
			}
		})
	}
}

// An isolated hook's memory is its worker's, not the host's: a bomb in
// the host running beside it is the only one blamed, even the first
// time, and the isolated hook runs on to its own end (here its deadline).
func TestHeapBlameSparesIsolatedHooks(t *testing.T) {
	h, _ := isolatedHostLimits(t, map[string]string{
		"spin.lua": `hook.on("tool.execute.pre", function() while true do end end, { name = "spin", timeout = "1s" })`,
		"bomb.lua": `
hook.on("tool.execute.post", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 1e9 do t[i] = s .. i end
end, { name = "bomb", timeout = "60s" })`,
	}, "hooks:\n  spin.lua: { isolation: process }\nlimits: { memory: 128MiB }\n", scripting.Limits{MaxCallMemory: 1 << 40})
	runtime.GC()
	spun := make(chan Result)
	go func() {
		r, _ := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
		spun <- r
	}()
	time.Sleep(100 * time.Millisecond) // the isolated hook is spinning by now, or soon
	bombed := fireOK(t, h, "tool.execute.post", map[string]any{})
	if len(bombed.Trace) != 1 || !strings.Contains(bombed.Trace[0].Error, "heap passed 128MiB while this hook ran") ||
		strings.Contains(bombed.Trace[0].Error, "beside others") {
		t.Fatalf("the bomb's trace %+v, want it blamed", bombed.Trace)
	}
	if r := <-spun; len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout {
		t.Fatalf("the isolated hook's trace %+v, want its own timeout", r.Trace)
	}
}

// Fresh memory bombs, each a hook never seen before, that run beside a
// guard already suspected cannot get the guard struck: as the one suspect
// running it is interrupted, never struck, and each bomb, left alone, is.
func TestHeapBlameNeverStrikesASuspectBesideOthers(t *testing.T) {
	cfg := heapLimited(t)
	probe, started := startedProbe()
	events := []string{"session.end", "file.save.post", "message.received", "notification"}
	bombs := ""
	for i, event := range events {
		bombs += luaHeapBomb(event, "bomb"+string(rune('1'+i)), "60s")
	}
	h := newTestHost(t, map[string]string{
		"guard.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function()
  probe.started()
  while true do end
end, { name = "guard", timeout = "60s" })`,
		"bombs.lua": bombs,
	}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	for round, event := range events {
		runtime.GC()
		guardDone, bombDone := fireBeside(h, started, "tool.execute.pre", event)
		guard, bombed := <-guardDone, <-bombDone
		if len(guard.Trace) != 1 || !strings.Contains(guard.Trace[0].Error, "beside others (not counted against it)") {
			t.Fatalf("round %d: the guard's trace %+v, want an interruption not counted", round, guard.Trace)
		}
		if round > 0 && (len(bombed.Trace) != 1 || !strings.HasSuffix(bombed.Trace[0].Error, "heap passed 64MiB while this hook ran")) {
			t.Fatalf("round %d: the bomb's trace %+v, want it blamed once alone", round, bombed.Trace)
		}
	}
	if q := h.Quarantined(); len(q) != 0 {
		t.Fatalf("quarantined %v, want none", q)
	}
}

// strikesOf counts a hook's strikes.
func strikesOf(h *Host, id string) int {
	h.strikes.mu.Lock()
	r := h.strikes.byID[id]
	h.strikes.mu.Unlock()
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.times)
}

// One time the heap passes the limit is one strike for the hook to
// blame, however many of its calls ran then: one session's payload must
// not quarantine a guard that serves every session.
func TestHeapBlameStrikesOncePerEvent(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB }\n"))
	if err != nil {
		t.Fatal(err)
	}
	var spinning atomic.Int32
	probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{
		{Name: "spinning", Impl: func(*stdlib.Call) (any, error) { spinning.Add(1); return nil, nil }},
	}}
	h := newTestHost(t, map[string]string{"guard.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function(big)
  if big then
    local t, s = {}, string.rep("x", 1024)
    for i = 1, 1e9 do t[i] = s .. i end
  end
  probe.spinning()
  while true do end
end, { name = "guard", timeout = "60s" })`}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	runtime.GC()
	done := make(chan Result, 3)
	for range 2 {
		go func() {
			r, _ := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
			done <- r
		}()
	}
	for spinning.Load() < 2 {
		runtime.Gosched()
	}
	go func() {
		r, _ := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"big": true})
		done <- r
	}()
	for range 3 {
		if r := <-done; len(r.Trace) != 1 || !strings.HasSuffix(r.Trace[0].Error, "heap passed 64MiB while this hook ran") {
			t.Fatalf("trace %+v, want each call interrupted and blamed", r.Trace)
		}
	}
	if n := strikesOf(h, "guard.lua:guard"); n != 1 {
		t.Fatalf("%d strikes for one time the heap passed the limit, want 1", n)
	}
}

// A suspect interrupted without a strike, which caught the interrupt and
// built more before it left, leaves its memory live until it returns: the
// hook left running beside it is not blamed for that heap.
func TestHeapBlameWaitsForInterruptedCallsToLeave(t *testing.T) {
	cfg := heapLimited(t)
	probe, started := startedProbe()
	h := newTestHost(t, map[string]string{
		"bomb.lua": `
hook.on("tool.execute.post", function()
  local t, s = {}, string.rep("x", 1024)
  pcall(function() for i = 1, 1e9 do t[i] = s .. i end end)
  return t
end, { name = "bomb", timeout = "60s" })`,
		"spin.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function()
  probe.started()
  local n = 0
  for i = 1, 3e6 do n = n + i end
end, { name = "spin", timeout = "60s" })`,
		"guard.lua": `local probe = require("probe")
hook.on("session.end", function()
  probe.started()
  local n = 0
  for i = 1, 3e6 do n = n + i end
end, { name = "guard", timeout = "60s" })`,
	}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	besideBomb := func(event string) (guard, bomb Result) {
		runtime.GC()
		gd, bd := fireBeside(h, started, event, "tool.execute.post")
		return <-gd, <-bd
	}
	// Make the bomb a suspect: beside spin, neither can be blamed.
	spin, _ := besideBomb("tool.execute.pre")
	if !h.wd.isSuspect("bomb.lua:bomb", monoNow()) {
		t.Fatalf("the bomb is not a suspect after running beside spin: %+v", spin.Trace)
	}
	for round := range 3 {
		guard, _ := besideBomb("session.end")
		if len(guard.Trace) == 1 && strings.HasSuffix(guard.Trace[0].Error, "while this hook ran") {
			t.Fatalf("round %d: the guard was blamed for the suspect's heap: %+v", round, guard.Trace)
		}
	}
	if n := strikesOf(h, "guard.lua:guard"); n != 0 {
		t.Fatalf("the guard has %d strikes, want none", n)
	}
}

// fireBeside starts a fire of first, waits until its hook says it started
// (started), then starts a fire of second beside it; both results arrive
// on the channels.
func fireBeside(h *Host, started *atomic.Bool, first, second string) (firstDone, secondDone chan Result) {
	started.Store(false)
	firstDone, secondDone = make(chan Result, 1), make(chan Result, 1)
	go func() {
		r, _ := h.Fire(context.Background(), first, map[string]any{})
		firstDone <- r
	}()
	for !started.Load() {
		runtime.Gosched()
	}
	go func() {
		r, _ := h.Fire(context.Background(), second, map[string]any{})
		secondDone <- r
	}()
	return firstDone, secondDone
}

// heapLimited is a config whose heap limit is 64 MiB.
func heapLimited(t *testing.T) *Config {
	t.Helper()
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB }\n"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startedProbe is a module "probe" whose started() sets the flag.
func startedProbe() (stdlib.Module, *atomic.Bool) {
	started := new(atomic.Bool)
	return stdlib.Module{Name: "probe", Funcs: []stdlib.Func{
		{Name: "started", Impl: func(*stdlib.Call) (any, error) { started.Store(true); return nil, nil }},
	}}, started
}

// While a call the heap limit interrupted is slow to return (here: held
// in a builtin that ignores the interrupt, keeping what it built), the
// watchdog still stops another hook that grows the heap past half as
// much again as the limit, once the garbage already left is collected.
func TestHeapBlameStopsABombWhileAnotherUnwinds(t *testing.T) {
	cfg := heapLimited(t)
	holding, release := make(chan struct{}), make(chan struct{})
	probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{{Name: "hold", Impl: func(*stdlib.Call) (any, error) {
		close(holding)
		select {
		case <-release:
		case <-time.After(time.Minute):
		}
		return nil, nil
	}}}}
	h := newTestHost(t, map[string]string{
		"holder.lua": `local probe = require("probe")
hook.on("session.end", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 30000 do t[i] = s .. i end
  probe.hold()
  return #t
end, { name = "holder", timeout = "60s" })`,
		"bombs.lua": luaHeapBomb("file.save.post", "first", "60s") + luaHeapBomb("notification", "second", "20s"),
	}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	runtime.GC()
	held := make(chan Result, 1)
	go func() {
		r, _ := h.Fire(context.Background(), "session.end", map[string]any{})
		held <- r
	}()
	<-holding
	// Beside the holder, the first bomb cannot be blamed: both are
	// interrupted, and the holder stays in its builtin, unwinding.
	first := fireOK(t, h, "file.save.post", map[string]any{})
	if len(first.Trace) != 1 || !strings.Contains(first.Trace[0].Error, "beside others") {
		t.Fatalf("the first bomb's trace %+v, want an interruption not counted", first.Trace)
	}
	// The second bomb runs alone while the holder unwinds: it is stopped
	// at half as much again as the limit, not left to grow.
	second := fireOK(t, h, "notification", map[string]any{})
	if len(second.Trace) != 1 || !strings.HasSuffix(second.Trace[0].Error, "heap passed 64MiB while this hook ran") {
		t.Fatalf("the second bomb's trace %+v, want it stopped and blamed", second.Trace)
	}
	select {
	case r := <-held:
		t.Fatalf("the holder returned before it was released: %+v", r.Trace)
	default:
	}
	close(release)
	if r := <-held; len(r.Trace) != 1 || !strings.Contains(r.Trace[0].Error, "beside others") {
		t.Fatalf("the holder's trace %+v, want an interruption not counted", r.Trace)
	}
}

// luaHeapBomb registers a Lua hook on event that grows the heap without
// end (a table of fresh 1 KiB strings) until it is interrupted.
func luaHeapBomb(event, name, timeout string) string {
	return `
hook.on("` + event + `", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 1e9 do t[i] = s .. i end
end, { name = "` + name + `", timeout = "` + timeout + `" })`
}
