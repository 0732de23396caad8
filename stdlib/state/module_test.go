package state

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// A step is one call in a scenario, after moving the clock by advance.
type step struct {
	advance time.Duration
	fn      string
	args    []any
	want    any
	wantErr string
}

func rateResult(allowed bool, remaining, resetMS int64) map[string]any {
	return map[string]any{"allowed": allowed, "remaining": remaining, "reset_ms": resetMS}
}

func TestModule(t *testing.T) {
	long := strings.Repeat("k", 257)
	scenarios := map[string][]step{
		"get set delete": {
			{fn: "get", args: []any{"a"}, want: nil},
			{fn: "set", args: []any{"a", map[string]any{"n": int64(1), "l": []any{"x", 2.5, true, nil}}}, want: nil},
			{fn: "get", args: []any{"a"}, want: map[string]any{"n": int64(1), "l": []any{"x", 2.5, true, nil}}},
			{fn: "set", args: []any{"a", "replaced"}},
			{fn: "get", args: []any{"a"}, want: "replaced"},
			{fn: "delete", args: []any{"a"}, want: true},
			{fn: "delete", args: []any{"a"}, want: false},
			{fn: "get", args: []any{"a"}, want: nil},
			{fn: "set", args: []any{"b", int64(1)}},
			{fn: "set", args: []any{"b", nil}},
			{fn: "get", args: []any{"b"}, want: nil},
			{fn: "set", args: []any{"b", int64(1)}},
			{fn: "set", args: []any{"b"}},
			{fn: "get", args: []any{"b"}, want: nil},
			{fn: "set", args: []any{"empty", map[string]any{}}},
			{fn: "get", args: []any{"empty"}, want: map[string]any{}},
		},
		"ttl": {
			{fn: "set", args: []any{"t", "x", "30s"}},
			{fn: "set", args: []any{"m", "y", int64(500)}},
			{fn: "set", args: []any{"forever", "z"}},
			{advance: 499 * time.Millisecond, fn: "get", args: []any{"m"}, want: "y"},
			{advance: time.Millisecond, fn: "get", args: []any{"m"}, want: nil},
			{advance: 29 * time.Second, fn: "get", args: []any{"t"}, want: "x"},
			{advance: time.Second, fn: "get", args: []any{"t"}, want: nil},
			{fn: "delete", args: []any{"t"}, want: false},
			{advance: 1000 * time.Hour, fn: "get", args: []any{"forever"}, want: "z"},
			{fn: "set", args: []any{"t", "x", "1s"}},
			{fn: "set", args: []any{"t", "x"}}, // a set without ttl clears it
			{advance: time.Hour, fn: "get", args: []any{"t"}, want: "x"},
		},
		"incr": {
			{fn: "incr", args: []any{"n"}, want: int64(1)},
			{fn: "incr", args: []any{"n"}, want: int64(2)},
			{fn: "incr", args: []any{"n", int64(10)}, want: int64(12)},
			{fn: "incr", args: []any{"n", int64(-20)}, want: int64(-8)},
			{fn: "incr", args: []any{"n", float64(3)}, want: int64(-5)},
			{fn: "incr", args: []any{"n", int64(0)}, want: int64(-5)},
			{fn: "get", args: []any{"n"}, want: int64(-5)},
			{fn: "set", args: []any{"big", int64(math.MaxInt64)}},
			{fn: "incr", args: []any{"big"}, wantErr: "overflows"},
			{fn: "get", args: []any{"big"}, want: int64(math.MaxInt64)},
			{fn: "set", args: []any{"small", int64(math.MinInt64)}},
			{fn: "incr", args: []any{"small", int64(-1)}, wantErr: "overflows"},
			{fn: "set", args: []any{"s", "five"}},
			{fn: "incr", args: []any{"s"}, wantErr: `wrong type: key "s" holds a string, not an integer`},
			{fn: "set", args: []any{"f", 1.5}},
			{fn: "incr", args: []any{"f"}, wantErr: "holds a float"},
			{fn: "incr", args: []any{"n", 0.5}, wantErr: "argument 2 (by): want integer"},
			{fn: "incr", args: []any{"n", "1"}, wantErr: "argument 2 (by)"},
		},
		"incr ttl applies on creation only": {
			{fn: "incr", args: []any{"c", int64(1), "1m"}, want: int64(1)},
			{advance: 40 * time.Second, fn: "incr", args: []any{"c", int64(1), "1m"}, want: int64(2)},
			{advance: 20 * time.Second, fn: "get", args: []any{"c"}, want: nil},
			{fn: "incr", args: []any{"c", int64(1), "1m"}, want: int64(1)},
			{fn: "incr", args: []any{"c", nil, int64(1)}, want: int64(2)},
		},
		"rate": {
			{fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(true, 2, 60000)},
			{advance: 10 * time.Second, fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(true, 1, 50000)},
			{advance: 10 * time.Second, fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(true, 0, 40000)},
			{fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(false, 0, 40000)},
			{advance: 39999 * time.Millisecond, fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(false, 0, 1)},
			{advance: time.Millisecond, fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(true, 0, 10000)},
			{advance: 500 * time.Microsecond, fn: "rate", args: []any{"r", int64(3), "1m"}, want: rateResult(false, 0, 10000)},
			{fn: "rate", args: []any{"r", int64(5), int64(60000)}, want: rateResult(true, 1, 10000)},
			{fn: "rate", args: []any{"r", int64(1), "1m"}, want: rateResult(false, 0, 60000)},
			{advance: time.Minute, fn: "rate", args: []any{"r", int64(1), "1m"}, want: rateResult(true, 0, 60000)},
			{advance: time.Minute, fn: "get", args: []any{"other"}, want: nil},
			{fn: "delete", args: []any{"r"}, want: false}, // expired a window after its newest event
			{fn: "rate", args: []any{"r", int64(1), "1s"}, want: rateResult(true, 0, 1000)},
			{fn: "delete", args: []any{"r"}, want: true},
			{fn: "rate", args: []any{"r", int64(1), "1s"}, want: rateResult(true, 0, 1000)},
		},
		"kinds do not mix": {
			{fn: "set", args: []any{"v", "x"}},
			{fn: "rate", args: []any{"v", int64(1), "1s"}, wantErr: `wrong type: key "v" holds a value, not a rate window`},
			{fn: "rate", args: []any{"w", int64(1), "1s"}, want: rateResult(true, 0, 1000)},
			{fn: "get", args: []any{"w"}, wantErr: "holds a rate window, not a value"},
			{fn: "incr", args: []any{"w"}, wantErr: "holds a rate window, not an integer"},
			{fn: "set", args: []any{"w", int64(3)}},
			{fn: "incr", args: []any{"w"}, want: int64(4)},
		},
		"bad arguments": {
			{fn: "get", args: []any{int64(1)}, wantErr: "argument 1 (key): want string, got int"},
			{fn: "get", args: []any{nil}, wantErr: "argument 1 (key): want string, got nil"},
			{fn: "get", args: []any{""}, wantErr: "key is empty"},
			{fn: "get", args: []any{long}, wantErr: "too large: key is 257 bytes, more than 256"},
			{fn: "set", args: []any{long, "x"}, wantErr: "key is 257 bytes"},
			{fn: "delete", args: []any{""}, wantErr: "key is empty"},
			{fn: "delete", args: []any{[]any{}}, wantErr: "want string, got list"},
			{fn: "incr", args: []any{"", int64(1)}, wantErr: "key is empty"},
			{fn: "set", args: []any{"k", "v", "soon"}, wantErr: `argument 3 (ttl): bad duration "soon"`},
			{fn: "set", args: []any{"k", "v", "-1s"}, wantErr: "argument 3 (ttl): duration must not be negative"},
			{fn: "set", args: []any{"k", "v", int64(0)}, wantErr: "argument 3 (ttl): must be positive"},
			{fn: "set", args: []any{"k", "v", true}, wantErr: "argument 3 (ttl)"},
			{fn: "set", args: []any{"k", math.NaN()}, wantErr: "bad value: value: NaN cannot be represented"},
			{fn: "set", args: []any{"k", map[string]any{"f": func() {}}}, wantErr: "bad value: f: func() is not a neutral value"},
			{fn: "set", args: []any{"k", strings.Repeat("x", 70000)}, wantErr: "too large: value is more than 65536 bytes"},
			{fn: "incr", args: []any{"k", int64(1), "0s"}, wantErr: "argument 3 (ttl): must be positive"},
			{fn: "rate", args: []any{"k", int64(0), "1s"}, wantErr: "limit 0 is out of range 1..10000"},
			{fn: "rate", args: []any{"k", int64(10001), "1s"}, wantErr: "limit 10001 is out of range"},
			{fn: "rate", args: []any{"k", int64(math.MaxInt64), "1s"}, wantErr: "out of range"},
			{fn: "rate", args: []any{"k", int64(-1), "1s"}, wantErr: "out of range"},
			{fn: "rate", args: []any{"k", 2.5, "1s"}, wantErr: "argument 2 (limit): want integer"},
			{fn: "rate", args: []any{"k", nil, "1s"}, wantErr: "argument 2 (limit)"},
			{fn: "rate", args: []any{"k", int64(1), "0s"}, wantErr: "window must be positive"},
			{fn: "rate", args: []any{"k", int64(1), nil}, wantErr: "argument 3 (window)"},
			{fn: "rate", args: []any{"", int64(1), "1s"}, wantErr: "key is empty"},
			{fn: "get", args: []any{"k"}, want: nil}, // no failed call stored anything
		},
	}
	for name, steps := range scenarios {
		t.Run(name, func(t *testing.T) {
			clock := newClock()
			store := NewStore(Limits{}, clock.now)
			m := New(store)
			for i, st := range steps {
				clock.advance(st.advance)
				got, err := call(t, m, st.fn, st.args...)
				if st.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), st.wantErr) {
						t.Errorf("step %d: %s%v: error %v, want %q", i, st.fn, st.args, err, st.wantErr)
					}
					continue
				}
				if err != nil || !stdlib.Equal(got, st.want) {
					t.Errorf("step %d: %s%v = %v, %v; want %v", i, st.fn, st.args, got, err, st.want)
				}
				checkTypes(t, got, st.want)
			}
			checkInvariants(t, store)
		})
	}
}

