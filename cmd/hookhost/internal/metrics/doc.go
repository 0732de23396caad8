// Package metrics exports what a host does as Prometheus metrics: a
// host.Observer that counts fires, hook outcomes and durations,
// quarantines and reloads on a registry of its own (never the default
// one, so nothing happens at init and two hosts in one process do not
// collide), and the HTTP handler that serves them as Prometheus text.
//
// The observer's methods run on the goroutine of the fire or reload they
// report and only update counters, histograms and gauges, which is
// cheap and lock-free enough not to slow a fire noticeably. Label values
// come from the host's own names (registered events, loaded hook ids,
// reload triggers), so the number of series is bounded by what is
// loaded. docs/operations.md lists every metric.
package metrics
