package metrics

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/hookhost/hookhost/host"
)

// The format checks: what WriteText writes is read by Prometheus's own
// text parser, and for hookhost's metrics it is, line for line, what
// client_golang writes for the same observations into the same metrics
// (reference below, the definitions serve used before the format was
// written here). client_golang is linked into this test only.

// reference is the metrics as client_golang defines them.
type reference struct {
	reg                                                   *prometheus.Registry
	fires, hookTimeouts, hookErrors, quarantines, reloads *prometheus.CounterVec
	reloadFailures                                        *prometheus.CounterVec
	fireDuration, hookDuration                            *prometheus.HistogramVec
	quarantined                                           *prometheus.GaugeVec
	reloadDuration                                        prometheus.Histogram
	lastReloadOK, lastReloadTime, generation              prometheus.Gauge
	dropped, problems                                     float64
}

func newReference() *reference {
	r := &reference{reg: prometheus.NewRegistry()}
	cv := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "hookhost", Name: name, Help: help}, labels)
	}
	r.fires = cv("fires_total", "Fires that ran, by event and final action.", "event", "action")
	r.fireDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "hookhost", Name: "fire_duration_seconds",
		Help: "How long a whole fire took, by event.", Buckets: hookBuckets}, []string{"event"})
	r.hookDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "hookhost", Name: "hook_duration_seconds",
		Help: "How long each hook call took, by hook id.", Buckets: hookBuckets}, []string{"hook"})
	r.hookTimeouts = cv("hook_timeouts_total", "Hook calls that overran their deadline, by hook id.", "hook")
	r.hookErrors = cv("hook_errors_total", "Hook calls that raised an error or returned an invalid decision, by hook id.", "hook")
	r.quarantines = cv("quarantines_total", "Times a hook was quarantined, by hook id.", "hook")
	r.quarantined = prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "hookhost", Name: "hook_quarantined",
		Help: "1 while a hook is quarantined, 0 once released."}, []string{"hook"})
	r.reloads = cv("reloads_total", "Reloads of the hooks directory and config, by trigger.", "trigger")
	r.reloadFailures = cv("reload_failures_total", "Reloads that could not run, or in which content read for the first time (a file, a pack manifest, the config) failed to load, by trigger.", "trigger")
	r.reloadDuration = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "hookhost", Name: "reload_duration_seconds",
		Help: "How long a reload took.", Buckets: prometheus.ExponentialBuckets(.001, 2.5, 10)})
	g := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "hookhost", Name: name, Help: help})
	}
	r.lastReloadOK = g("last_reload_successful", "1 when, after the last reload, every file, pack manifest and the config on disk is what serves; 0 while any of them does not load.")
	r.lastReloadTime = g("last_reload_timestamp_seconds", "When the last reload began, in seconds since the Unix epoch.")
	r.generation = g("snapshot_generation", "The generation of the snapshot serving.")
	r.reg.MustRegister(r.fires, r.fireDuration, r.hookDuration, r.hookTimeouts, r.hookErrors, r.quarantines, r.quarantined,
		r.reloads, r.reloadFailures, r.reloadDuration, r.lastReloadOK, r.lastReloadTime, r.generation,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "hookhost", Name: "load_problems",
			Help: "Files (and packs) of the serving snapshot that failed to load, whether or not an older version serves."},
			func() float64 { return r.problems }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "hookhost", Name: "decision_log_dropped_total",
			Help: "Decision-log lines dropped because the writer could not keep up or failed."},
			func() float64 { return r.dropped }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return r
}

func (r *reference) FireDone(f host.FireReport) {
	r.fires.WithLabelValues(f.Result.Event, string(f.Result.Decision.Action)).Inc()
	r.fireDuration.WithLabelValues(f.Result.Event).Observe(f.Duration.Seconds())
	for _, t := range f.Result.Trace {
		r.hookDuration.WithLabelValues(t.Hook).Observe(t.Duration.Seconds())
		switch t.Outcome {
		case host.OutcomeTimeout:
			r.hookTimeouts.WithLabelValues(t.Hook).Inc()
		case host.OutcomeError:
			r.hookErrors.WithLabelValues(t.Hook).Inc()
		}
	}
}

func (r *reference) ReloadDone(rep host.ReloadReport) {
	r.reloads.WithLabelValues(rep.Trigger).Inc()
	r.reloadDuration.Observe(rep.Duration.Seconds())
	r.lastReloadTime.Set(float64(rep.Start.UnixNano()) / 1e9)
	r.generation.Set(float64(rep.Generation))
	if rep.FailedNow() {
		r.reloadFailures.WithLabelValues(rep.Trigger).Inc()
	}
	if rep.OK() {
		r.lastReloadOK.Set(1)
	} else {
		r.lastReloadOK.Set(0)
	}
}

func (r *reference) QuarantineChanged(q host.QuarantineReport) {
	r.quarantined.WithLabelValues(q.Hook).Set(map[bool]float64{true: 1, false: 0}[q.Quarantined])
	if q.Quarantined {
		r.quarantines.WithLabelValues(q.Hook).Inc()
	}
}

