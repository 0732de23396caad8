package state

import (
	"time"
)

// timestampSize is what one slot of a rate window costs.
const timestampSize = 8

// A RateResult is the outcome of one Rate call.
type RateResult struct {
	// Allowed reports whether the event fits in the window; only allowed
	// events are counted.
	Allowed bool
	// Remaining is how many more events the window allows now.
	Remaining int
	// Reset is how long until the oldest counted event leaves the window,
	// that is until Remaining next grows; 0 when nothing is counted. When
	// Allowed is false, an event is allowed again after Reset.
	Reset time.Duration
}

// Rate counts one event under key if fewer than limit events were counted
// in the last window, and reports the outcome. It is a sliding log: the
// key keeps the timestamps of the events it counted, at most limit of
// them, oldest first; a call drops those older than the window, then
// counts the event if fewer than limit remain. Denied events are not
// counted, so a caller that keeps retrying is let through as soon as the
// window has room. The key expires one window after its newest event.
//
// limit must be between 1 and Limits.MaxRateLimit, and window positive. A
// call may use a different limit or window than the last one on the same
// key (a reloaded script); the stored timestamps are then judged by the
// new ones. A key that holds a value is an ErrWrongType error.
func (s *Store) Rate(key string, limit int, window time.Duration) (RateResult, error) {
	if err := s.checkRate(key, limit, window); err != nil {
		return RateResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clockLocked()
	s.maybeSweepLocked(now)
	e, err := s.windowLocked(key, now, window)
	if err != nil {
		return RateResult{}, err
	}
	w := e.events
	trim(w, now, window, limit)
	allowed := false
	if w.len() < limit {
		if err := s.makeRoomLocked(key, e, limit, now); err != nil {
			if w.len() == 0 { // a window that counts nothing is no use
				s.removeLocked(key, e)
			}
			return RateResult{}, err
		}
		// Times never run backwards within a window, even if the clock
		// does, so the log stays sorted.
		t := now
		if w.len() > 0 {
			t = max(t, w.newest())
		}
		w.push(t)
		allowed = true
	}
	s.shrinkLocked(e, limit)
	e.expires = expiry(w.newest(), window)
	s.noteExpiryLocked(e.expires)
	return RateResult{Allowed: allowed, Remaining: limit - w.len(), Reset: untilLeaves(w.oldest(), window, now)}, nil
}

func (s *Store) checkRate(key string, limit int, window time.Duration) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	if err := s.checkLimit(int64(limit)); err != nil {
		return err
	}
	return CheckWindow(window)
}

func (s *Store) checkLimit(limit int64) error { return s.limits.CheckRateLimit(limit) }

// windowLocked returns key's rate window, creating an empty one. A new
// window expires a window from now, so that a sweep while it grows, at
// the same now, cannot remove it.
func (s *Store) windowLocked(key string, now, window time.Duration) (*entry, error) {
	if e := s.liveLocked(key, now); e != nil {
		if e.events == nil {
			return nil, WrongType(key, "a value", "a rate window")
		}
		return e, nil
	}
	e := &entry{events: &ring{}, expires: expiry(now, window), size: entrySize(key, 0)}
	if err := s.putLocked(key, e, now); err != nil {
		return nil, err
	}
	return e, nil
}

// trim drops the events that left the window, then the oldest ones past
// limit. More than limit are counted only when the limit was lowered; the
// next event is then allowed once fewer than limit remain, which is when
// the oldest of the newest limit events leaves. Dropping the older ones
// changes no answer, and makes Reset report exactly that moment.
func trim(w *ring, now, window time.Duration, limit int) {
	// When now - window underflows, nothing is that old.
	if cutoff := now - window; cutoff < now {
		for w.len() > 0 && w.oldest() <= cutoff {
			w.popOldest()
		}
	}
	for w.len() > limit {
		w.popOldest()
	}
}

// makeRoomLocked grows e's ring, if it is full, by doubling up to limit,
// accounting the new slots against Limits.MaxBytes.
func (s *Store) makeRoomLocked(key string, e *entry, limit int, now time.Duration) error {
	w := e.events
	if w.len() < w.cap() {
		return nil
	}
	c := w.grownCap(limit)
	size := e.size + int64(c-w.cap())*timestampSize
	if err := s.reserveLocked(key, size, now); err != nil {
		return err
	}
	w.resize(c)
	s.bytes += size - e.size
	e.size = size
	return nil
}

// shrinkLocked gives back the slots past limit when the limit was lowered.
func (s *Store) shrinkLocked(e *entry, limit int) {
	w := e.events
	if w.cap() <= limit {
		return
	}
	size := e.size - int64(w.cap()-limit)*timestampSize
	w.resize(limit)
	s.bytes += size - e.size
	e.size = size
}

// untilLeaves is how long until an event at t leaves a window: at least
// 0, saturating instead of overflowing.
func untilLeaves(t, window, now time.Duration) time.Duration {
	exp := expiry(t, window)
	switch {
	case exp <= now:
		return 0
	case now < 0 && exp > never+now:
		return never
	}
	return exp - now
}
