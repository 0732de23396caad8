package host

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// recordingObserver keeps what it is told.
type recordingObserver struct {
	mu          sync.Mutex
	fires       []FireReport
	reloadList  []ReloadReport
	quarantines []QuarantineReport
	panicOn     string // a method name to panic in
}

func (o *recordingObserver) FireDone(r FireReport) {
	o.mu.Lock()
	o.fires = append(o.fires, r)
	o.mu.Unlock()
	o.maybePanic("FireDone")
}

func (o *recordingObserver) ReloadDone(r ReloadReport) {
	o.mu.Lock()
	o.reloadList = append(o.reloadList, r)
	o.mu.Unlock()
	o.maybePanic("ReloadDone")
}

func (o *recordingObserver) QuarantineChanged(r QuarantineReport) {
	o.mu.Lock()
	o.quarantines = append(o.quarantines, r)
	o.mu.Unlock()
	o.maybePanic("QuarantineChanged")
}

func (o *recordingObserver) maybePanic(method string) {
	if o.panicOn == method {
		panic("observer failure in " + method)
	}
}

func (o *recordingObserver) reloads() []ReloadReport {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]ReloadReport(nil), o.reloadList...)
}

func (o *recordingObserver) fireReports() []FireReport {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]FireReport(nil), o.fires...)
}

func TestObserverFireAndReload(t *testing.T) {
	for _, lang := range []struct{ name, file, code string }{
		{"lua", "a.lua", `hook.on("tool.approve", function() return hook.deny("no") end, { name = "a" })`},
		{"starlark", "a.star", "hook.on(\"tool.approve\", lambda: hook.deny(\"no\"), name = \"a\")"},
	} {
		t.Run(lang.name, func(t *testing.T) {
			obs := &recordingObserver{}
			h := newTestHost(t, map[string]string{lang.file: lang.code}, Options{Observer: obs})
			payload := map[string]any{"tool_name": "x"}
			r, err := h.Fire(context.Background(), "tool.approve", payload)
			if err != nil {
				t.Fatal(err)
			}
			h.Fire(context.Background(), "no.such.event", nil) // did not run: not reported
			fires := obs.fireReports()
			if len(fires) != 1 {
				t.Fatalf("%d fire reports", len(fires))
			}
			f := fires[0]
			if f.Result.Decision != r.Decision || f.Generation != 1 || f.Input["tool_name"] != "x" || f.Duration <= 0 || f.Start.IsZero() {
				t.Errorf("fire report %+v", f)
			}
			if rs := obs.reloads(); len(rs) != 1 || rs[0].Trigger != TriggerStart || rs[0].Files[0].Outcome != FileAdded {
				t.Errorf("reload reports %+v", rs)
			}
		})
	}
}

// A panicking observer is recovered and logged; the fire's answer stands.
func TestObserverPanicIsRecovered(t *testing.T) {
	for _, method := range []string{"FireDone", "ReloadDone"} {
		t.Run(method, func(t *testing.T) {
			var logs bytes.Buffer
			obs := &recordingObserver{panicOn: method}
			h := newTestHost(t, map[string]string{"a.lua": `hook.on("tool.approve", function() return hook.deny("no") end, { name = "a" })`},
				Options{Observer: obs, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			r, err := h.Fire(context.Background(), "tool.approve", nil)
			if err != nil || r.Decision.Action != Deny {
				t.Fatalf("%+v %v", r, err)
			}
			if !strings.Contains(logs.String(), "observer panicked") || !strings.Contains(logs.String(), method) {
				t.Errorf("logs: %s", logs.String())
			}
		})
	}
}

// Observers fans out, skipping nils; one panicking observer does not keep
// the next from being told.
func TestObservers(t *testing.T) {
	if Observers() != nil || Observers(nil, nil) != nil {
		t.Fatal("no observers should be nil")
	}
	one := &recordingObserver{}
	if Observers(nil, one) != Observer(one) {
		t.Fatal("a single observer should be itself")
	}
	bad, good := &recordingObserver{panicOn: "FireDone"}, &recordingObserver{}
	var logs bytes.Buffer
	h, err := New(context.Background(), Options{
		FS:       fstest.MapFS{"a.lua": {Data: []byte(`hook.on("tool.approve", function() end, { name = "a" })`)}},
		Observer: Observers(bad, nil, good), Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Fire(context.Background(), "tool.approve", nil)
	if len(bad.fireReports()) != 1 || len(good.fireReports()) != 1 || len(good.reloads()) != 1 {
		t.Fatalf("fan-out: bad %d, good %d fires", len(bad.fireReports()), len(good.fireReports()))
	}
	if !strings.Contains(logs.String(), "observer panicked") {
		t.Errorf("the panic was not logged: %s", logs.String())
	}
}

// Release of a quarantined hook is reported.
func TestObserverQuarantineReleased(t *testing.T) {
	obs := &recordingObserver{}
	h := newTestHost(t, map[string]string{"a.lua": `hook.on("tool.approve", function() end, { name = "a" })`}, Options{Observer: obs})
	r, _ := h.strikes.record("a.lua:a", h.Files()[0].Version)
	if !r.strike(time.Now(), "a") && !r.strike(time.Now(), "b") && !r.strike(time.Now(), "c") {
		t.Fatal("three strikes did not quarantine")
	}
	if !h.Release("a.lua:a") || h.Release("a.lua:a") {
		t.Fatal("release")
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if len(obs.quarantines) != 1 || obs.quarantines[0].Hook != "a.lua:a" || obs.quarantines[0].Quarantined {
		t.Fatalf("%+v", obs.quarantines)
	}
}
