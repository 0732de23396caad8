package host

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// blockingModule has one function that blocks until the test ends,
// ignoring its context: the kind of builtin only abandonment escapes.
func blockingModule(t *testing.T, blocking bool) stdlib.Module {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return stdlib.Module{Name: "stuck", Funcs: []stdlib.Func{{
		Name: "wait", Blocking: blocking,
		Impl: func(*stdlib.Call) (any, error) { <-release; return nil, nil },
	}}}
}

func newTestHost(t *testing.T, files map[string]string, opts Options) *Host {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, code := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(code)}
	}
	opts.FS = fsys
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// A builtin that never returns is abandoned at the deadline, so Fire
// moves on; three abandonments quarantine the hook until it is released.
func TestAbandonAndQuarantine(t *testing.T) {
	cases := []struct{ event, file, code string }{
		{"tool.approve", "stuck.lua", `
local stuck = require("stuck")
hook.on("tool.approve", function() stuck.wait() end, { name = "h", timeout = "30ms" })`},
		{"tool.approve", "stuck.star", `
load("stuck", "stuck")
hook.on("tool.approve", lambda: stuck.wait(), name = "h", timeout = "30ms")`},
	}
	for _, c := range cases {
		id := c.file + ":h"
		t.Run(id, func(t *testing.T) {
			obs := &recordingObserver{}
			h := newTestHost(t, map[string]string{c.file: c.code}, Options{Modules: []stdlib.Module{blockingModule(t, true)}, Observer: obs})
			fire := func() Result {
				r, err := h.Fire(context.Background(), c.event, map[string]any{"tool_name": "x"})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			for i := 0; i < strikeLimit; i++ {
				if e := entry(fire(), id); e == nil || e.Outcome != OutcomeTimeout {
					t.Fatalf("fire %d: want a timeout for %s, got %+v", i, id, e)
				}
			}
			if !slices.Contains(h.Quarantined(), id) {
				t.Fatalf("%s not quarantined: %v", id, h.Quarantined())
			}
			// Quarantined, the guard is not called, and its event's
			// error behaviour (deny at tool.approve) applies.
			r := fire()
			if e := entry(r, id); e == nil || e.Outcome != OutcomeError || !strings.Contains(e.Error, "quarantined since") {
				t.Fatalf("a quarantined hook: %+v", e)
			}
			if r.Decision.Action != Deny || !strings.Contains(r.Decision.Reason, "quarantined since") ||
				!strings.Contains(r.Decision.Reason, "could not be stopped at its deadline") {
				t.Fatalf("a quarantined guard: %+v, want a deny saying why", r.Decision)
			}
			if !h.Release(id) || slices.Contains(h.Quarantined(), id) {
				t.Fatalf("release failed")
			}
			if e := entry(fire(), id); e == nil || e.Outcome != OutcomeTimeout {
				t.Fatalf("a released hook did not run: %+v", e)
			}
			obs.mu.Lock()
			defer obs.mu.Unlock()
			if q := obs.quarantines; len(q) != 2 || q[0].Hook != id || !q[0].Quarantined || q[1].Quarantined {
				t.Errorf("the observer was told %+v, want quarantined then released", q)
			}
		})
	}
}

func entry(r Result, id string) *TraceEntry {
	for i := range r.Trace {
		if r.Trace[i].Hook == id {
			return &r.Trace[i]
		}
	}
	return nil
}

// A hook interrupted at its deadline that stops at once is a timeout but
// no strike: only calls that had to be abandoned count. A Lua pattern
// that backtracks for seconds stops at the deadline too.
func TestPromptTimeoutIsNoStrike(t *testing.T) {
	h := newTestHost(t, map[string]string{
		"loop.lua":    `hook.on("tool.execute.pre", function() while true do end end, { name = "h", timeout = "10ms" })`,
		"pattern.lua": `hook.on("tool.execute.pre", function() string.find(string.rep("a", 2000), ".-.-b") end, { name = "h", timeout = "10ms" })`,
		"loop.star":   "def h():\n    while True:\n        pass\nhook.on(\"tool.execute.pre\", h, timeout = \"10ms\")",
	}, Options{})
	for i := 0; i < strikeLimit+1; i++ {
		r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Trace {
			if e.Outcome != OutcomeTimeout {
				t.Fatalf("want timeouts, got %+v", r.Trace)
			}
		}
	}
	if q := h.Quarantined(); len(q) != 0 {
		t.Fatalf("quarantined: %v", q)
	}
}

// The caller's context bounds the whole fire: cancelling it interrupts
// the running hook, Fire returns the context's error, and a fail-closed
// event denies.
func TestFireCancelled(t *testing.T) {
	h := newTestHost(t, map[string]string{
		"loop.lua":  `hook.on("tool.approve", function() while true do end end, { name = "h", timeout = "10m" })`,
		"loop.star": "def h():\n    while True:\n        pass\nhook.on(\"tool.approve\", h, timeout = \"10m\")",
	}, Options{})
	for _, mk := range []func() (context.Context, context.CancelFunc){
		func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(20*time.Millisecond, cancel)
			return ctx, cancel
		},
		func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		},
	} {
		ctx, cancel := mk()
		r, err := h.Fire(ctx, "tool.approve", map[string]any{})
		cancel()
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
		if r.Decision.Action != Deny || len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout ||
			!strings.Contains(r.Trace[0].Error, "cancelled") {
			t.Fatalf("result = %+v", r)
		}
	}
}

