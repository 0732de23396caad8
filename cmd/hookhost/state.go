package main

import (
	"fmt"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/metrics"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/isolate"
	"github.com/hookhost/hookhost/stdlib/state"
	"github.com/hookhost/hookhost/stdlib/state/redisstate"
)

// openState opens the store a config's state section names when it is
// not memory: the host calls it (host.Options.OpenState) only then, so a
// command whose config keeps the default makes no Redis client. m, when
// set, records each operation.
func openState(m *metrics.Metrics) func(host.StateConfig) (state.Backend, error) {
	return openStateWith(m, 0)
}

// openStateWith is openState with a bound on the store's connections (0:
// the client's default).
func openStateWith(m *metrics.Metrics, poolSize int) func(host.StateConfig) (state.Backend, error) {
	return func(sc host.StateConfig) (state.Backend, error) {
		if sc.Kind() != host.RedisState {
			return nil, fmt.Errorf("state: backend %q is not one this program has", sc.Kind())
		}
		opts := redisstate.Options{URL: sc.URL, Prefix: sc.PrefixOrDefault(), Timeout: sc.TimeoutOrDefault(), PoolSize: poolSize}
		if m != nil {
			opts.Observe = func(op string, took time.Duration, err error) { m.StateOp("redis", op, took, err) }
		}
		return redisstate.Open(opts)
	}
}

// workerOptions give the worker processes of isolated files the state
// store the host names, so that their hooks count against the same keys.
func workerOptions() isolate.WorkerOptions {
	return isolate.WorkerOptions{OpenState: func(spec string) (state.Backend, error) {
		sc, err := host.ParseWorkerState(spec)
		if err != nil {
			return nil, err
		}
		return openStateWith(nil, isolate.WorkerStateConns)(sc)
	}}
}
