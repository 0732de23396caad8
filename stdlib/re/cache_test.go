package re

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

func TestCacheEvictsOldest(t *testing.T) {
	c := newCache()
	for i := range CacheEntries + 10 {
		if _, err := c.get(fmt.Sprintf("p%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.len(); n != CacheEntries {
		t.Errorf("%d entries, want %d", n, CacheEntries)
	}
	c.mu.RLock()
	_, oldest := c.entries["p0"]
	_, newest := c.entries[fmt.Sprintf("p%d", CacheEntries+9)]
	c.mu.RUnlock()
	if oldest || !newest {
		t.Errorf("p0 cached: %v, newest cached: %v; want false, true", oldest, newest)
	}
}

// TestCacheBudget checks that large patterns are evicted by size before
// the entry limit is reached.
func TestCacheBudget(t *testing.T) {
	c := newCache()
	for i := range 200 {
		// About 15,000 instructions each.
		p := fmt.Sprintf("%d", i) + strings.Repeat(`[a-z]{1000}`, 15)
		if _, err := c.get(p); err != nil {
			t.Fatal(err)
		}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.cost > cacheBudget {
		t.Errorf("cost %d, over the budget %d", c.cost, cacheBudget)
	}
	if len(c.entries) >= 200 || len(c.entries) != len(c.order) {
		t.Errorf("%d entries, %d in order; want fewer than 200 and equal", len(c.entries), len(c.order))
	}
}

func TestCacheErrorsNotCached(t *testing.T) {
	c := newCache()
	if _, err := c.get("("); err == nil {
		t.Fatal("no error")
	}
	if c.len() != 0 {
		t.Errorf("a bad pattern was cached")
	}
}

func TestCacheConcurrent(t *testing.T) {
	m := New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				p := fmt.Sprintf("x%d", (i*7+g)%300) // more patterns than fit
				got, err := stdlibtest.Call(t, m, "match", p, "ax"+fmt.Sprint((i*7+g)%300)+"b")
				if err != nil || got != true {
					t.Errorf("match(%q) = %v, %v", p, got, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
