package opa

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/scripting/benchcpu"
)

// A decider answers whether a command is denied, and why.
type decider func(ctx context.Context, in map[string]any) (deny bool, reason string)

func opaDecider(tb testing.TB, patterns []string) decider {
	pq, err := rego.New(rego.Query("data.guard.deny"), rego.Module("guard.rego", regoPolicy(patterns))).
		PrepareForEval(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return func(ctx context.Context, in map[string]any) (bool, string) {
		rs, err := pq.Eval(ctx, rego.EvalInput(in))
		if err != nil || len(rs) != 1 {
			tb.Fatalf("opa: %v %v", rs, err)
		}
		set := rs[0].Expressions[0].Value.([]any)
		if len(set) == 0 {
			return false, ""
		}
		return true, set[0].(string)
	}
}

func newHost(tb testing.TB, file, src string) *host.Host {
	h, err := host.New(context.Background(), host.Options{FS: fstest.MapFS{file: {Data: []byte(src)}}})
	if err != nil {
		tb.Fatal(err)
	}
	if p := h.Problems(); len(p) > 0 {
		tb.Fatal(p)
	}
	tb.Cleanup(func() { h.Close() })
	return h
}

// hostDecider decides through Host.Fire.
func hostDecider(tb testing.TB, file, src string) decider {
	h := newHost(tb, file, src)
	return func(ctx context.Context, in map[string]any) (bool, string) {
		r, err := h.Fire(ctx, "tool.execute.pre", in)
		if err != nil {
			tb.Fatal(err)
		}
		return r.Decision.Action == host.Deny, r.Decision.Reason
	}
}

// hostIntoDecider decides through Host.FireInto, one Result reused, as a
// service that fires in a loop would (the benchmark calls it from one
// goroutine).
func hostIntoDecider(tb testing.TB, file, src string) decider {
	h := newHost(tb, file, src)
	var r host.Result
	return func(ctx context.Context, in map[string]any) (bool, string) {
		if err := h.FireInto(ctx, &r, "tool.execute.pre", in); err != nil {
			tb.Fatal(err)
		}
		return r.Decision.Action == host.Deny, r.Decision.Reason
	}
}

type policy struct {
	name     string
	patterns []string
}

var policies = []policy{{"small", smallPatterns}, {"rules20", rulePatterns}}

// deciders are the implementations of one policy, by name.
func deciders(tb testing.TB, p policy) []struct {
	name string
	d    decider
} {
	return []struct {
		name string
		d    decider
	}{
		{"opa", opaDecider(tb, p.patterns)},
		{"lua", hostDecider(tb, "guard.lua", luaHook(p.patterns))},
		{"star", hostDecider(tb, "guard.star", starHook(p.patterns))},
		{"lua-into", hostIntoDecider(tb, "guard.lua", luaHook(p.patterns))},
		{"star-into", hostIntoDecider(tb, "guard.star", starHook(p.patterns))},
		{"lua-raw-deadline", rawLuaDecider(tb, luaHook(p.patterns))},
		{"star-raw-deadline", rawStarDecider(tb, starHook(p.patterns))},
	}
}

// inputs are the allow and deny cases; deny matches the last pattern, the
// worst case for checks made in order.
func inputs(p policy) []struct {
	name string
	in   map[string]any
	deny bool
} {
	last := p.patterns[len(p.patterns)-1]
	return []struct {
		name string
		in   map[string]any
		deny bool
	}{
		{"allow", payload("ls -la && go test ./..."), false},
		{"deny", payload("echo x; " + last + " y"), true},
	}
}

// TestSidesAgree is what the benchmark checks before it times anything.
func TestSidesAgree(t *testing.T) {
	for _, p := range policies {
		for _, d := range deciders(t, p) {
			for _, in := range inputs(p) {
				deny, reason := d.d(context.Background(), in.in)
				want := ""
				if in.deny {
					want = "refusing: " + p.patterns[len(p.patterns)-1]
				}
				if deny != in.deny || reason != want {
					t.Errorf("%s/%s/%s = %v %q, want %v %q", p.name, d.name, in.name, deny, reason, in.deny, want)
				}
			}
		}
	}
}

// BenchmarkGuardrail times each side on each policy and input, in wall
// time and in the process's CPU time per op (cpu-ns/op, steadier on a
// shared machine). Sub-benchmark
// names are policy/input/impl=NAME, so benchstat -col /impl puts the
// implementations side by side.
func BenchmarkGuardrail(b *testing.B) {
	ctx := context.Background()
	for _, p := range policies {
		for _, in := range inputs(p) {
			for _, d := range deciders(b, p) {
				b.Run(p.name+"/"+in.name+"/impl="+d.name, func(b *testing.B) {
					if deny, _ := d.d(ctx, in.in); deny != in.deny {
						b.Fatalf("decides %v, want %v", deny, in.deny)
					}
					b.ReportAllocs()
					start := benchcpu.Used(b)
					for b.Loop() {
						d.d(ctx, in.in)
					}
					b.ReportMetric(float64(benchcpu.Used(b)-start)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}