// A fire cancelled with a cause (serve stopping) says the cause in the
// deny's reason and the trace; Fire's error is still context.Canceled.
func TestFireCancelledWithCause(t *testing.T) {
	h := newTestHost(t, map[string]string{
		"loop.lua": `hook.on("tool.approve", function() while true do end end, { name = "h", timeout = "10m" })`,
	}, Options{})
	ctx, cancel := context.WithCancelCause(context.Background())
	stopping := errors.New("hookhost serve is stopping")
	time.AfterFunc(20*time.Millisecond, func() { cancel(stopping) })
	r, err := h.Fire(ctx, "tool.approve", map[string]any{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if r.Decision.Action != Deny || !strings.HasSuffix(r.Decision.Reason, "the fire was cancelled: hookhost serve is stopping") ||
		len(r.Trace) != 1 || r.Trace[0].Error != "the fire was cancelled: hookhost serve is stopping" {
		t.Fatalf("result = %+v", r)
	}
}

// A builtin that ignores its context and is not marked blocking runs on
// the caller's goroutine: the fire waits for it, then counts the late
// result as a timeout and a strike.
func TestLateResultIsTimeout(t *testing.T) {
	slow := stdlib.Module{Name: "slow", Funcs: []stdlib.Func{{
		Name: "sleep", Impl: func(*stdlib.Call) (any, error) { time.Sleep(120 * time.Millisecond); return nil, nil },
	}}}
	h := newTestHost(t, map[string]string{
		"s.lua": `local slow = require("slow")
hook.on("tool.execute.pre", function() slow.sleep() return hook.deny("late") end, { name = "h", timeout = "10ms" })`,
	}, Options{Modules: []stdlib.Module{slow}})
	r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision.Action != Continue || r.Trace[0].Outcome != OutcomeTimeout {
		t.Fatalf("result = %+v", r)
	}
}

// Closing the host interrupts hooks that are still running: no watchdog
// is left to stop them at their deadline. The trace says the host was
// closed, in both languages.
func TestCloseInterruptsRunningHooks(t *testing.T) {
	for name, src := range map[string]string{
		"loop.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function() probe.started() while true do end end, { name = "h", timeout = "10m" })`,
		"loop.star": "load(\"probe\", \"probe\")\ndef h():\n    probe.started()\n    while True:\n        pass\nhook.on(\"tool.execute.pre\", h, name = \"h\", timeout = \"10m\")",
	} {
		t.Run(name, func(t *testing.T) {
			started := make(chan struct{})
			probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{{
				Name: "started", Impl: func(*stdlib.Call) (any, error) { close(started); return nil, nil },
			}}}
			h := newTestHost(t, map[string]string{name: src}, Options{Modules: []stdlib.Module{probe}})
			done := make(chan Result)
			go func() {
				r, _ := h.Fire(context.Background(), "tool.execute.pre", nil)
				done <- r
			}()
			<-started
			h.Close()
			if r := <-done; len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout || r.Trace[0].Error != "interrupted: the host was closed" {
				t.Fatalf("%+v", r)
			}
		})
	}
}

// A call's memory is only reused when the watchdog goroutine was not
// looking at the slots as the call left its slot, and never from the
// overflow map; what is reused holds nothing of its last call.
func TestWatchedCallReuse(t *testing.T) {
	// The test plays the watchdog goroutine's passes itself: a real one
	// running beside it would make the count of passes even again.
	w := unstartedWatchdog(0)
	c := w.newCall()
	c.Payload, c.Hook, c.Deadline = map[string]any{"secret": "x"}, "a.lua:h", time.Now().Add(time.Hour)
	slot := w.watch(c)
	if slot < 0 || !w.unwatch(slot, c) {
		t.Fatal("a call unregistered between passes is not reusable")
	}
	slot = w.watch(c)
	w.passes.Add(1) // a pass is running
	reusable := w.unwatch(slot, c)
	w.passes.Add(1)
	if reusable {
		t.Fatal("a call unregistered during a pass is reusable")
	}
	c.heapHit.Store(heapHitOf(1, true))
	c.isolated = true
	w.reuseCall(c)
	if c.Payload != nil || c.Hook != "" || !c.Deadline.IsZero() || c.Interrupted() || c.heapHit.Load() != heapNotHit || c.isolated {
		t.Fatalf("a reused call still holds %+v", c)
	}
}
