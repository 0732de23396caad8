package server

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// activity counts the requests in flight and remembers when the last one
// began or ended, for the idle exit.
type activity struct {
	inflight atomic.Int64
	last     atomic.Int64 // unix nanoseconds
}

func (a *activity) touch() { a.last.Store(time.Now().UnixNano()) }

// track wraps next so every request counts.
func (a *activity) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.inflight.Add(1)
		a.touch()
		defer func() {
			a.touch()
			a.inflight.Add(-1)
		}()
		next.ServeHTTP(w, r)
	})
}

// idleLeft is how much longer the server must stay idle to have been
// idle for d; a request in flight restarts the count.
func (a *activity) idleLeft(d time.Duration) time.Duration {
	if a.inflight.Load() > 0 {
		return d
	}
	return d - time.Since(time.Unix(0, a.last.Load()))
}

// waitIdle returns true once the server has been idle for d, false when
// ctx ends first.
func (a *activity) waitIdle(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
		left := a.idleLeft(d)
		if left <= 0 {
			return true
		}
		t.Reset(left)
	}
}
