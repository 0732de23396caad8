package scripting

import (
	"errors"
	"math"
	"testing"
)

func TestCharge(t *testing.T) {
	const limit = 1 << 20
	for _, tc := range []struct {
		name    string
		charges []int64
		fail    bool // the last charge fails
	}{
		{"within", []int64{100, 200}, false},
		{"exactly the limit", []int64{limit / 2, limit / 2}, false},
		{"past the limit", []int64{limit / 2, limit/2 + 1}, true},
		{"one huge charge", []int64{math.MaxInt64}, true},
		{"huge after some", []int64{10, math.MaxInt64 - 5}, true},
		{"negative", []int64{-1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Call
			var err error
			for _, n := range tc.charges {
				err = c.Charge(n, limit)
			}
			if got := err != nil; got != tc.fail {
				t.Fatalf("last Charge: %v, want failure %v", err, tc.fail)
			}
			if err != nil && !errors.Is(err, ErrMemoryLimit) {
				t.Errorf("error %v does not wrap ErrMemoryLimit", err)
			}
			if c.Charged() < 0 {
				t.Errorf("Charged() = %d: the total overflowed", c.Charged())
			}
			if tc.fail && c.Charged() <= limit {
				t.Errorf("Charged() = %d after a refused charge, want past the limit (engines read it to name the cause)", c.Charged())
			}
		})
	}
}

func TestChargeUnlimited(t *testing.T) {
	var c Call
	if err := c.Charge(math.MaxInt64, 0); err != nil {
		t.Errorf("Charge without a limit: %v", err)
	}
	if err := c.Charge(1<<40, 0); err != nil {
		t.Errorf("Charge without a limit: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64MiB", 512 << 10: "512KiB", 1 << 30: "1GiB", 100: "100B", 1536: "1536B"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
