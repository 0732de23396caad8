package host

import (
	"context"
	"runtime/metrics"
	"slices"
	"time"
)

// Which hook to blame when the heap passes limits.memory. The process
// heap holds much that no hook allocated (serve's request buffers, other
// fires' payloads, the host's own work), and Go cannot say which
// goroutine allocated what; but each call has a meter (scripting.Call.
// Charged) counting what the call allocated through the interpreter and
// hookhost's builtins. So a strike is earned only by a call whose own
// meter explains the heap:
//
//   - A running call that charged at least 1/heapBlameShare of the
//     limit grew the heap: the calls of every hook with such a call are
//     interrupted, and each counts a strike.
//   - Otherwise no hook's meter explains the heap: the calls are
//     interrupted to keep the process alive, and none counts a strike.
//     To spare the others when one of them is the cause (say, memory a
//     meter does not see), the watchdog narrows down who to interrupt:
//     when the calls running belong to one hook, only its calls are
//     interrupted; when several hooks run and exactly one of them is a
//     suspect (see below), only its calls are; otherwise all are, and
//     their hooks become suspects for suspectFor.
//
// Suspects run one at a time (a fire waits for its turn before its
// hook's clock starts, as it does for a starting worker), so a suspect
// that grows the heap again soon runs alone when it does. Calls served by
// a worker process are never blamed: their memory is not the host's.
//
// An interrupted call fails, and its error behaviour applies: a guard
// that fails closed denies that one fire. A call stopped by its own
// per-call budget (scripting.ErrMemoryLimit) is no strike either: the
// meter stopped it before it cost the host anything, and the payload it
// was given may be what made it allocate.

// heapBlameShare is the part of limits.memory a call's meter must show
// for the call to be blamed when the heap passes the limit. The default
// per-call budget is an eighth of the limit, so by default a call's own
// meter stops it before the heap watchdog could blame it; the share
// matters when Options.Limits raises the per-call budget.
const heapBlameShare = 16

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
	culprits, strike := w.blame(running, monoNow(), limit)
	w.heapEvents++
	hit := heapHitOf(w.heapEvents, strike)
	for _, c := range running {
		if (culprits == nil || slices.Contains(culprits, c.Hook)) && c.heapHit.CompareAndSwap(heapNotHit, hit) {
			c.Interrupt()
			w.collectDue, w.emergencyCollected = true, false
		}
	}
}

// blame names the hooks whose calls to interrupt among those running,
// and whether they count a strike (only when their calls' meters explain
// the heap); with none named, every call is interrupted and their hooks
// become suspects.
func (w *watchdog) blame(running []*watchedCall, now time.Duration, limit int64) (culprits []string, strike bool) {
	var hooks []string
	for _, c := range running {
		if !slices.Contains(hooks, c.Hook) {
			hooks = append(hooks, c.Hook)
		}
		if c.Charged() >= limit/heapBlameShare && !slices.Contains(culprits, c.Hook) {
			culprits = append(culprits, c.Hook)
		}
	}
	if culprits != nil {
		return culprits, true
	}
	switch len(hooks) {
	case 0:
		return nil, false
	case 1:
		return hooks, false
	}
	var suspects []string
	for _, id := range hooks {
		if w.isSuspect(id, now) {
			suspects = append(suspects, id)
		}
	}
	if len(suspects) == 1 {
		return suspects, false
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
	return nil, false
}
