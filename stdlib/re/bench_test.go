package re

import (
	"context"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// BenchmarkMatchCached measures re.match as a script pays for it once
// the pattern is cached: the call through Impl, argument checks, the
// cache look-up and the match of a typical 80-character command line.
func BenchmarkMatchCached(b *testing.B) {
	m := New()
	f, _ := m.Lookup("match")
	c := &stdlib.Call{
		Context: context.Background(),
		Func:    f,
		Args: []any{
			`\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+)*(/|~|\$HOME)(\s|$)`,
			"cd /srv/app && git pull --rebase origin main && make build && ./bin/app --port 80",
		},
	}
	if got, err := f.Impl(c); err != nil || got != false {
		b.Fatalf("match = %v, %v", got, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Impl(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchCachedParallel is BenchmarkMatchCached from many
// goroutines at once, as concurrent fires call it.
func BenchmarkMatchCachedParallel(b *testing.B) {
	m := New()
	f, _ := m.Lookup("match")
	args := []any{`(?i)\bdrop\s+table\b`, "SELECT * FROM users WHERE name = 'drop table' -- a comment of some length"}
	b.RunParallel(func(pb *testing.PB) {
		c := &stdlib.Call{Context: context.Background(), Func: f, Args: args}
		for pb.Next() {
			if _, err := f.Impl(c); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
