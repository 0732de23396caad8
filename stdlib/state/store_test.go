package state

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestLimitsDefaultsAndValidate(t *testing.T) {
	got := NewStore(Limits{}, nil).Limits()
	want := Limits{MaxKeys: 10000, MaxKeyBytes: 256, MaxValueBytes: 64 << 10, MaxBytes: 32 << 20, MaxRateLimit: 10000}
	if got != want {
		t.Errorf("defaults = %+v, want %+v", got, want)
	}
	if got := NewStore(Limits{MaxKeys: 3}, nil).Limits(); got.MaxKeys != 3 || got.MaxKeyBytes != 256 {
		t.Errorf("a set field was not kept, or a zero one not defaulted: %+v", got)
	}
	if err := (Limits{MaxBytes: -1}).Validate(); err == nil || !strings.Contains(err.Error(), "MaxBytes is -1") {
		t.Errorf("Validate = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("NewStore with a negative limit did not panic")
		}
	}()
	NewStore(Limits{MaxKeys: -1}, nil)
}

func TestMaxKeys(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{MaxKeys: 3}, clock.now)
	for i := range 3 {
		if err := s.Set(fmt.Sprint(i), int64(i), time.Duration(i+1)*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	err := s.Set("x", "x", 0)
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "3 keys") {
		t.Fatalf("4th key: %v, want ErrFull", err)
	}
	if err := s.Set("1", "replaced", 0); err != nil {
		t.Errorf("replacing a key in a full store: %v", err)
	}
	if _, err := s.Rate("r", 1, time.Second); !errors.Is(err, ErrFull) {
		t.Errorf("rate on a full store: %v", err)
	}
	if _, err := s.Incr("n", 1, 0); !errors.Is(err, ErrFull) {
		t.Errorf("incr on a full store: %v", err)
	}
	// Once a key has expired, the store sweeps it to make room.
	clock.advance(time.Second)
	if err := s.Set("x", "x", 0); err != nil {
		t.Errorf("after an expiry: %v", err)
	}
	if u := s.Usage(); u.Keys != 3 {
		t.Errorf("usage %+v, want 3 keys", u)
	}
	checkInvariants(t, s)
}

func TestMaxBytes(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{MaxBytes: 1000, MaxValueBytes: 600}, clock.now)
	big := strings.Repeat("x", 500)
	if err := s.Set("a", big, time.Minute); err != nil {
		t.Fatal(err)
	}
	err := s.Set("b", big, 0)
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "of 1000 bytes in use") {
		t.Fatalf("second big value: %v, want ErrFull", err)
	}
	if err := s.Set("a", big+"y", 0); err != nil {
		t.Errorf("growing a key within the bound: %v", err)
	}
	if err := s.Set("c", strings.Repeat("x", 700), 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("value past MaxValueBytes: %v", err)
	}
	if s.Delete("a"); s.Usage().Bytes != 0 {
		t.Errorf("empty store counts %d bytes", s.Usage().Bytes)
	}
	checkInvariants(t, s)
}

// A rate window's slots count against MaxBytes as it grows, and a full
// store refuses to grow it rather than pass the bound.
func TestRateWindowAccounting(t *testing.T) {
	clock := newClock()
	base := entrySize("r", 0)
	s := NewStore(Limits{MaxBytes: base + 16*timestampSize}, clock.now)
	for i := range 16 {
		r, err := s.Rate("r", 100, time.Minute)
		if err != nil || !r.Allowed {
			t.Fatalf("event %d: %+v, %v", i, r, err)
		}
		checkInvariants(t, s)
	}
	if _, err := s.Rate("r", 100, time.Minute); !errors.Is(err, ErrFull) {
		t.Fatalf("growing past MaxBytes: %v", err)
	}
	// A new window that cannot get its first slot is not kept.
	if _, err := s.Rate("r2", 100, time.Minute); !errors.Is(err, ErrFull) {
		t.Fatalf("new window past MaxBytes: %v", err)
	}
	if u := s.Usage(); u.Keys != 1 {
		t.Errorf("a failed window was kept: %+v", u)
	}
	checkInvariants(t, s)
	// Lowering the limit gives the slots back.
	if r, err := s.Rate("r", 4, time.Minute); err != nil || r.Allowed || r.Remaining != 0 {
		t.Fatalf("lowered limit: %+v, %v", r, err)
	}
	if got, want := s.Usage().Bytes, base+4*timestampSize; got != want {
		t.Errorf("bytes after shrinking = %d, want %d", got, want)
	}
	checkInvariants(t, s)
}

// Growing a new window may need a sweep; the sweep frees the expired
// key and leaves the new window alone.
func TestRateGrowthSweeps(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{MaxBytes: entrySize("r", 0) + entrySize("old", 10) + 2*timestampSize}, clock.now)
	if err := s.Set("old", strings.Repeat("x", 8), time.Second); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Second)
	for want := 3; want >= 2; want-- {
		r, err := s.Rate("r", 4, time.Minute)
		if err != nil || !r.Allowed || r.Remaining != want {
			t.Fatalf("rate = %+v, %v; want allowed, %d remaining", r, err, want)
		}
		checkInvariants(t, s)
	}
	if u := s.Usage(); u.Keys != 1 {
		t.Errorf("usage %+v, want only r", u)
	}
}

