package host

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

func TestParseConfigRunSlots(t *testing.T) {
	for _, c := range []struct {
		yaml        string
		concurrency int
		wait        time.Duration
		err         string
	}{
		{yaml: "{}", concurrency: DefaultConcurrency(), wait: DefaultQueueTimeout},
		{yaml: "limits:\n  concurrency: 3\n  queue_timeout: 250ms\n", concurrency: 3, wait: 250 * time.Millisecond},
		{yaml: "limits:\n  concurrency: 0\n", err: "hookhost.yaml:2: limits.concurrency: want a number of hook calls from 1 to 4096, got \"0\""},
		{yaml: "limits:\n  concurrency: lots\n", err: "hookhost.yaml:2: limits.concurrency: want a number"},
		{yaml: "limits:\n\n  concurrency: 5000\n", err: "hookhost.yaml:3: limits.concurrency: want a number"},
		{yaml: "limits:\n  queue_timeout: -1s\n", err: "hookhost.yaml:2: limits.queue_timeout: duration must not be negative"},
		{yaml: "limits:\n  queue_timeout: 11m\n", err: "hookhost.yaml:2: limits.queue_timeout: 11m is over the"},
	} {
		cfg, err := ParseConfig("hookhost.yaml", []byte(c.yaml))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.yaml, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		if cfg.Concurrency() != c.concurrency || cfg.QueueTimeout() != c.wait {
			t.Errorf("%q: %d, %v", c.yaml, cfg.Concurrency(), cfg.QueueTimeout())
		}
	}
}

// holderHooks is a hook "hold" on session.end that takes a run slot and
// keeps it until released, in the given language, beside a guard "g" on
// tool.approve that allows at once.
func holderHooks(lang string) map[string]string {
	if lang == "lua" {
		return map[string]string{
			"hold.lua": `local probe = require("probe")
hook.on("session.end", function() probe.started() while not probe.released() do end end, { name = "hold", timeout = "60s" })`,
			"guard.lua": `hook.on("tool.approve", function() return hook.allow("ok") end, { name = "g", timeout = "1s" })`,
		}
	}
	return map[string]string{
		"hold.star": "load(\"probe\", \"probe\")\ndef hold():\n    probe.started()\n    while not probe.released():\n        pass\n" +
			"hook.on(\"session.end\", hold, name = \"hold\", timeout = \"60s\")",
		"guard.star": "hook.on(\"tool.approve\", lambda: hook.allow(\"ok\"), name = \"g\", timeout = \"1s\")",
	}
}

// holdSlot fires the holder and returns once it holds its run slot, with
// the function that lets it go and waits for its fire to end.
func holdSlot(t *testing.T, h *Host, started, released *atomic.Bool) (letGo func()) {
	t.Helper()
	started.Store(false)
	released.Store(false)
	done := make(chan struct{})
	go func() {
		h.Fire(context.Background(), "session.end", map[string]any{})
		close(done)
	}()
	for !started.Load() {
		runtime.Gosched()
	}
	return func() { released.Store(true); <-done }
}

// Hook calls beyond limits.concurrency wait in line for a run slot, and a
// hook's deadline starts when it has one: a guard that waited longer than
// its own timeout still answers. A call that waits longer than
// limits.queue_timeout fails, saying the host was saturated, and its
// error behaviour applies; the caller's context ends a wait too.
func TestRunSlots(t *testing.T) {
	for _, lang := range []string{"lua", "star"} {
		t.Run(lang, func(t *testing.T) {
			var started, released atomic.Bool
			probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{
				{Name: "started", Impl: func(*stdlib.Call) (any, error) { started.Store(true); return nil, nil }},
				{Name: "released", Impl: func(*stdlib.Call) (any, error) { return released.Load(), nil }},
			}}
			guard := "guard." + lang + ":g"
			h := hostWithConfig(t, holderHooks(lang), "limits:\n  concurrency: 1\n  queue_timeout: 10m\n",
				Options{Modules: []stdlib.Module{probe}})

			// The guard waits for the slot longer than its 1s timeout,
			// and answers once it runs.
			letGo := holdSlot(t, h, &started, &released)
			answered := make(chan Result, 1)
			go func() {
				r, _ := h.Fire(context.Background(), "tool.approve", map[string]any{})
				answered <- r
			}()
			for h.slots.waiting() == 0 {
				runtime.Gosched()
			}
			time.Sleep(1300 * time.Millisecond) // longer than the guard's timeout: its deadline has not started
			letGo()
			if r := <-answered; r.Decision.Action != Allow {
				t.Fatalf("the queued guard: %+v %+v, want its allow", r.Decision, r.Trace)
			}

			// The caller's context ends a wait: a timeout of the fire,
			// which at tool.approve denies.
			letGo = holdSlot(t, h, &started, &released)
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				for h.slots.waiting() == 0 {
					runtime.Gosched()
				}
				cancel()
			}()
			r, err := h.Fire(ctx, "tool.approve", map[string]any{})
			if !errors.Is(err, context.Canceled) || r.Decision.Action != Deny || len(r.Trace) != 1 || r.Trace[0].Outcome != OutcomeTimeout {
				t.Fatalf("cancelled in line: %+v, %v", r, err)
			}
			letGo()

			// Past queue_timeout the call fails, saying the host was
			// saturated, and the guard's own error behaviour applies.
			for _, c := range []struct {
				behavior string
				want     Action
			}{{"skip", Continue}, {"deny", Deny}} {
				h := hostWithConfig(t, holderHooks(lang), "limits:\n  concurrency: 1\n  queue_timeout: 1ms\n"+
					"hooks:\n  guard."+lang+":\n    error_behavior: "+c.behavior+"\n", Options{Modules: []stdlib.Module{probe}})
				letGo = holdSlot(t, h, &started, &released)
				r, err := h.Fire(context.Background(), "tool.approve", map[string]any{})
				letGo()
				if err != nil {
					t.Fatal(err)
				}
				e := entry(r, guard)
				if e == nil || e.Outcome != OutcomeError || !strings.Contains(e.Error, "the host was saturated: no run slot free within 1ms") {
					t.Fatalf("saturated: trace %+v", r.Trace)
				}
				if r.Decision.Action != c.want || c.want == Deny && !strings.Contains(r.Decision.Reason, "the host was saturated") {
					t.Fatalf("saturated: %+v, want %s", r.Decision, c.want)
				}
			}
		})
	}
}
