package metrics

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler(nil).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	body, _ := io.ReadAll(rec.Body)
	return string(body)
}

func fire(event string, action host.Action, trace ...host.TraceEntry) host.FireReport {
	return host.FireReport{Result: host.Result{Event: event, Decision: host.Decision{Action: action}, Trace: trace},
		Duration: 2 * time.Millisecond}
}

func TestSeries(t *testing.T) {
	dropped := uint64(0)
	problems := 0
	m := New(Options{DecisionLogDropped: func() uint64 { return dropped }, LoadProblems: func() int { return problems }})
	guard := host.TraceEntry{Hook: "g.lua:guard", Outcome: host.OutcomeDecision, Action: host.Deny, Duration: 300 * time.Microsecond}
	slow := host.TraceEntry{Hook: "s.star:slow", Outcome: host.OutcomeTimeout, Duration: 1200 * time.Millisecond}
	boom := host.TraceEntry{Hook: "b.lua:boom", Outcome: host.OutcomeError, Duration: 40 * time.Microsecond}
	m.FireDone(fire("tool.execute.pre", host.Deny, guard, slow))
	m.FireDone(fire("tool.execute.pre", host.Deny, guard))
	m.FireDone(fire("tool.execute.pre", host.Continue, boom))
	m.FireDone(fire("turn.pre", host.Continue))
	dry := host.TraceEntry{Hook: "n.lua:new", Outcome: host.OutcomeDecision, Action: host.Deny, Enforce: host.DryRun}
	m.FireDone(fire("tool.execute.pre", host.Continue, dry, dry))
	m.FireDone(fire("tool.execute.pre", host.Continue, host.TraceEntry{Hook: "n.lua:new", Outcome: host.OutcomeNone, Enforce: host.DryRun},
		host.TraceEntry{Hook: "w.star:loud", Outcome: host.OutcomeStop, Action: host.Deny, Enforce: host.Warn},
		host.TraceEntry{Hook: "w.star:broken", Outcome: host.OutcomeTimeout, Enforce: host.Warn}))
	m.QuarantineChanged(host.QuarantineReport{Hook: "s.star:slow", Quarantined: true})
	m.QuarantineChanged(host.QuarantineReport{Hook: "b.lua:boom", Quarantined: true})
	m.QuarantineChanged(host.QuarantineReport{Hook: "b.lua:boom", Quarantined: false})
	start := time.Unix(1700000000, 0)
	m.ReloadDone(host.ReloadReport{Generation: 1, Trigger: "start", Start: start})
	m.ReloadDone(host.ReloadReport{Generation: 2, Trigger: "watch", Start: start.Add(time.Second),
		Files: []host.FileOutcome{{Path: "a.lua", Outcome: host.FileFailed, Err: errors.New("a.lua:1: x")}}})
	dropped, problems = 7, 2

	text := scrape(t, m)
	for _, want := range []string{
		`hookhost_fires_total{action="deny",event="tool.execute.pre"} 2`,
		`hookhost_fires_total{action="continue",event="tool.execute.pre"} 3`,
		`hookhost_shadow_decisions_total{action="deny",enforce="dryrun",hook="n.lua:new"} 2`,
		`hookhost_shadow_decisions_total{action="continue",enforce="dryrun",hook="n.lua:new"} 1`,
		`hookhost_shadow_decisions_total{action="deny",enforce="warn",hook="w.star:loud"} 1`,
		`hookhost_shadow_decisions_total{action="timeout",enforce="warn",hook="w.star:broken"} 1`,
		`hookhost_hook_timeouts_total{hook="w.star:broken"} 1`,
		`hookhost_fires_total{action="continue",event="turn.pre"} 1`,
		`hookhost_fire_duration_seconds_count{event="tool.execute.pre"} 5`,
		`hookhost_hook_duration_seconds_count{hook="g.lua:guard"} 2`,
		`hookhost_hook_duration_seconds_bucket{hook="g.lua:guard",le="0.00025"} 0`,
		`hookhost_hook_duration_seconds_bucket{hook="g.lua:guard",le="0.0005"} 2`,
		`hookhost_hook_duration_seconds_sum{hook="g.lua:guard"} 0.0006`,
		`hookhost_hook_timeouts_total{hook="s.star:slow"} 1`,
		`hookhost_hook_errors_total{hook="b.lua:boom"} 1`,
		`hookhost_quarantines_total{hook="s.star:slow"} 1`,
		`hookhost_quarantines_total{hook="b.lua:boom"} 1`,
		`hookhost_hook_quarantined{hook="s.star:slow"} 1`,
		`hookhost_hook_quarantined{hook="b.lua:boom"} 0`,
		`hookhost_reloads_total{trigger="start"} 1`,
		`hookhost_reloads_total{trigger="watch"} 1`,
		`hookhost_reload_failures_total{trigger="watch"} 1`,
		`hookhost_last_reload_successful 0`,
		`hookhost_last_reload_timestamp_seconds 1.700000001e+09`,
		`hookhost_snapshot_generation 2`,
		`hookhost_decision_log_dropped_total 7`,
		`hookhost_load_problems 2`,
		"# TYPE hookhost_hook_duration_seconds histogram",
		"# TYPE hookhost_fires_total counter",
		"# TYPE hookhost_last_reload_successful gauge",
		"go_goroutines ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the scrape", want)
		}
	}
	if strings.Contains(text, `hookhost_hook_errors_total{hook="g.lua:guard"}`) {
		t.Errorf("an error counted for a hook that decided")
	}
	// A reload that leaves a.lua broken as it was: not a new failure, but
	// not successful either, since what is on disk does not serve.
	m.ReloadDone(host.ReloadReport{Generation: 2, Trigger: "watch",
		Files: []host.FileOutcome{{Path: "a.lua", Outcome: host.FileUnchanged, Err: errors.New("a.lua:1: x")}}})
	text = scrape(t, m)
	if !strings.Contains(text, "hookhost_last_reload_successful 0\n") || !strings.Contains(text, `hookhost_reload_failures_total{trigger="watch"} 1`+"\n") {
		t.Errorf("after a reload that left a.lua broken: want last_reload_successful 0 and still one failure")
	}
	m.ReloadDone(host.ReloadReport{Generation: 3, Trigger: "signal", Published: true})
	if text := scrape(t, m); !strings.Contains(text, "hookhost_last_reload_successful 1\n") {
		t.Errorf("after a good reload: last_reload_successful is not 1")
	}
}