func TestRateRing(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{}, clock.now)
	const limit = 1000
	for i := range 3 * limit {
		r, err := s.Rate("r", limit, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		// One event per ms: the window of one second holds 1000 events,
		// so after the first 1000 every event finds one slot freed.
		if !r.Allowed {
			t.Fatalf("event %d denied: %+v", i, r)
		}
		clock.advance(time.Millisecond)
	}
	r, _ := s.Rate("r", limit, time.Second)
	r2, _ := s.Rate("r", limit, time.Second)
	if !r.Allowed || r2.Allowed || r2.Reset != time.Millisecond {
		t.Errorf("at the edge: %+v then %+v", r, r2)
	}
	checkInvariants(t, s)
}

// A clock that runs backwards must not unsort a window or break expiry.
func TestClockBackwards(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{}, clock.now)
	s.Rate("r", 3, time.Minute)
	clock.advance(-time.Hour)
	r, err := s.Rate("r", 3, time.Minute)
	if err != nil || !r.Allowed || r.Remaining != 1 {
		t.Errorf("after the clock went back: %+v, %v", r, err)
	}
	if err := s.Set("k", "v", time.Second); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Second)
	if v, _ := s.Get("k"); v != nil {
		t.Errorf("k did not expire")
	}
	checkInvariants(t, s)
}

// Writes sweep expired keys by themselves, without a goroutine, even
// keys that are never read again.
func TestAmortisedSweep(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{}, clock.now)
	for i := range 1000 {
		s.Set(fmt.Sprint("old", i), int64(i), time.Second)
	}
	clock.advance(time.Second)
	for i := range 300 {
		s.Set(fmt.Sprint("new", i), int64(i), 0)
	}
	if u := s.Usage(); u.Keys != 300 {
		t.Errorf("after 300 writes, %d keys held, want the 300 live ones", u.Keys)
	}
	checkInvariants(t, s)
}

func TestSweep(t *testing.T) {
	clock := newClock()
	s := NewStore(Limits{}, clock.now)
	s.Set("a", "x", time.Second)
	s.Set("b", "x", 2*time.Second)
	s.Set("c", "x", 0)
	s.Rate("r", 5, time.Second)
	if n := s.Sweep(); n != 0 {
		t.Errorf("swept %d before any expiry", n)
	}
	clock.advance(time.Second)
	if n := s.Sweep(); n != 2 {
		t.Errorf("swept %d, want a and r", n)
	}
	if u := s.Usage(); u.Keys != 2 {
		t.Errorf("usage %+v", u)
	}
	checkInvariants(t, s)
}

// Measuring stops early, so hostile values cost little and never
// overflow the stack.
func TestHugeValues(t *testing.T) {
	s := NewStore(Limits{}, nil)
	deep := any("x")
	for range 1_000_000 {
		deep = []any{deep}
	}
	// Measuring stops descending at MaxDepth, and Check names the depth.
	if err := s.Set("deep", deep, 0); err == nil || !strings.Contains(err.Error(), "nests deeper") {
		t.Errorf("deep: %v", err)
	}
	wide := make(map[string]any, 100000)
	for i := range 100000 {
		wide[fmt.Sprint(i)] = int64(i)
	}
	if err := s.Set("wide", wide, 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("wide: %v", err)
	}
	if err := s.Set("long", strings.Repeat("x", 1<<24), 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("long: %v", err)
	}
}

func TestSizeOf(t *testing.T) {
	tests := []struct {
		v    any
		want int64
	}{
		{nil, 4},
		{true, 5},
		{int64(1), 8},
		{"abc", 5},
		{[]any{}, 2},
		{[]any{"a", int64(1)}, 2 + 1 + 3 + 1 + 8},
		{map[string]any{"ab": "c"}, 2 + 5 + 3},
	}
	for _, tt := range tests {
		if got := sizeOf(tt.v, 1<<20); got != tt.want {
			t.Errorf("sizeOf(%v) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

func TestExpiryHelpers(t *testing.T) {
	if got := expiry(10, 0); got != never {
		t.Errorf("no ttl: %v", got)
	}
	if got := expiry(never-5, 10); got != never {
		t.Errorf("overflowing ttl: %v", got)
	}
	if got := untilLeaves(-10, never-5, -20); got != never {
		t.Errorf("saturating reset: %v", got)
	}
	if got := untilLeaves(0, 10, 20); got != 0 {
		t.Errorf("past reset: %v", got)
	}
}

// trim still enforces the limit when the window reaches before the
// earliest representable time.
func TestTrimHugeWindow(t *testing.T) {
	w := &ring{}
	w.resize(4)
	for i := range 4 {
		w.push(time.Duration(-1<<62 + i))
	}
	trim(w, -1<<62, never, 2)
	if w.len() != 2 || w.oldest() != -1<<62+2 {
		t.Errorf("after trim: %d events, oldest %v", w.len(), w.oldest())
	}
}
