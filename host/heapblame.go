package host

import (
	"context"
	"runtime/metrics"
	"slices"
	"time"
)

// Which hook to blame when the heap passes limits.memory. Go cannot say
// which goroutine allocated what, so when several hooks run at that
// moment the watchdog cannot tell the one growing the heap from the ones
// that merely ran beside it. Striking them all would let one file's
// memory bomb quarantine another file's guard, and a quarantined guard is
// skipped whatever the event's error behaviour. So a hook is struck only
// when nothing else ran:
//
//   - When the calls running belong to one hook, it is to blame: its
//     calls are interrupted, and each counts a strike.
//   - When several hooks run and exactly one of them is a suspect (see
//     below), only its calls are interrupted, without a strike; the
//     others run on. Should the heap still be over the limit at the next
//     sample, the calls still running are judged again.
//   - Otherwise the watchdog cannot tell: every call running is
//     interrupted, none counts a strike, and their hooks become suspects
//     for suspectFor.
//
// Suspects run one at a time (a fire waits for its turn before its
// hook's clock starts, as it does for a starting worker), so a suspect
// that grows the heap again soon runs alone when it does, and is struck.
// A hook that ran beside a memory bomb is interrupted once, becomes a
// suspect, and is never struck for it. Calls served by a worker process
// are never blamed: their memory is not the host's.

// watchedCall.heapHit is heapNotHit, or the heap event (a count of the
// times the heap passed the limit) that interrupted the call, shifted
// left by one, with heapStrike set when the call was to blame.
const (
	heapNotHit = 0
	heapStrike = 1
)

// heapHitOf is the heapHit of a call interrupted at event.
func heapHitOf(event uint64, strike bool) uint64 {
	if strike {
		return event<<1 | heapStrike
	}
	return event << 1
}

// suspectFor is how long a hook stays a suspect: the strike window.
const suspectFor = strikeWindow

// A suspectSet maps a suspect hook's id to when it stops being one
// (nanoseconds since epoch). It is never changed once published: the
// watchdog publishes a new one.
type suspectSet map[string]int64

// isSuspect reports whether hook id is a suspect at now.
func (w *watchdog) isSuspect(id string, now time.Duration) bool {
	s := w.suspects.Load()
	if s == nil {
		return false
	}
	until, ok := (*s)[id]
	return ok && until > int64(now)
}

// awaitTurn waits until no other suspect runs, or ctx ends; release ends
// the turn.
func (w *watchdog) awaitTurn(ctx context.Context) (release func(), err error) {
	select {
	case w.turn <- struct{}{}:
		return func() { <-w.turn }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkHeap samples the heap and, when it is over the limit, interrupts
// the calls to blame, marking each so its fire can say why. Then, until
// every call it interrupted has left (what it built is live until it
// returns) and their garbage is collected, it judges nothing unless the
// heap passes half as much again: a heap they still fill must not be
// blamed on the calls that ran beside them, but a bomb running meanwhile
// is still stopped.
func (w *watchdog) checkHeap() {
	limit := w.limit.Load()
	if limit <= 0 || w.collecting.Load() {
		return // no limit, or the garbage of the last calls interrupted is not yet collected
	}
	metrics.Read(w.heap)
	if w.heap[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	heap := w.heap[0].Value.Uint64()
	if heap <= uint64(limit) && !w.collectDue {
		return
	}
	w.passes.Add(1)
	defer w.passes.Add(1)
	var running []*watchedCall
	unwinding := false
	w.eachCall(func(c *watchedCall) {
		switch {
		case c.isolated:
		case c.Interrupted():
			unwinding = unwinding || c.heapHit.Load() != heapNotHit
		default:
			running = append(running, c)
		}
	})
	switch {
	case unwinding && heap <= uint64(limit)+uint64(limit)/2:
		return
	case unwinding && !w.emergencyCollected:
		// Free what the calls that already returned left before judging
		// the others: only that is garbage yet.
		w.emergencyCollected = true
		w.collect()
		return
	case w.collectDue && !unwinding:
		w.collectDue = false
		w.collect()
		return
	case heap <= uint64(limit):
		return
	}
	culprit, strike := w.blame(running, monoNow())
	w.heapEvents++
	hit := heapHitOf(w.heapEvents, strike)
	for _, c := range running {
		if (culprit == "" || c.Hook == culprit) && c.heapHit.CompareAndSwap(heapNotHit, hit) {
			c.Interrupt()
			w.collectDue, w.emergencyCollected = true, false
		}
	}
}

// blame names the hook whose calls to interrupt among those running,
// and whether they count a strike; with no name, every call is
// interrupted and their hooks become suspects.
func (w *watchdog) blame(running []*watchedCall, now time.Duration) (culprit string, strike bool) {
	var hooks []string
	for _, c := range running {
		if !slices.Contains(hooks, c.Hook) {
			hooks = append(hooks, c.Hook)
		}
	}
	switch len(hooks) {
	case 0:
		return "", false
	case 1:
		return hooks[0], true
	}
	var suspects []string
	for _, id := range hooks {
		if w.isSuspect(id, now) {
			suspects = append(suspects, id)
		}
	}
	if len(suspects) == 1 {
		return suspects[0], false
	}
	next := suspectSet{}
	if old := w.suspects.Load(); old != nil {
		for id, until := range *old {
			if until > int64(now) {
				next[id] = until
			}
		}
	}
	for _, id := range hooks {
		next[id] = int64(now + suspectFor)
	}
	w.suspects.Store(&next)
	return "", false
}