// Two Metrics in one process do not collide.
func TestOwnSeries(t *testing.T) {
	a, b := New(Options{}), New(Options{})
	a.FireDone(fire("e", host.Allow))
	if strings.Contains(scrape(t, b), `hookhost_fires_total{`) {
		t.Errorf("a fire on one Metrics shows on the other")
	}
	if !strings.Contains(scrape(t, a), `hookhost_fires_total{action="allow",event="e"} 1`+"\n") {
		t.Errorf("the fire is not counted on its own Metrics")
	}
}

// Fires, reloads and quarantines recorded from several goroutines while
// others scrape are all counted (run with -race).
func TestConcurrent(t *testing.T) {
	m := New(Options{})
	const workers, each = 4, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range each {
				hook := fmt.Sprintf("h%d.lua:x", i%3)
				m.FireDone(fire("tool.execute.pre", host.Deny, host.TraceEntry{Hook: hook, Outcome: host.OutcomeTimeout, Duration: time.Duration(w+i) * time.Microsecond}))
				m.QuarantineChanged(host.QuarantineReport{Hook: hook, Quarantined: i%2 == 0})
				m.ReloadDone(host.ReloadReport{Trigger: "watch"})
			}
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				scrape(t, m)
			}
		}()
	}
	wg.Wait()
	text := scrape(t, m)
	for _, want := range []string{
		fmt.Sprintf(`hookhost_fires_total{action="deny",event="tool.execute.pre"} %d`, workers*each),
		fmt.Sprintf(`hookhost_fire_duration_seconds_count{event="tool.execute.pre"} %d`, workers*each),
		fmt.Sprintf(`hookhost_hook_duration_seconds_bucket{hook="h0.lua:x",le="+Inf"} %d`, workers*((each+2)/3)),
		fmt.Sprintf(`hookhost_reloads_total{trigger="watch"} %d`, workers*each),
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("no %q in the scrape", want)
		}
	}
}

// A scrape that cannot be served whole (a hook id that is not UTF-8,
// which Prometheus's parser refuses) is answered by onError alone, with
// the error: nothing of the scrape is served.
func TestHandlerGatherError(t *testing.T) {
	m := New(Options{})
	m.FireDone(fire("e", host.Allow, host.TraceEntry{Hook: "bad\xff.lua:h", Outcome: host.OutcomeDecision}))
	var got error
	rec := httptest.NewRecorder()
	m.Handler(func(w http.ResponseWriter, err error) {
		got = err
		w.WriteHeader(http.StatusTeapot)
	}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if got == nil || !strings.Contains(got.Error(), "gathering metrics") || !strings.Contains(got.Error(), "not valid UTF-8") {
		t.Errorf("onError got %v", got)
	}
	if rec.Code != http.StatusTeapot || rec.Body.Len() != 0 {
		t.Errorf("answer %d %q, want only what onError wrote", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	m.Handler(nil).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "not valid UTF-8") {
		t.Errorf("without onError: %d %q", rec.Code, rec.Body)
	}
}
