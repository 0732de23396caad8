package server

import (
	"context"
	"log/slog"
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

// logRequests logs each request at debug level: method, path, status
// and duration (never a header, so never a token). It costs nothing when
// debug is off.
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !logger.Enabled(r.Context(), slog.LevelDebug) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		logger.Debug("request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"duration", time.Since(start).String())
	})
}

// statusWriter remembers the status a handler answered.
type statusWriter struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the status and sends it.
func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
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
