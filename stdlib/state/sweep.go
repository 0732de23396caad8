package state

import (
	"fmt"
	"time"
)

// The helpers below run with s.mu held. They keep three invariants: bytes
// is the sum of the entries' sizes, earliest is at most every entry's
// expiry, and no entry passes the limits.

// liveLocked returns key's entry, dropping it first if it has expired.
func (s *Store) liveLocked(key string, now time.Duration) *entry {
	e := s.entries[key]
	if e != nil && now >= e.expires {
		s.removeLocked(key, e)
		return nil
	}
	return e
}

func (s *Store) removeLocked(key string, e *entry) {
	delete(s.entries, key)
	s.bytes -= e.size
}

// putLocked stores e under key, replacing any entry there.
func (s *Store) putLocked(key string, e *entry, now time.Duration) error {
	if err := s.reserveLocked(key, e.size, now); err != nil {
		return err
	}
	if old := s.entries[key]; old != nil {
		s.bytes -= old.size
	}
	s.entries[key] = e
	s.bytes += e.size
	s.noteExpiryLocked(e.expires)
	return nil
}

// reserveLocked checks that key's entry may take size bytes, sweeping
// expired keys first if it would not fit otherwise. The sweep may remove
// key's own entry only if it has expired, in which case it is being
// replaced anyway.
func (s *Store) reserveLocked(key string, size int64, now time.Duration) error {
	err := s.fitsLocked(key, size)
	if err != nil && s.sweepLocked(now) > 0 {
		err = s.fitsLocked(key, size)
	}
	return err
}

func (s *Store) fitsLocked(key string, size int64) error {
	keys, bytes := len(s.entries), s.bytes+size
	if old := s.entries[key]; old != nil {
		bytes -= old.size
	} else {
		keys++
	}
	if keys > s.limits.MaxKeys {
		return fmt.Errorf("%w: it holds %d keys, the most allowed", ErrFull, len(s.entries))
	}
	if bytes > s.limits.MaxBytes {
		return fmt.Errorf("%w: about %d of %d bytes in use, %d more needed",
			ErrFull, s.bytes, s.limits.MaxBytes, bytes-s.bytes)
	}
	return nil
}

func (s *Store) noteExpiryLocked(t time.Duration) {
	s.earliest = min(s.earliest, t)
}

// maybeSweepLocked counts a write and sweeps once the writes since the
// last sweep reach a quarter of the keys: a sweep visits every key, so
// each write pays for about four visits, and expired keys never outnumber
// live ones for long.
func (s *Store) maybeSweepLocked(now time.Duration) {
	s.writes++
	if s.writes >= max(minSweepInterval, len(s.entries)/4) {
		s.sweepLocked(now)
	}
}

// sweepLocked removes the expired entries and returns how many. It costs
// nothing until the earliest expiry has passed, so a full store refusing
// writes does not walk every key on each refusal.
func (s *Store) sweepLocked(now time.Duration) int {
	s.writes = 0
	if now < s.earliest {
		return 0
	}
	removed, next := 0, never
	for k, e := range s.entries {
		if now >= e.expires {
			s.removeLocked(k, e)
			removed++
			continue
		}
		next = min(next, e.expires)
	}
	s.earliest = next
	return removed
}
