package metrics

import "time"

// newStateMetrics are the state backend's: what each operation on a
// shared store (Redis) costs, and how often one got no answer.
func (m *Metrics) newStateMetrics() {
	m.stateDuration = newHistogram(namespace+"state_operation_duration_seconds",
		"How long each state operation on a shared store (Redis) took, answered or not, by backend and operation.",
		hookBuckets, "backend", "op")
	m.stateErrors = newCounter(namespace+"state_operation_errors_total",
		"State operations on a shared store that got no answer (timeout, refused, down) or an error reply, by backend and operation.",
		"backend", "op")
	m.families = append(m.families, m.stateDuration, m.stateErrors)
}

// StateOp records one operation of a shared state backend; err is set
// when the store gave no answer. Its signature is redisstate.Options's
// Observe with the backend named.
func (m *Metrics) StateOp(backend, op string, took time.Duration, err error) {
	m.stateDuration.observe(took.Seconds(), backend, op)
	if err != nil {
		m.stateErrors.with(backend, op).add(1)
	}
}
