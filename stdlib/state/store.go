package state

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// Errors a Store returns, wrapped with the details.
var (
	// ErrFull: storing would pass Limits.MaxKeys or Limits.MaxBytes, even
	// after expired keys were swept.
	ErrFull = errors.New("state store full")
	// ErrTooLarge: a key or value passes Limits.MaxKeyBytes or
	// Limits.MaxValueBytes.
	ErrTooLarge = errors.New("too large")
	// ErrWrongType: the key holds a value where a rate window was expected,
	// or the reverse, or incr found a value that is not an integer.
	ErrWrongType = errors.New("wrong type")
)

// WrongType is the error for key holding what (a value, a rate window, a
// string) where the call wants something else. Every backend words it
// the same way.
func WrongType(key, holds, want string) error {
	return fmt.Errorf("%w: key %q holds %s, not %s", ErrWrongType, key, holds, want)
}

// Overflow is the error of an incr whose sum would not fit in 64 bits.
func Overflow(n, by int64) error {
	return fmt.Errorf("%d + %d overflows a 64-bit integer", n, by)
}

// never is the expiry of a key without a TTL.
const never = time.Duration(math.MaxInt64)

// entryOverhead is what each key costs on top of its key and value bytes,
// roughly the map slot and the entry struct.
const entryOverhead = 64

// intSize is what an int64 value counts, as sizeOf measures it.
const intSize = 8

// minSweepInterval is the fewest writes between two amortised sweeps.
const minSweepInterval = 64

// A Store is a key-value store shared by the hooks of one host. It is safe
// for concurrent use. It starts no goroutine and needs no Close: expired
// keys are dropped when read and swept during writes.
type Store struct {
	limits Limits
	now    func() time.Time
	epoch  time.Time

	mu       sync.Mutex
	entries  map[string]*entry
	bytes    int64         // sum of entry sizes
	earliest time.Duration // no entry expires before this
	writes   int           // writes since the last sweep
}

// An entry holds either a value or a rate window. Times are durations
// since the store's epoch, so they use the monotonic clock when the clock
// has one.
type entry struct {
	value   any   // a neutral value, never nil; lists and maps never mutated
	events  *ring // the rate window's events; nil for a value
	expires time.Duration
	size    int64
}

// NewStore returns an empty store bounded by limits, reading the clock
// now (time.Now when nil). It panics if limits is invalid (see
// Limits.Validate): limits come from the host's code or validated config,
// never from a script.
func NewStore(limits Limits, now func() time.Time) *Store {
	if err := limits.Validate(); err != nil {
		panic(err)
	}
	if now == nil {
		now = time.Now
	}
	return &Store{
		limits:   limits.withDefaults(),
		now:      now,
		epoch:    now(),
		entries:  make(map[string]*entry),
		earliest: never,
	}
}

// Limits returns the store's limits, defaults filled in.
func (s *Store) Limits() Limits { return s.limits }

// clockLocked reads the clock. It is read under the lock so that the
// writes to one key see non-decreasing times.
func (s *Store) clockLocked() time.Duration { return s.now().Sub(s.epoch) }

// Get returns a copy of key's value, or nil when the key is absent or
// expired. A key that holds a rate window is an ErrWrongType error.
func (s *Store) Get(key string) (any, error) {
	if err := s.checkKey(key); err != nil {
		return nil, err
	}
	s.mu.Lock()
	var v any
	isWindow := false
	if e := s.liveLocked(key, s.clockLocked()); e != nil {
		v, isWindow = e.value, e.events != nil
	}
	s.mu.Unlock()
	if isWindow {
		return nil, WrongType(key, "a rate window", "a value")
	}
	// A stored list or map is never mutated (set replaces it whole), so
	// copying outside the lock is safe.
	return stdlib.Copy(v), nil
}

// Set stores a copy of value under key, replacing whatever the key held.
// A ttl of 0 means no expiry. A nil value deletes the key, as assigning
// nil to a Lua table field does.
func (s *Store) Set(key string, value any, ttl time.Duration) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	if value == nil {
		s.Delete(key)
		return nil
	}
	size, err := s.checkValue(value)
	if err != nil {
		return err
	}
	value = stdlib.Copy(value)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clockLocked()
	s.maybeSweepLocked(now)
	return s.putLocked(key, &entry{value: value, expires: expiry(now, ttl), size: entrySize(key, size)}, now)
}

// Delete removes key and reports whether it held anything live.
func (s *Store) Delete(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.liveLocked(key, s.clockLocked())
	if e != nil {
		s.removeLocked(key, e)
	}
	return e != nil
}

// Incr adds by to the integer under key and returns the sum. An absent or
// expired key counts from 0 and gets the ttl (0: no expiry); an existing
// key keeps its expiry. A key that holds anything but an int64 is an
// ErrWrongType error; a sum that overflows is an error and changes
// nothing.
func (s *Store) Incr(key string, by int64, ttl time.Duration) (int64, error) {
	if err := s.checkKey(key); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clockLocked()
	s.maybeSweepLocked(now)
	e := s.liveLocked(key, now)
	if e == nil {
		if err := s.putLocked(key, &entry{value: by, expires: expiry(now, ttl), size: entrySize(key, intSize)}, now); err != nil {
			return 0, err
		}
		return by, nil
	}
	n, err := intValue(key, e)
	if err != nil {
		return 0, err
	}
	if (by > 0 && n > math.MaxInt64-by) || (by < 0 && n < math.MinInt64-by) {
		return 0, Overflow(n, by)
	}
	e.value = n + by // an int64 has a fixed size: no accounting to redo
	return n + by, nil
}

func intValue(key string, e *entry) (int64, error) {
	if e.events != nil {
		return 0, WrongType(key, "a rate window", "an integer")
	}
	n, ok := e.value.(int64)
	if !ok {
		return 0, WrongType(key, "a "+stdlib.TypeName(e.value), "an integer")
	}
	return n, nil
}

// Usage is a snapshot of what a store holds.
type Usage struct {
	Keys  int   // keys held, expired ones not yet swept included
	Bytes int64 // their approximate size, as Limits.MaxBytes counts it
}

// Usage reports what the store holds now.
func (s *Store) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Usage{Keys: len(s.entries), Bytes: s.bytes}
}

// Sweep removes every expired key now and returns how many it removed.
// The store sweeps by itself during writes; a host may also call Sweep,
// for example before reporting Usage.
func (s *Store) Sweep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sweepLocked(s.clockLocked())
}

func (s *Store) checkKey(key string) error { return s.limits.CheckKey(key) }

func (s *Store) checkValue(value any) (int64, error) { return s.limits.CheckValue(value) }

func entrySize(key string, valueSize int64) int64 {
	return int64(len(key)) + valueSize + entryOverhead
}

// expiry is the time at which a key set at now with ttl expires, never
// for a ttl of 0, saturating instead of overflowing.
func expiry(now, ttl time.Duration) time.Duration {
	if ttl <= 0 || now > never-ttl {
		return never
	}
	return now + ttl
}