// record feeds the same reports to every observer.
func record(obs ...host.Observer) {
	odd := []string{`q"uote.lua:a`, `back\slash.star:b`, "new\nline.lua:c", "ünï.star:d", "x.lua:e,le=\"1\"}"}
	start := time.Unix(1700000000, 123456789)
	for _, o := range obs {
		for i, hook := range odd {
			d := time.Duration(i*i*i) * 97 * time.Microsecond
			o.FireDone(host.FireReport{Duration: d * 3, Result: host.Result{Event: "tool.execute.pre", Decision: host.Decision{Action: host.Deny},
				Trace: []host.TraceEntry{{Hook: hook, Outcome: []host.Outcome{host.OutcomeDecision, host.OutcomeTimeout, host.OutcomeError}[i%3], Duration: d}}}})
			o.QuarantineChanged(host.QuarantineReport{Hook: hook, Quarantined: i%2 == 0})
		}
		for _, ev := range []string{"turn.pre", "session.end", "tool.execute.pre"} {
			o.FireDone(host.FireReport{Duration: 5 * time.Second, Result: host.Result{Event: ev, Decision: host.Decision{Action: host.Continue}}})
		}
		o.FireDone(host.FireReport{Duration: 5*time.Second + 1, Result: host.Result{Event: "turn.pre", Decision: host.Decision{Action: host.Ask}}})
		o.ReloadDone(host.ReloadReport{Generation: 1, Trigger: "start", Start: start, Duration: 3 * time.Millisecond, Published: true})
		o.ReloadDone(host.ReloadReport{Generation: 1, Trigger: "signal", Start: start, Duration: time.Millisecond,
			Files: []host.FileOutcome{{Path: "b.lua", Outcome: host.FileUnchanged, Err: errors.New("b.lua:1: x")}}})
		o.ReloadDone(host.ReloadReport{Generation: 1234567, Trigger: "watch", Start: start, Duration: 40 * time.Second,
			Files: []host.FileOutcome{{Path: "a.lua", Outcome: host.FileFailed, Err: errors.New("a.lua:1: x")}}})
	}
}

// hookhostLines are the lines of a text exposition about hookhost_*.
func hookhostLines(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		name := strings.TrimPrefix(strings.TrimPrefix(line, "# HELP "), "# TYPE ")
		if strings.HasPrefix(name, "hookhost_") {
			out = append(out, line)
		}
	}
	return out
}

func TestSameAsClientGolang(t *testing.T) {
	for _, tc := range []struct {
		name string
		feed bool
	}{{"fresh", false}, {"observed", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ref := newReference()
			dropped, problems := uint64(0), 0
			m := New(Options{DecisionLogDropped: func() uint64 { return dropped }, LoadProblems: func() int { return problems }})
			if tc.feed {
				record(m, ref)
				dropped, problems = 12345678, 3
				ref.dropped, ref.problems = 12345678, 3
			}
			gathered, err := ref.reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			enc := expfmt.NewEncoder(&want, expfmt.NewFormat(expfmt.TypeTextPlain))
			for _, f := range gathered {
				if err := enc.Encode(f); err != nil {
					t.Fatal(err)
				}
			}
			var got bytes.Buffer
			if err := m.WriteText(&got); err != nil {
				t.Fatal(err)
			}

			if g, w := strings.Join(hookhostLines(got.String()), ""), strings.Join(hookhostLines(want.String()), ""); g != w {
				t.Errorf("hookhost_* differ from client_golang's\n--- ours\n%s\n--- client_golang\n%s", g, w)
			}
			ours := parse(t, got.String())
			theirs := parse(t, want.String())
			if g, w := familyKinds(ours), familyKinds(theirs); !slices.Equal(g, w) {
				t.Errorf("families differ\nours:          %v\nclient_golang: %v", g, w)
			}
		})
	}
}

// parse reads a text exposition with Prometheus's own parser.
func parse(t *testing.T, text string) map[string]string {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the Prometheus parser refuses the scrape: %v\n%s", err, text)
	}
	kinds := map[string]string{}
	for name, f := range families {
		kinds[name] = f.GetType().String()
	}
	return kinds
}

func familyKinds(kinds map[string]string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		out = append(out, name+" "+kinds[name])
	}
	return out
}

// The hook ids' quotes, backslashes and newlines come back intact
// through the parser.
func TestLabelEscaping(t *testing.T) {
	m := New(Options{})
	record(m)
	var buf bytes.Buffer
	if err := m.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var hooks []string
	for _, metric := range families["hookhost_hook_quarantined"].GetMetric() {
		for _, l := range metric.GetLabel() {
			hooks = append(hooks, l.GetValue())
		}
	}
	slices.Sort(hooks)
	want := []string{"back\\slash.star:b", "new\nline.lua:c", "q\"uote.lua:a", "x.lua:e,le=\"1\"}", "ünï.star:d"}
	slices.Sort(want)
	if !slices.Equal(hooks, want) {
		t.Errorf("hook labels read back %q, want %q", hooks, want)
	}
}
