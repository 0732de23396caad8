package redisstate_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/state"
	"github.com/hookhost/hookhost/stdlib/state/redisstate"
	"github.com/hookhost/hookhost/stdlib/state/redisstate/redistest"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
)

// open returns a backend on url, closed when the test ends.
func open(t testing.TB, opts redisstate.Options) *redisstate.Backend {
	t.Helper()
	b, err := redisstate.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestScripts runs the state module's script tests (testdata of package
// state) in both languages against Redis: the same script API.
func TestScripts(t *testing.T) {
	srv := redistest.Start(t)
	for name, url := range map[string]string{"tcp": srv.URL(0), "unix": srv.SocketURL()} {
		t.Run(name, func(t *testing.T) {
			b := open(t, redisstate.Options{URL: url, Timeout: 2 * time.Second, Prefix: "scripts-" + name + ":"})
			scripttest.Run(t, "../testdata", state.NewOver(b))
		})
	}
}

type step struct {
	fn      string
	args    []any
	want    any
	wantErr string
}

// TestSameAsMemory runs each scenario through the module on the memory
// backend and on Redis, and wants the same answers and errors from both.
func TestSameAsMemory(t *testing.T) {
	srv := redistest.Start(t)
	scenarios := map[string][]step{
		"values keep their kinds": {
			{fn: "set", args: []any{"v", map[string]any{"i": int64(2), "f": 2.0, "big": 1e21, "neg": -0.5,
				"l": []any{"x", nil, true, int64(math.MinInt64)}, "m": map[string]any{}, "s": "é\"\n"}}},
			{fn: "get", args: []any{"v"}, want: map[string]any{"i": int64(2), "f": 2.0, "big": 1e21, "neg": -0.5,
				"l": []any{"x", nil, true, int64(math.MinInt64)}, "m": map[string]any{}, "s": "é\"\n"}},
			{fn: "set", args: []any{"f", 3.0}},
			{fn: "get", args: []any{"f"}, want: 3.0},
			{fn: "incr", args: []any{"f"}, wantErr: `wrong type: key "f" holds a float, not an integer`},
			{fn: "set", args: []any{"s", "12"}},
			{fn: "get", args: []any{"s"}, want: "12"},
			{fn: "incr", args: []any{"s"}, wantErr: `wrong type: key "s" holds a string, not an integer`},
			{fn: "set", args: []any{"b", false}},
			{fn: "get", args: []any{"b"}, want: false},
			{fn: "set", args: []any{"l", []any{}}},
			{fn: "incr", args: []any{"l"}, wantErr: `holds a list, not an integer`},
		},
		"delete and nil": {
			{fn: "get", args: []any{"a"}, want: nil},
			{fn: "delete", args: []any{"a"}, want: false},
			{fn: "set", args: []any{"a", "x"}},
			{fn: "delete", args: []any{"a"}, want: true},
			{fn: "set", args: []any{"a", int64(1)}},
			{fn: "set", args: []any{"a", nil}},
			{fn: "get", args: []any{"a"}, want: nil},
		},
		"incr": {
			{fn: "incr", args: []any{"n"}, want: int64(1)},
			{fn: "incr", args: []any{"n", int64(10), "1h"}, want: int64(11)},
			{fn: "incr", args: []any{"n", int64(-20)}, want: int64(-9)},
			{fn: "get", args: []any{"n"}, want: int64(-9)},
			{fn: "set", args: []any{"big", int64(math.MaxInt64)}},
			{fn: "incr", args: []any{"big"}, wantErr: "9223372036854775807 + 1 overflows a 64-bit integer"},
			{fn: "get", args: []any{"big"}, want: int64(math.MaxInt64)},
			{fn: "set", args: []any{"small", int64(math.MinInt64)}},
			{fn: "incr", args: []any{"small", int64(-1)}, wantErr: "overflows"},
			{fn: "incr", args: []any{"near", int64(math.MaxInt64 - 1)}, want: int64(math.MaxInt64 - 1)},
			{fn: "incr", args: []any{"near"}, want: int64(math.MaxInt64)},
			{fn: "incr", args: []any{"n", 0.5}, wantErr: "argument 2 (by): want integer"},
		},
		"rate": {
			{fn: "rate", args: []any{"r", int64(2), "1m"}, want: "allowed 1"},
			{fn: "rate", args: []any{"r", int64(2), "1m"}, want: "allowed 0"},
			{fn: "rate", args: []any{"r", int64(2), "1m"}, want: "denied 0"},
			{fn: "rate", args: []any{"r", int64(3), "1m"}, want: "allowed 0"}, // a raised limit
			{fn: "rate", args: []any{"r", int64(1), "1m"}, want: "denied 0"},  // a lowered one
			{fn: "get", args: []any{"r"}, wantErr: `wrong type: key "r" holds a rate window, not a value`},
			{fn: "incr", args: []any{"r"}, wantErr: `wrong type: key "r" holds a rate window, not an integer`},
			{fn: "set", args: []any{"v", "x"}},
			{fn: "rate", args: []any{"v", int64(2), "1m"}, wantErr: `wrong type: key "v" holds a value, not a rate window`},
			{fn: "set", args: []any{"r", "replaced"}}, // set replaces a window
			{fn: "get", args: []any{"r"}, want: "replaced"},
			{fn: "rate", args: []any{"q", int64(0), "1s"}, wantErr: "limit 0 is out of range 1..10000"},
			{fn: "rate", args: []any{"q", int64(100000), "1s"}, wantErr: "out of range"},
			{fn: "rate", args: []any{"q", int64(1), int64(0)}, wantErr: "window must be positive"},
		},
		"limits": {
			{fn: "get", args: []any{""}, wantErr: "key is empty"},
			{fn: "set", args: []any{strings.Repeat("k", 257), int64(1)}, wantErr: "too large: key is 257 bytes, more than 256"},
			{fn: "set", args: []any{"x", strings.Repeat("x", 70000)}, wantErr: "too large: value is more than 65536 bytes"},
			{fn: "set", args: []any{"x", int64(1), int64(0)}, wantErr: "ttl"},
		},
	}
	for name, steps := range scenarios {
		t.Run(name, func(t *testing.T) {
			prefix := "same:" + strings.ReplaceAll(name, " ", "-") + ":"
			backends := map[string]state.Backend{
				"memory": state.Memory(nil),
				"redis":  open(t, redisstate.Options{URL: srv.URL(0), Prefix: prefix, Timeout: 2 * time.Second}),
			}
			for bname, b := range backends {
				m := state.NewOver(b)
				for i, s := range steps {
					got, err := stdlibtest.Call(t, m, s.fn, s.args...)
					if r, ok := got.(map[string]any); ok && err == nil && s.fn == "rate" {
						got = rateSummary(r)
					}
					switch {
					case s.wantErr != "":
						if err == nil || !strings.Contains(err.Error(), s.wantErr) {
							t.Errorf("%s: step %d %s%v: error %v, want %q", bname, i, s.fn, s.args, err, s.wantErr)
						}
					case err != nil:
						t.Errorf("%s: step %d %s%v: %v", bname, i, s.fn, s.args, err)
					case !stdlib.Equal(got, s.want):
						t.Errorf("%s: step %d %s%v = %#v, want %#v", bname, i, s.fn, s.args, got, s.want)
					}
				}
			}
		})
	}
}

// rateSummary is "allowed N" or "denied N", N the remaining count.
func rateSummary(r map[string]any) string {
	word := "denied"
	if r["allowed"] == true {
		word = "allowed"
	}
	return fmt.Sprintf("%s %d", word, r["remaining"])
}

// TestExpiry: ttls and rate windows expire on the server. Nothing here
// depends on how fast the steps run: each check holds whichever side of
// an expiry it lands on, or reads the ttl Redis holds (a key a loaded
// machine let expire before the check is gone, which is what the check
// wants once its ttl has passed).
func TestExpiry(t *testing.T) {
	srv := redistest.Start(t)
	b := open(t, redisstate.Options{URL: srv.URL(0), Prefix: "expiry:", Timeout: 5 * time.Second})
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer raw.Close()
	ctx := context.Background()
	const short = 300 * time.Millisecond
	// expired says whether a key set at since with the ttl short may be
	// gone (PTTL -2) by now.
	expired := func(ttl time.Duration, since time.Time) bool { return ttl == -2 && time.Since(since) >= short }
	setAt := time.Now()
	if err := b.Set(ctx, "t", "x", short); err != nil {
		t.Fatal(err)
	}
	if ttl := raw.PTTL(ctx, "expiry:t").Val(); (ttl <= 0 || ttl > short) && !expired(ttl, setAt) {
		t.Errorf("PTTL after set with ttl = %v, want at most %v", ttl, short)
	}
	incrAt := time.Now()
	if _, err := b.Incr(ctx, "n", 1, short); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Incr(ctx, "n", 1, time.Hour); err != nil { // an existing key keeps its expiry
		t.Fatal(err)
	}
	// Unless the first incr's key expired before the second came (which
	// then made a new key, with its own hour).
	if ttl := raw.PTTL(ctx, "expiry:n").Val(); ttl > short && time.Since(incrAt) < short {
		t.Errorf("PTTL after a second incr = %v, want the first incr's %v at most", ttl, short)
	}
	first := time.Now()
	r, err := b.Rate(ctx, "r", 1, short)
	if err != nil || !r.Allowed || r.Reset <= 0 || r.Reset > short {
		t.Fatalf("rate = %+v, %v", r, err)
	}
	r, err = b.Rate(ctx, "r", 1, short)
	if err != nil || (r.Allowed && time.Since(first) < short) {
		t.Fatalf("a second event within the window: %+v, %v", r, err)
	}
	if ttl := raw.PTTL(ctx, "expiry:r").Val(); (ttl <= 0 || ttl > short) && !expired(ttl, first) {
		t.Errorf("PTTL of the window = %v, want one window at most", ttl)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, _ := b.Get(ctx, "t")
		n, _ := b.Get(ctx, "n")
		if v == nil && n == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 20s: t = %v, n = %v, want both expired", v, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Once the window passes, the next event is allowed again.
	for {
		r, err := b.Rate(ctx, "r", 1, short)
		if err != nil {
			t.Fatal(err)
		}
		if r.Allowed {
			break
		}
		if r.Reset <= 0 || r.Reset > short || time.Now().After(deadline) {
			t.Fatalf("waiting for the window to pass: %+v", r)
		}
		time.Sleep(r.Reset)
	}
	// A set without a ttl clears one.
	_ = b.Set(ctx, "c", "x", time.Hour)
	_ = b.Set(ctx, "c", "y", 0)
	if ttl := raw.PTTL(ctx, "expiry:c").Val(); ttl != -1 {
		t.Errorf("PTTL after a set without ttl = %v, want none (-1)", ttl)
	}
}

// TestPrefix: every key the backend writes starts with the prefix, and
// two prefixes on one Redis do not see each other's keys.
func TestPrefix(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	a := open(t, redisstate.Options{URL: srv.URL(3), Prefix: "team-a:"})
	def := open(t, redisstate.Options{URL: srv.URL(3)})
	_ = a.Set(ctx, "k", "a", 0)
	_, _ = a.Incr(ctx, "n", 1, 0)
	_, _ = a.Rate(ctx, "r", 5, time.Minute)
	_ = def.Set(ctx, "k", "default", 0)
	if v, _ := def.Get(ctx, "k"); v != "default" {
		t.Errorf("default prefix get = %v", v)
	}
	if v, _ := a.Get(ctx, "k"); v != "a" {
		t.Errorf("team-a get = %v", v)
	}
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr, DB: 3})
	defer raw.Close()
	keys, err := raw.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 4 {
		t.Errorf("keys = %v, want 4", keys)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "team-a:") && !strings.HasPrefix(k, redisstate.DefaultPrefix) {
			t.Errorf("key %q has neither prefix", k)
		}
	}
}

