package metrics

import (
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hookhost/hookhost/host"
)

// namespace prefixes every metric's name.
const namespace = "hookhost"

// hookBuckets span what hooks take: tens of microseconds for a simple
// check to the seconds of a timeout.
var hookBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

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

// Metrics is a host.Observer that records into its own registry.
type Metrics struct {
	reg *prometheus.Registry

	fires        *prometheus.CounterVec
	fireDuration *prometheus.HistogramVec
	hookDuration *prometheus.HistogramVec
	hookTimeouts *prometheus.CounterVec
	hookErrors   *prometheus.CounterVec
	quarantines  *prometheus.CounterVec
	quarantined  *prometheus.GaugeVec

	reloads        *prometheus.CounterVec
	reloadFailures *prometheus.CounterVec
	reloadDuration prometheus.Histogram
	lastReloadOK   prometheus.Gauge
	lastReloadTime prometheus.Gauge
	generation     prometheus.Gauge
}

var _ host.Observer = (*Metrics)(nil)

// New makes the metrics and registers them, with the Go runtime's and
// the process's collectors, on a new registry.
func New(opts Options) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.newFireMetrics()
	m.newReloadMetrics()
	dropped := opts.DecisionLogDropped
	if dropped == nil {
		dropped = func() uint64 { return 0 }
	}
	problems := opts.LoadProblems
	if problems == nil {
		problems = func() int { return 0 }
	}
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: namespace, Name: "load_problems",
			Help: "Files (and packs) of the serving snapshot that failed to load, whether or not an older version serves."},
			func() float64 { return float64(problems()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: namespace, Name: "decision_log_dropped_total",
			Help: "Decision-log lines dropped because the writer could not keep up or failed."},
			func() float64 { return float64(dropped()) }),
	)
	return m
}

func (m *Metrics) newFireMetrics() {
	m.fires = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "fires_total",
		Help: "Fires that ran, by event and final action."}, []string{"event", "action"})
	m.fireDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "fire_duration_seconds",
		Help: "How long a whole fire took, by event.", Buckets: hookBuckets}, []string{"event"})
	m.hookDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "hook_duration_seconds",
		Help: "How long each hook call took, by hook id.", Buckets: hookBuckets}, []string{"hook"})
	m.hookTimeouts = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "hook_timeouts_total",
		Help: "Hook calls that overran their deadline, by hook id."}, []string{"hook"})
	m.hookErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "hook_errors_total",
		Help: "Hook calls that raised an error or returned an invalid decision, by hook id."}, []string{"hook"})
	m.quarantines = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "quarantines_total",
		Help: "Times a hook was quarantined, by hook id."}, []string{"hook"})
	m.quarantined = prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: namespace, Name: "hook_quarantined",
		Help: "1 while a hook is quarantined, 0 once released."}, []string{"hook"})
	m.reg.MustRegister(m.fires, m.fireDuration, m.hookDuration, m.hookTimeouts, m.hookErrors, m.quarantines, m.quarantined)
}

func (m *Metrics) newReloadMetrics() {
	m.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "reloads_total",
		Help: "Reloads of the hooks directory and config, by trigger."}, []string{"trigger"})
	m.reloadFailures = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "reload_failures_total",
		Help: "Reloads that could not run, or in which content read for the first time (a file, a pack manifest, the config) failed to load, by trigger."}, []string{"trigger"})
	m.reloadDuration = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: "reload_duration_seconds",
		Help: "How long a reload took.", Buckets: prometheus.ExponentialBuckets(.001, 2.5, 10)})
	m.lastReloadOK = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "last_reload_successful",
		Help: "1 when, after the last reload, every file, pack manifest and the config on disk is what serves; 0 while any of them does not load."})
	m.lastReloadTime = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "last_reload_timestamp_seconds",
		Help: "When the last reload began, in seconds since the Unix epoch."})
	m.generation = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "snapshot_generation",
		Help: "The generation of the snapshot serving."})
	m.reg.MustRegister(m.reloads, m.reloadFailures, m.reloadDuration, m.lastReloadOK, m.lastReloadTime, m.generation)
}

// Handler serves the registry as Prometheus text (or the protobuf
// format, when a scraper asks for it). When gathering fails, nothing of
// the scrape is served: onError answers with the error (serve answers
// JSON, as for every other error); nil answers 500 in plain text.
func (m *Metrics) Handler(onError func(http.ResponseWriter, error)) http.Handler {
	if onError == nil {
		onError = func(w http.ResponseWriter, err error) { http.Error(w, err.Error(), http.StatusInternalServerError) }
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		families, err := m.reg.Gather()
		if err != nil {
			onError(w, fmt.Errorf("gathering metrics: %w", err))
			return
		}
		promhttp.HandlerFor(prometheus.GathererFunc(gathered(families)), promhttp.HandlerOpts{}).ServeHTTP(w, r)
	})
}

// gathered is a gatherer's function that returns what was gathered
// already. (Generic only so that the metric family type, from a module
// hookhost does not depend on directly, need not be named.)
func gathered[T any](families T) func() (T, error) {
	return func() (T, error) { return families, nil }
}

// Registry is the registry the metrics live on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// FireDone counts the fire, its hooks' outcomes and durations.
func (m *Metrics) FireDone(r host.FireReport) {
	res := r.Result
	m.fires.WithLabelValues(res.Event, string(res.Decision.Action)).Inc()
	m.fireDuration.WithLabelValues(res.Event).Observe(r.Duration.Seconds())
	for _, t := range res.Trace {
		m.hookDuration.WithLabelValues(t.Hook).Observe(t.Duration.Seconds())
		switch t.Outcome {
		case host.OutcomeTimeout:
			m.hookTimeouts.WithLabelValues(t.Hook).Inc()
		case host.OutcomeError:
			m.hookErrors.WithLabelValues(t.Hook).Inc()
		}
	}
}

// ReloadDone counts the reload and records whether it succeeded.
func (m *Metrics) ReloadDone(r host.ReloadReport) {
	m.reloads.WithLabelValues(r.Trigger).Inc()
	m.reloadDuration.Observe(r.Duration.Seconds())
	m.lastReloadTime.Set(float64(r.Start.UnixNano()) / 1e9)
	m.generation.Set(float64(r.Generation))
	if r.FailedNow() {
		m.reloadFailures.WithLabelValues(r.Trigger).Inc()
	}
	if r.OK() {
		m.lastReloadOK.Set(1)
	} else {
		m.lastReloadOK.Set(0)
	}
}

// QuarantineChanged counts quarantines and tracks which hooks are in one.
func (m *Metrics) QuarantineChanged(r host.QuarantineReport) {
	if r.Quarantined {
		m.quarantines.WithLabelValues(r.Hook).Inc()
		m.quarantined.WithLabelValues(r.Hook).Set(1)
		return
	}
	m.quarantined.WithLabelValues(r.Hook).Set(0)
}
