package redisstate_test

import (
	"context"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/state"
	"github.com/hookhost/hookhost/stdlib/state/redisstate"
	"github.com/hookhost/hookhost/stdlib/state/redisstate/redistest"
)

// BenchmarkStateCall is one state call as a script makes it (through the
// module: argument checks, the backend, the value's copy or encoding),
// on the memory backend and on a Redis on the loopback: the difference
// is what sharing state across a fleet adds to each call
// (docs/performance.md, "State on Redis").
func BenchmarkStateCall(b *testing.B) {
	srv := redistest.Start(b)
	rb, err := redisstate.Open(redisstate.Options{URL: srv.URL(0), Timeout: 5 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer rb.Close()
	value := map[string]any{"tool": "Bash", "count": int64(3), "args": []any{"ls", "-l"}}
	calls := []struct {
		name string
		fn   string
		args []any
	}{
		{"get", "get", []any{"bench:v"}},
		{"set", "set", []any{"bench:v", value, "1h"}},
		{"incr", "incr", []any{"bench:n"}},
		{"rate", "rate", []any{"bench:r", int64(10000), int64(1)}},
	}
	for _, backend := range []struct {
		name string
		b    state.Backend
	}{{"memory", state.Memory(nil)}, {"redis", rb}} {
		m := state.NewOver(backend.b)
		set, _ := m.Lookup("set")
		_, _ = set.Impl(&stdlib.Call{Context: context.Background(), Func: set, Args: []any{"bench:v", value, nil}})
		for _, c := range calls {
			f, _ := m.Lookup(c.fn)
			args := make([]any, len(f.Params))
			copy(args, c.args)
			b.Run(c.name+"/"+backend.name, func(b *testing.B) {
				call := &stdlib.Call{Context: context.Background(), Hook: "bench.lua:b", Func: f, Args: args}
				for b.Loop() {
					if _, err := f.Impl(call); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
