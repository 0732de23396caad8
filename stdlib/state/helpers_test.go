package state

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// fakeClock is a clock the tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2024, 3, 5, 6, 7, 8, 0, time.UTC)}
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// call runs fn of m as the binder would: exactly one argument per
// parameter, absent ones nil.
func call(t *testing.T, m stdlib.Module, fn string, args ...any) (any, error) {
	t.Helper()
	return bind(t, m, fn)(args...)
}

// bind looks fn up once, so that goroutines can call it without a
// testing.T that might stop the test from the wrong goroutine. Extra
// arguments are an error rather than a test failure for the same reason.
func bind(t *testing.T, m stdlib.Module, fn string) func(args ...any) (any, error) {
	t.Helper()
	f, ok := m.Lookup(fn)
	if !ok {
		t.Fatalf("no function %q", fn)
	}
	return func(args ...any) (any, error) {
		if len(args) > len(f.Params) {
			return nil, fmt.Errorf("test bug: %s takes %d arguments, got %d", fn, len(f.Params), len(args))
		}
		full := make([]any, len(f.Params))
		copy(full, args)
		return f.Impl(&stdlib.Call{Context: context.Background(), Hook: "test.lua:t", Func: f, Args: full})
	}
}

// checkInvariants verifies the store's bookkeeping: bytes is the sum of
// the entries' sizes, earliest bounds every expiry, the limits hold, and
// every rate window is sorted and within its capacity.
func checkInvariants(t *testing.T, s *Store) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var sum int64
	for k, e := range s.entries {
		sum += e.size
		if e.expires < s.earliest {
			t.Errorf("%q expires at %v, before earliest %v", k, e.expires, s.earliest)
		}
		if (e.events == nil) == (e.value == nil) {
			t.Errorf("%q holds both or neither of a value and a window", k)
		}
		if w := e.events; w != nil {
			if w.len() > w.cap() {
				t.Errorf("%q: %d events in %d slots", k, w.len(), w.cap())
			}
			for i := 1; i < w.len(); i++ {
				if w.at(i) < w.at(i-1) {
					t.Errorf("%q: events out of order at %d", k, i)
				}
			}
			if want := entrySize(k, 0) + int64(w.cap())*timestampSize; e.size != want {
				t.Errorf("%q: size %d, want %d", k, e.size, want)
			}
		}
	}
	if sum != s.bytes {
		t.Errorf("bytes = %d, sum of entries = %d", s.bytes, sum)
	}
	if len(s.entries) > s.limits.MaxKeys || s.bytes > s.limits.MaxBytes {
		t.Errorf("%d keys, %d bytes: past the limits %+v", len(s.entries), s.bytes, s.limits)
	}
}
