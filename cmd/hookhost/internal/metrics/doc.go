// Package metrics exports what a host does as Prometheus metrics: a
// host.Observer that counts fires, hook outcomes and durations,
// quarantines and reloads, and the HTTP handler that serves them, with
// the Go runtime's go_* and the process's process_* metrics, in the
// Prometheus text exposition format (version 0.0.4).
//
// The format is written here rather than by prometheus/client_golang:
// every hookhost command is one binary, the command hooks start once per
// agent tool call, and Go runs the init of every linked package before
// main; client_golang (with protobuf and procfs) cost each start about
// 1 ms of CPU and 140 page faults, and 3.5 MB of binary. The tests parse what this package
// writes with Prometheus's own parser and compare it with what
// client_golang writes for the same observations; client_golang is
// linked into those tests only.
//
// Nothing is registered anywhere global, so nothing happens at init and
// two hosts in one process do not collide. The observer's methods run on
// the goroutine of the fire or reload they report and only update atomic
// values and per-series histograms. Label values come from the host's
// own names (registered events, loaded hook ids, reload triggers), so the
// number of series is bounded by what is loaded. docs/operations.md
// lists every metric.
package metrics
