package metrics

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/hookhost/hookhost/host"
)

// namespace prefixes every metric's name.
const namespace = "hookhost_"

// hookBuckets span what hooks take: tens of microseconds for a simple
// check to the seconds of a timeout.
var hookBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// reloadBuckets are 1 ms × 2.5ⁿ for n in 0..9 (1 ms to about 3.8 s),
// multiplied out as client_golang's ExponentialBuckets does, so the le
// labels stay what they were.
var reloadBuckets = func() []float64 {
	b, upper := make([]float64, 10), .001
	for i := range b {
		b[i] = upper
		upper *= 2.5
	}
	return b
}()

// Options configure the metrics.
type Options struct {
	// DecisionLogDropped, when set, reports how many decision-log lines
	// were dropped so far; hookhost_decision_log_dropped_total reads it.
	DecisionLogDropped func() uint64
	// LoadProblems, when set, reports how many load problems the serving
	// snapshot has (host.Status's Problems); hookhost_load_problems reads
	// it at each scrape.
	LoadProblems func() int
}

// Metrics is a host.Observer that records into families of its own.
type Metrics struct {
	fires        *valueVec
	fireDuration *histogramVec
	hookDuration *histogramVec
	hookTimeouts *valueVec
	hookErrors   *valueVec
	shadow       *valueVec
	quarantines  *valueVec
	quarantined  *valueVec

	reloads        *valueVec
	reloadFailures *valueVec
	reloadDuration *histogramVec
	lastReloadOK   *valueVec
	lastReloadTime *valueVec
	generation     *valueVec

	stateDuration *histogramVec // state.go
	stateErrors   *valueVec

	// scrapeMu serialises scrapes: goStats and procStats are read into
	// once per scrape and then written out.
	scrapeMu  sync.Mutex
	goStats   *goSamples
	procStats processStats
	families  []family // sorted by name
}

var _ host.Observer = (*Metrics)(nil)

// New makes the metrics, with the Go runtime's and the process's.
func New(opts Options) *Metrics {
	dropped := opts.DecisionLogDropped
	if dropped == nil {
		dropped = func() uint64 { return 0 }
	}
	problems := opts.LoadProblems
	if problems == nil {
		problems = func() int { return 0 }
	}
	m := &Metrics{goStats: newGoSamples()}
	m.newFireMetrics()
	m.newReloadMetrics()
	m.newStateMetrics()
	m.families = append(m.families,
		&funcFamily{desc: desc{fullName: namespace + "load_problems", kind: "gauge",
			help: "Files (and packs) of the serving snapshot that failed to load, whether or not an older version serves."},
			read: func() float64 { return float64(problems()) }},
		&funcFamily{desc: desc{fullName: namespace + "decision_log_dropped_total", kind: "counter",
			help: "Decision-log lines dropped because the writer could not keep up or failed."},
			read: func() float64 { return float64(dropped()) }},
	)
	m.families = append(m.families, goFamilies(m.goStats)...)
	m.families = append(m.families, processFamilies(&m.procStats)...)
	slices.SortFunc(m.families, func(a, b family) int { return strings.Compare(a.name(), b.name()) })
	return m
}

func (m *Metrics) newFireMetrics() {
	m.fires = newCounter(namespace+"fires_total", "Fires that ran, by event and final action.", "action", "event")
	m.fireDuration = newHistogram(namespace+"fire_duration_seconds", "How long a whole fire took, by event.", hookBuckets, "event")
	m.hookDuration = newHistogram(namespace+"hook_duration_seconds", "How long each hook call took, by hook id.", hookBuckets, "hook")
	m.hookTimeouts = newCounter(namespace+"hook_timeouts_total", "Hook calls that overran their deadline, by hook id.", "hook")
	m.hookErrors = newCounter(namespace+"hook_errors_total", "Hook calls that raised an error or returned an invalid decision, by hook id.", "hook")
	m.shadow = newCounter(namespace+"shadow_decisions_total", "Calls of hooks in shadow mode (enforce: dryrun or warn), "+
		"by what the hook returned but was not applied (continue for nothing; error or timeout for a failure), "+
		"enforcement and hook id.", "action", "enforce", "hook")
	m.quarantines = newCounter(namespace+"quarantines_total", "Times a hook was quarantined, by hook id.", "hook")
	m.quarantined = newGauge(namespace+"hook_quarantined", "1 while a hook is quarantined, 0 once released.", "hook")
	m.families = append(m.families, m.fires, m.fireDuration, m.hookDuration, m.hookTimeouts, m.hookErrors, m.shadow, m.quarantines, m.quarantined)
}

