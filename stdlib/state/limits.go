package state

import "fmt"

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
