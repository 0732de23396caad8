package host

import (
	"context"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// blame names the hook to blame and whether it counts a strike (only
// when a call's own meter explains the heap), or makes the hooks running
// suspects.
func TestHeapBlame(t *testing.T) {
	const limit = 1600 // a call is to blame from 100 bytes charged
	call := func(hook string, charged int64) *watchedCall {
		c := &watchedCall{}
		c.Hook = hook
		_ = c.Charge(charged, 0)
		return c
	}
	cases := []struct {
		name        string
		suspects    []string
		running     []string
		charged     []int64 // by running call; none when nil
		culprits    []string
		strike      bool
		newSuspects []string
	}{
		{"nothing running", nil, nil, nil, nil, false, nil},
		{"one hook, its meter low", nil, []string{"a"}, []int64{99}, []string{"a"}, false, nil},
		{"one hook, its meter high", nil, []string{"a"}, []int64{100}, []string{"a"}, true, nil},
		{"one hook, two calls", nil, []string{"a", "a"}, []int64{10, 200}, []string{"a"}, true, nil},
		{"two hooks, one meter high", nil, []string{"a", "b"}, []int64{10, 500}, []string{"b"}, true, nil},
		{"two hooks, both meters high", nil, []string{"a", "b"}, []int64{700, 500}, []string{"a", "b"}, true, nil},
		{"a meter beats a suspect", []string{"a"}, []string{"a", "b"}, []int64{0, 500}, []string{"b"}, true, []string{"a"}},
		{"two hooks, no suspect", nil, []string{"a", "b"}, nil, nil, false, []string{"a", "b"}},
		{"two hooks, one suspect", []string{"b"}, []string{"a", "b"}, nil, []string{"b"}, false, []string{"b"}},
		{"two hooks, both suspects", []string{"a", "b"}, []string{"a", "b", "c"}, nil, nil, false, []string{"a", "b", "c"}},
		{"a suspect not running", []string{"z"}, []string{"a", "b"}, nil, nil, false, []string{"a", "b", "z"}},
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
			for i, id := range tc.running {
				var charged int64
				if tc.charged != nil {
					charged = tc.charged[i]
				}
				running = append(running, call(id, charged))
			}
			culprits, strike := w.blame(running, now, limit)
			if !slices.Equal(culprits, tc.culprits) || strike != tc.strike {
				t.Fatalf("blame = %q, %v; want %q, %v", culprits, strike, tc.culprits, tc.strike)
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
		w.blame([]*watchedCall{call("a", 0), call("b", 0)}, now, limit)
		if !w.isSuspect("a", now+suspectFor-time.Second) || w.isSuspect("a", now+suspectFor) {
			t.Fatal("a suspect does not stay one for suspectFor, and no longer")
		}
		w.blame([]*watchedCall{call("c", 0), call("d", 0)}, now+suspectFor, limit)
		if s := w.suspects.Load(); len(*s) != 2 {
			t.Fatalf("expired suspects kept: %v", *s)
		}
	})
}

// A memory bomb in one file that runs while another file's guard runs
// does not get the guard struck, quarantined or even interrupted: the
// bomb's own meter blames it, and it alone is struck until it is
// quarantined.
func TestHeapBlameSparesTheHookBesideABomb(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB, concurrency: 8 }\n"))
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
			for round := 1; round <= strikeLimit; round++ {
				runtime.GC()
				released.Store(false)
				guardDone, bombDone := fireBeside(h, &started, "tool.execute.pre", "tool.execute.post")
				// The bomb's meter shows what it built: it alone is
				// interrupted and struck, and the guard runs on.
				bombed := <-bombDone
				released.Store(true)
				guard := <-guardDone
				if guard.Decision.Action != Deny || guard.Decision.Reason != "guarded" {
					t.Fatalf("round %d: the guard decided %+v, trace %+v", round, guard.Decision, guard.Trace)
				}
				want := `hook "` + bombID + `": memory limit: the host's heap passed 64MiB while this hook ran`
				if len(bombed.Trace) != 1 || !strings.Contains(bombed.Trace[0].Error, want) {
					t.Fatalf("round %d: the bomb's trace %+v, want %q", round, bombed.Trace, want)
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
	var logs syncBuffer
	h, _ := isolatedHostOptions(t, map[string]string{
		"spin.lua": `hook.on("tool.execute.pre", function() print("spinning") while true do end end, { name = "spin", timeout = "1s" })`,
		"bomb.lua": `
hook.on("tool.execute.post", function()
  local t, s = {}, string.rep("x", 1024)
  for i = 1, 1e9 do t[i] = s .. i end
end, { name = "bomb", timeout = "60s" })`,
	}, "hooks:\n  spin.lua: { isolation: process }\nlimits: { memory: 128MiB, concurrency: 8 }\n",
		Options{Limits: scripting.Limits{MaxCallMemory: 1 << 40}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	runtime.GC()
	spun := make(chan Result)
	go func() {
		r, _ := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
		spun <- r
	}()
	for deadline := time.Now().Add(waitDeadline); !strings.Contains(logs.String(), "spinning"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the isolated hook did not start within %v:\n%s", waitDeadline, logs.String())
		}
	}
	bombed := fireOK(t, h, "tool.execute.post", map[string]any{})
	if len(bombed.Trace) != 1 || !strings.Contains(bombed.Trace[0].Error, "heap passed 128MiB while this hook ran") ||
		strings.Contains(bombed.Trace[0].Error, "not counted") {
		t.Fatalf("the bomb's trace %+v, want it blamed", bombed.Trace)
	}
	if r := <-spun; len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout {
		t.Fatalf("the isolated hook's trace %+v, want its own timeout", r.Trace)
	}
}

// Fresh memory bombs, each a hook never seen before, that run beside a
// guard cannot get the guard struck or interrupted: each bomb's meter
// blames it alone.
func TestHeapBlameNeverStrikesAGuardBesideBombs(t *testing.T) {
	cfg := heapLimited(t)
	var started, released atomic.Bool
	probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{
		{Name: "started", Impl: func(*stdlib.Call) (any, error) { started.Store(true); return nil, nil }},
		{Name: "released", Impl: func(*stdlib.Call) (any, error) { return released.Load(), nil }},
	}}
	events := []string{"session.end", "file.save.post", "message.received", "notification"}
	bombs := ""
	for i, event := range events {
		bombs += luaHeapBomb(event, "bomb"+string(rune('1'+i)), "60s")
	}
	h := newTestHost(t, map[string]string{
		"guard.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function()
  probe.started()
  while not probe.released() do end
  return hook.deny("guarded")
end, { name = "guard", timeout = "60s" })`,
		"bombs.lua": bombs,
	}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	for round, event := range events {
		runtime.GC()
		released.Store(false)
		guardDone, bombDone := fireBeside(h, &started, "tool.execute.pre", event)
		bombed := <-bombDone
		released.Store(true)
		guard := <-guardDone
		if guard.Decision.Action != Deny || guard.Decision.Reason != "guarded" {
			t.Fatalf("round %d: the guard decided %+v, trace %+v", round, guard.Decision, guard.Trace)
		}
		if len(bombed.Trace) != 1 || !strings.HasSuffix(bombed.Trace[0].Error, "heap passed 64MiB while this hook ran") {
			t.Fatalf("round %d: the bomb's trace %+v, want it blamed", round, bombed.Trace)
		}
	}
	if q := h.Quarantined(); len(q) != 0 {
		t.Fatalf("quarantined %v, want none", q)
	}
	if n := strikesOf(h, "guard.lua:guard"); n != 0 {
		t.Fatalf("the guard has %d strikes, want none", n)
	}
}

// A heap that something other than the hooks grew (here the test itself,
// as serve's request buffers once did) interrupts the hooks running to
// keep the process alive, but strikes none of them: their meters show
// they did not grow it. The guard fails with its own error behaviour
// (deny at tool.approve) and is never quarantined.
func TestHeapGrownElsewhereIsNoStrike(t *testing.T) {
	cfg := heapLimited(t)
	for _, c := range []struct{ file, code string }{
		{"guard.lua", `local probe = require("probe")
hook.on("tool.approve", function()
  probe.started()
  while true do end
end, { name = "guard", timeout = "60s" })`},
		{"guard.star", "load(\"probe\", \"probe\")\ndef guard():\n    probe.started()\n    while True:\n        pass\n" +
			"hook.on(\"tool.approve\", guard, name = \"guard\", timeout = \"60s\")"},
	} {
		t.Run(c.file, func(t *testing.T) {
			probe, started := startedProbe()
			h := newTestHost(t, map[string]string{c.file: c.code}, Options{Config: cfg, Modules: []stdlib.Module{probe}})
			id := c.file + ":guard"
			for round := range strikeLimit + 1 {
				runtime.GC()
				started.Store(false)
				done := make(chan Result, 1)
				go func() {
					r, _ := h.Fire(context.Background(), "tool.approve", map[string]any{})
					done <- r
				}()
				for !started.Load() {
					runtime.Gosched()
				}
				// Hold 96 MiB the hook did not allocate until the fire ends.
				var held [][]byte
				var r Result
			grow:
				for {
					select {
					case r = <-done:
						break grow
					default:
						if len(held) < 96 {
							held = append(held, make([]byte, 1<<20))
						} else {
							runtime.Gosched()
						}
					}
				}
				runtime.KeepAlive(held)
				if len(r.Trace) != 1 || !strings.Contains(r.Trace[0].Error, "(its own allocations do not explain it: not counted against it)") {
					t.Fatalf("round %d: trace %+v, want an interruption not counted", round, r.Trace)
				}
				if r.Decision.Action != Deny {
					t.Fatalf("round %d: %+v, want the guard's failure to deny", round, r.Decision)
				}
			}
			if n := strikesOf(h, id); n != 0 || len(h.Quarantined()) != 0 {
				t.Fatalf("%d strikes, quarantined %v: want none", n, h.Quarantined())
			}
		})
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
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB, concurrency: 8 }\n"))
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

// A bomb that caught the interrupt and built more before it left leaves
// its memory live until it returns: the hook left running beside it is
// not blamed for that heap, by its meter or by the unwinding rule.
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
		"guard.lua": `local probe = require("probe")
hook.on("session.end", function()
  probe.started()
  local n = 0
  for i = 1, 3e6 do n = n + i end
end, { name = "guard", timeout = "60s" })`,
	}, Options{Config: cfg, Modules: []stdlib.Module{probe}, Limits: scripting.Limits{MaxCallMemory: 1 << 40}})
	for round := range 3 {
		runtime.GC()
		gd, bd := fireBeside(h, started, "session.end", "tool.execute.post")
		guard := <-gd
		<-bd
		if len(guard.Trace) == 1 && strings.HasSuffix(guard.Trace[0].Error, "while this hook ran") {
			t.Fatalf("round %d: the guard was blamed for the bomb's heap: %+v", round, guard.Trace)
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
	cfg, err := ParseConfig("hookhost.yaml", []byte("limits: { memory: 64MiB, concurrency: 8 }\n"))
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
	// Beside the holder, which built 30 MiB itself, both meters explain
	// the heap: both are interrupted and blamed, and the holder stays in
	// its builtin, unwinding.
	first := fireOK(t, h, "file.save.post", map[string]any{})
	if len(first.Trace) != 1 || !strings.HasSuffix(first.Trace[0].Error, "heap passed 64MiB while this hook ran") {
		t.Fatalf("the first bomb's trace %+v, want it blamed", first.Trace)
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
	if r := <-held; len(r.Trace) != 1 || !strings.HasSuffix(r.Trace[0].Error, "heap passed 64MiB while this hook ran") {
		t.Fatalf("the holder's trace %+v, want it blamed", r.Trace)
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
