package state

import (
	"context"
	"time"
)

// A Backend is where the state module keeps its keys: a [Store] in the
// host's memory (see [Memory]), or a server several processes share
// (package redisstate). Every backend gives scripts the same functions
// with the same semantics and errors: the module checks keys, values,
// limits and windows against [Backend.Limits] before it calls the
// backend, and each backend reports a key of the wrong kind with
// [ErrWrongType] and the same words.
//
// Methods take the calling hook's context: a backend that waits on a
// network gives up when it is done, so that no state call outlives the
// hook's deadline.
type Backend interface {
	// Get returns a copy of key's value, or nil when the key is absent or
	// expired.
	Get(ctx context.Context, key string) (any, error)
	// Set stores a copy of value under key for ttl (0: no expiry),
	// replacing whatever the key held; a nil value deletes the key.
	Set(ctx context.Context, key string, value any, ttl time.Duration) error
	// Delete removes key and reports whether it held anything live.
	Delete(ctx context.Context, key string) (bool, error)
	// Incr adds by to the integer under key and returns the sum; an
	// absent key counts from 0 and gets ttl, an existing one keeps its
	// expiry.
	Incr(ctx context.Context, key string, by int64, ttl time.Duration) (int64, error)
	// Rate counts one event under key if fewer than limit were counted in
	// the last window (see [Store.Rate]).
	Rate(ctx context.Context, key string, limit int, window time.Duration) (RateResult, error)
	// Limits are the bounds the module checks before each call.
	Limits() Limits
}

// Health is what a backend knows about its store, for a daemon's status
// endpoint.
type Health struct {
	// Backend names the kind of store: "memory" or "redis".
	Backend string
	// Target is where the store is (a Redis address, without
	// credentials); empty for memory.
	Target string
	// Checked reports whether any operation has run yet; Answered and Err
	// mean nothing before.
	Checked bool
	// Answered reports whether the last operation got an answer from the
	// store (an answer that was an error of the script's making, such as
	// a wrong type, counts as one).
	Answered bool
	// Err is why the last operation got no answer; nil when it did.
	Err error
	// At is when the last operation ended.
	At time.Time
}

// A HealthReporter is a backend that reports its Health.
type HealthReporter interface {
	Health() Health
}

// Memory returns store as a Backend: the keys live in this process, are
// shared by the hooks of one host, and are lost when it exits. A nil
// store means a fresh store with the default limits.
func Memory(store *Store) Backend {
	if store == nil {
		store = NewStore(Limits{}, nil)
	}
	return memory{store}
}

// memory adapts a Store, whose calls never wait on anything but its
// mutex, to the Backend interface: the context is not needed.
type memory struct{ s *Store }

// Get implements Backend.
func (m memory) Get(_ context.Context, key string) (any, error) { return m.s.Get(key) }

// Set implements Backend.
func (m memory) Set(_ context.Context, key string, value any, ttl time.Duration) error {
	return m.s.Set(key, value, ttl)
}

// Delete implements Backend; the key is checked here because Store.Delete
// reports only whether it held the key.
func (m memory) Delete(_ context.Context, key string) (bool, error) {
	if err := m.s.checkKey(key); err != nil {
		return false, err
	}
	return m.s.Delete(key), nil
}

// Incr implements Backend.
func (m memory) Incr(_ context.Context, key string, by int64, ttl time.Duration) (int64, error) {
	return m.s.Incr(key, by, ttl)
}

// Rate implements Backend.
func (m memory) Rate(_ context.Context, key string, limit int, window time.Duration) (RateResult, error) {
	return m.s.Rate(key, limit, window)
}

// Limits implements Backend: the store's.
func (m memory) Limits() Limits { return m.s.Limits() }

// Health reports the memory backend, which always answers.
func (m memory) Health() Health { return Health{Backend: "memory", Checked: true, Answered: true} }
