package state

import (
	"errors"
	"fmt"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// Defaults used for each zero field of [Limits].
const (
	DefaultMaxKeys       = 10000
	DefaultMaxKeyBytes   = 256
	DefaultMaxValueBytes = 64 << 10
	DefaultMaxBytes      = 32 << 20
	DefaultMaxRateLimit  = 10000
)

// Limits bound what a [Store] holds. The zero value of each field means
// its default; a negative field is invalid.
type Limits struct {
	// MaxKeys is how many keys the store holds, rate windows included.
	// Default DefaultMaxKeys (10000).
	MaxKeys int
	// MaxKeyBytes is the longest key, in bytes. Default DefaultMaxKeyBytes
	// (256).
	MaxKeyBytes int
	// MaxValueBytes is the largest value set may store, measured roughly
	// as the length of its JSON text. Default DefaultMaxValueBytes
	// (64 KiB).
	MaxValueBytes int
	// MaxBytes bounds all keys, values and rate windows together,
	// measured the same way, plus a small fixed cost per key and 8 bytes
	// per timestamp a rate window can hold. Default DefaultMaxBytes
	// (32 MiB).
	MaxBytes int64
	// MaxRateLimit is the largest limit rate accepts; a rate key keeps up
	// to that many timestamps. Default DefaultMaxRateLimit (10000).
	MaxRateLimit int
}

// Validate reports whether l is usable: no field may be negative.
func (l Limits) Validate() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"MaxKeys", int64(l.MaxKeys)},
		{"MaxKeyBytes", int64(l.MaxKeyBytes)},
		{"MaxValueBytes", int64(l.MaxValueBytes)},
		{"MaxBytes", l.MaxBytes},
		{"MaxRateLimit", int64(l.MaxRateLimit)},
	} {
		if f.v < 0 {
			return fmt.Errorf("state: Limits.%s is %d, must not be negative", f.name, f.v)
		}
	}
	return nil
}

// withDefaults returns l with each zero field set to its default.
func (l Limits) withDefaults() Limits {
	l.MaxKeys = orDefault(l.MaxKeys, DefaultMaxKeys)
	l.MaxKeyBytes = orDefault(l.MaxKeyBytes, DefaultMaxKeyBytes)
	l.MaxValueBytes = orDefault(l.MaxValueBytes, DefaultMaxValueBytes)
	l.MaxBytes = orDefault(l.MaxBytes, DefaultMaxBytes)
	l.MaxRateLimit = orDefault(l.MaxRateLimit, DefaultMaxRateLimit)
	return l
}

func orDefault[T int | int64](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// CheckKey reports whether key is usable: not empty, and no longer than
// MaxKeyBytes. Every backend checks keys the same way, so that a script
// sees the same errors whichever one the host uses.
func (l Limits) CheckKey(key string) error {
	l = l.withDefaults()
	switch {
	case key == "":
		return errors.New("key is empty")
	case len(key) > l.MaxKeyBytes:
		return fmt.Errorf("%w: key is %d bytes, more than %d", ErrTooLarge, len(key), l.MaxKeyBytes)
	}
	return nil
}

// CheckValue measures value, then checks that it is neutral, and returns
// its size as MaxValueBytes counts it. Measuring first stops early on a
// huge value, so the full walk of stdlib.Check only ever runs on a value
// of bounded size.
func (l Limits) CheckValue(value any) (int64, error) {
	l = l.withDefaults()
	max := int64(l.MaxValueBytes)
	n := sizeOf(value, max)
	if n > max {
		return 0, fmt.Errorf("%w: value is more than %d bytes (measured as JSON)", ErrTooLarge, max)
	}
	if err := stdlib.Check(value); err != nil {
		return 0, fmt.Errorf("bad value: %w", err)
	}
	return n, nil
}

// CheckRateLimit reports whether limit is a usable rate limit: from 1 to
// MaxRateLimit.
func (l Limits) CheckRateLimit(limit int64) error {
	l = l.withDefaults()
	if limit < 1 || limit > int64(l.MaxRateLimit) {
		return fmt.Errorf("limit %d is out of range 1..%d", limit, l.MaxRateLimit)
	}
	return nil
}

// CheckWindow reports whether window is a usable rate window: positive.
func CheckWindow(window time.Duration) error {
	if window <= 0 {
		return errors.New("window must be positive")
	}
	return nil
}