func (m *Metrics) newReloadMetrics() {
	m.reloads = newCounter(namespace+"reloads_total", "Reloads of the hooks directory and config, by trigger.", "trigger")
	m.reloadFailures = newCounter(namespace+"reload_failures_total", "Reloads that could not run, or in which content read for the first time (a file, a pack manifest, the config) failed to load, by trigger.", "trigger")
	m.reloadDuration = newHistogram(namespace+"reload_duration_seconds", "How long a reload took.", reloadBuckets)
	m.lastReloadOK = newGauge(namespace+"last_reload_successful", "1 when, after the last reload, every file, pack manifest and the config on disk is what serves; 0 while any of them does not load.")
	m.lastReloadTime = newGauge(namespace+"last_reload_timestamp_seconds", "When the last reload began, in seconds since the Unix epoch.")
	m.generation = newGauge(namespace+"snapshot_generation", "The generation of the snapshot serving.")
	// A family without labels has its one series from the start, at 0.
	m.reloadDuration.get(nil)
	m.lastReloadOK.with()
	m.lastReloadTime.with()
	m.generation.with()
	m.families = append(m.families, m.reloads, m.reloadFailures, m.reloadDuration, m.lastReloadOK, m.lastReloadTime, m.generation)
}

// contentType is the Prometheus text exposition format's, version 0.0.4,
// which every Prometheus-compatible scraper reads.
const contentType = "text/plain; version=0.0.4; charset=utf-8"

// Handler serves the metrics as Prometheus text. A scrape that cannot
// be written whole (a label value that is not UTF-8, which Prometheus
// would refuse) serves nothing of it: onError answers with the error
// (serve answers JSON, as for every other error); nil answers 500 in
// plain text.
func (m *Metrics) Handler(onError func(http.ResponseWriter, error)) http.Handler {
	if onError == nil {
		onError = func(w http.ResponseWriter, err error) { http.Error(w, err.Error(), http.StatusInternalServerError) }
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		var buf bytes.Buffer
		if err := m.WriteText(&buf); err != nil {
			onError(w, fmt.Errorf("gathering metrics: %w", err))
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Write(buf.Bytes())
	})
}

// WriteText writes every metric in the Prometheus text format, families
// sorted by name and series by label values; families with no series
// yet are left out. An error says why what was written must not be
// served.
func (m *Metrics) WriteText(buf *bytes.Buffer) error {
	m.scrapeMu.Lock()
	defer m.scrapeMu.Unlock()
	m.goStats.read()
	m.procStats.read()
	w := &textWriter{Writer: bufio.NewWriter(buf)}
	for _, f := range m.families {
		f.write(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return w.err
}

// FireDone counts the fire, its hooks' outcomes and durations.
func (m *Metrics) FireDone(r host.FireReport) {
	res := r.Result
	m.fires.with(string(res.Decision.Action), res.Event).add(1)
	m.fireDuration.observe(r.Duration.Seconds(), res.Event)
	for _, t := range res.Trace {
		m.hookDuration.observe(t.Duration.Seconds(), t.Hook)
		switch t.Outcome {
		case host.OutcomeTimeout:
			m.hookTimeouts.with(t.Hook).add(1)
		case host.OutcomeError:
			m.hookErrors.with(t.Hook).add(1)
		}
		if t.Enforce != "" {
			m.shadow.with(shadowAction(t), string(t.Enforce), t.Hook).add(1)
		}
	}
}

// shadowAction is the action label of a shadow hook's call: what it
// returned, continue for nothing, or its failure (error, timeout).
func shadowAction(t host.TraceEntry) string {
	switch {
	case t.Outcome == host.OutcomeError || t.Outcome == host.OutcomeTimeout:
		return string(t.Outcome)
	case t.Action == "":
		return string(host.Continue)
	}
	return string(t.Action)
}

// ReloadDone counts the reload and records whether it succeeded.
func (m *Metrics) ReloadDone(r host.ReloadReport) {
	m.reloads.with(r.Trigger).add(1)
	m.reloadDuration.observe(r.Duration.Seconds())
	m.lastReloadTime.with().store(float64(r.Start.UnixNano()) / 1e9)
	m.generation.with().store(float64(r.Generation))
	if r.FailedNow() {
		m.reloadFailures.with(r.Trigger).add(1)
	}
	ok := 0.0
	if r.OK() {
		ok = 1
	}
	m.lastReloadOK.with().store(ok)
}

// QuarantineChanged counts quarantines and tracks which hooks are in one.
func (m *Metrics) QuarantineChanged(r host.QuarantineReport) {
	if r.Quarantined {
		m.quarantines.with(r.Hook).add(1)
		m.quarantined.with(r.Hook).store(1)
		return
	}
	m.quarantined.with(r.Hook).store(0)
}