// checkTypes fails when got holds a float where want holds an int64:
// Equal accepts both, but a script would see 1.0 instead of 1.
func checkTypes(t *testing.T, got, want any) {
	t.Helper()
	switch w := want.(type) {
	case int64:
		if _, ok := got.(int64); !ok {
			t.Errorf("%v is a %T, want int64", got, got)
		}
	case map[string]any:
		g, _ := got.(map[string]any)
		for k := range w {
			checkTypes(t, g[k], w[k])
		}
	}
}

// What set stores and get returns are copies: neither the caller's value
// nor a returned one aliases the store.
func TestCopiesInAndOut(t *testing.T) {
	m := New(nil)
	v := map[string]any{"list": []any{int64(1)}}
	if _, err := call(t, m, "set", "k", v); err != nil {
		t.Fatal(err)
	}
	v["list"].([]any)[0] = int64(99)
	v["new"] = true
	got, _ := call(t, m, "get", "k")
	got.(map[string]any)["list"].([]any)[0] = int64(42)
	again, _ := call(t, m, "get", "k")
	if want := map[string]any{"list": []any{int64(1)}}; !stdlib.Equal(again, want) {
		t.Errorf("stored value changed to %v", again)
	}
}

func TestModuleShape(t *testing.T) {
	m := New(nil)
	if m.Name != "state" || len(m.Funcs) != 5 {
		t.Fatalf("module %q with %d funcs", m.Name, len(m.Funcs))
	}
	for _, f := range m.Funcs {
		if f.Kwargs || f.Blocking || f.Doc == "" || f.Impl == nil {
			t.Errorf("%s: want doc, impl, no kwargs, not blocking", f.Name)
		}
	}
}

// Two modules over one store see the same keys: that is how the host
// shares state between hooks.
func TestModulesShareStore(t *testing.T) {
	s := NewStore(Limits{}, nil)
	a, b := New(s), New(s)
	if _, err := call(t, a, "set", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if got, _ := call(t, b, "get", "k"); got != "v" {
		t.Errorf("b sees %v", got)
	}
}