// TestExactlyLimitAcrossClients: several clients (as several processes
// would have) hammer one rate key; exactly limit events are allowed.
func TestExactlyLimitAcrossClients(t *testing.T) {
	srv := redistest.Start(t)
	const limit, clients, each = 5, 4, 10
	var allowed atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients*each)
	for c := range clients {
		url := srv.URL(0)
		if c%2 == 1 {
			url = srv.SocketURL()
		}
		b := open(t, redisstate.Options{URL: url, Timeout: 5 * time.Second})
		for range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := b.Rate(context.Background(), "fleet", limit, time.Minute)
				if err != nil {
					errs <- err
					return
				}
				if r.Allowed {
					allowed.Add(1)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := allowed.Load(); got != limit {
		t.Errorf("%d of %d events allowed, want exactly %d", got, clients*each, limit)
	}
}

// TestRedisDown: with Redis killed a call fails at once with an error
// naming Redis, within the timeout; Health says so; after Redis is
// started again calls work, without a new backend.
func TestRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	var observed atomic.Int64
	var failures atomic.Int64
	b := open(t, redisstate.Options{URL: srv.URL(0), Timeout: 200 * time.Millisecond,
		Observe: func(op string, took time.Duration, err error) {
			observed.Add(1)
			if err != nil {
				failures.Add(1)
			}
		}})
	m := state.NewOver(b)
	if _, err := stdlibtest.Call(t, m, "incr", "n"); err != nil {
		t.Fatal(err)
	}
	if h := b.Health(); !h.Checked || !h.Answered || h.Backend != "redis" || h.Target != srv.Addr {
		t.Errorf("health while up = %+v", h)
	}
	srv.Stop()
	for _, fn := range []string{"get", "incr", "rate", "set", "delete"} {
		args := []any{"n"}
		switch fn {
		case "rate":
			args = []any{"r", int64(5), "1m"}
		case "set":
			args = []any{"n", "x"}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		f, _ := m.Lookup(fn)
		full := make([]any, len(f.Params))
		copy(full, args)
		_, err := f.Impl(&stdlib.Call{Context: ctx, Hook: stdlibtest.Hook, Func: f, Args: full})
		cancel()
		if err == nil || !strings.Contains(err.Error(), "redis at "+srv.Addr) {
			t.Errorf("%s with Redis down: %v, want an error naming redis at %s", fn, err, srv.Addr)
		}
	}
	if h := b.Health(); h.Answered || h.Err == nil {
		t.Errorf("health while down = %+v", h)
	}
	if failures.Load() < 5 {
		t.Errorf("Observe saw %d failures of %d operations, want 5 at least", failures.Load(), observed.Load())
	}
	srv.Restart()
	// The client reconnects by itself; after refused dials it probes
	// about once a second, so allow it a few.
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := stdlibtest.Call(t, m, "incr", "n")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("20s after Redis came back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if h := b.Health(); !h.Answered {
		t.Errorf("health after Redis came back = %+v", h)
	}
}

// TestSilentRedis: a server that accepts but never answers makes a call
// fail after the timeout, saying so, and a hook context that ends first
// ends the call with it.
func TestSilentRedis(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var conns sync.WaitGroup
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() { defer conns.Done(); _, _ = c.Read(make([]byte, 1<<16)); time.Sleep(5 * time.Second); c.Close() }()
		}
	}()
	b := open(t, redisstate.Options{URL: "redis://" + l.Addr().String() + "/0", Timeout: 100 * time.Millisecond})
	start := time.Now()
	_, err = b.Get(context.Background(), "k")
	if err == nil || !strings.Contains(err.Error(), "redis at "+l.Addr().String()+" did not answer within 100ms") {
		t.Errorf("get from a silent server: %v", err)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("get took %v: the timeout did not bound it", took)
	}
	// The hook's deadline ends the call first when it is the shorter.
	slow := open(t, redisstate.Options{URL: "redis://" + l.Addr().String() + "/0", Timeout: 3 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = slow.Rate(ctx, "r", 1, time.Second)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "redis at") {
		t.Errorf("rate past the hook's deadline: %v", err)
	}
}

// TestOpenRefusesBadURLs: Open fails for what no server could be.
func TestOpenRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"http://localhost:6379", "redis://localhost:6379/notadb", "", "redis://a:b:c"} {
		if _, err := redisstate.Open(redisstate.Options{URL: u}); err == nil {
			t.Errorf("Open(%q) succeeded", u)
		}
		if err := redisstate.CheckURL(u); err == nil {
			t.Errorf("CheckURL(%q) = nil", u)
		}
	}
	for _, u := range []string{"redis://localhost:6379/0", "rediss://user:pw@example.com:6380/2", "unix:///run/redis.sock"} {
		if err := redisstate.CheckURL(u); err != nil {
			t.Errorf("CheckURL(%q) = %v", u, err)
		}
	}
}
