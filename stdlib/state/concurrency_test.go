package state

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Run with -race. Counters and rate windows must stay exact under
// contention, and every operation may interleave with every other while
// the clock moves and keys expire.
func TestConcurrentIncrAndRate(t *testing.T) {
	s := NewStore(Limits{}, nil)
	m := New(s)
	const workers, each, limit = 16, 200, 1000
	incr, rate := bind(t, m, "incr"), bind(t, m, "rate")
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				if _, err := incr("n"); err != nil {
					t.Error(err)
					return
				}
				r, err := rate("r", int64(limit), "1h")
				if err != nil {
					t.Error(err)
					return
				}
				if r.(map[string]any)["allowed"] == true {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got, _ := s.Get("n"); got != int64(workers*each) {
		t.Errorf("n = %v, want %d", got, workers*each)
	}
	if got := allowed.Load(); got != limit {
		t.Errorf("%d events allowed, want exactly %d", got, limit)
	}
	checkInvariants(t, s)
}

func TestConcurrentMixed(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{MaxKeys: 50, MaxBytes: 64 << 10}, clock.now)
	m := New(s)
	set, get, incr, rate, del := bind(t, m, "set"), bind(t, m, "get"), bind(t, m, "incr"), bind(t, m, "rate"), bind(t, m, "delete")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 500 {
				key := fmt.Sprint("k", (w*7+i)%60) // more keys than MaxKeys
				switch i % 7 {
				case 0:
					set(key, map[string]any{"i": int64(i), "l": []any{"x"}}, "5ms")
				case 1:
					if v, err := get(key); err == nil {
						if mv, ok := v.(map[string]any); ok {
							mv["mutated"] = true // a copy: must not race with the store
						}
					}
				case 2:
					incr(key, int64(1), "3ms")
				case 3:
					rate("rate:"+key, int64(3), "2ms")
				case 4:
					del(key)
				case 5:
					clock.advance(time.Millisecond)
				case 6:
					s.Sweep()
					s.Usage()
				}
			}
		})
	}
	wg.Wait()
	checkInvariants(t, s)
}
