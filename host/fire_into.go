package host

import (
	"context"
	"time"
)

// FireInto is Fire writing its Result into r, which must not be nil,
// and reusing the memory of r's Trace and Messages for the new ones. A
// caller that fires in a loop with one Result of its own (one per
// goroutine) makes a fire of hooks that allocate nothing allocate
// nothing either: Fire allocates the trace of every fire, and that
// garbage is what makes the collector run. Whatever r held before is
// overwritten and cleared (nothing of an earlier fire stays reachable
// through the reused memory), and slices taken from its Trace or
// Messages earlier change with it. An empty Trace or Messages may be
// non-nil. A host with an Observer does not reuse the memory, since the
// observer may keep the Result it is told of.
func (h *Host) FireInto(ctx context.Context, r *Result, event string, payload map[string]any) error {
	var reuse firingMemory
	if h.obs == nil {
		reuse = firingMemory{trace: r.Trace[:0], messages: r.Messages[:0]}
		clear(r.Trace[:cap(r.Trace)])
		clear(r.Messages[:cap(r.Messages)])
	}
	snap, shard := h.acquire()
	if snap == nil {
		*r = Result{Event: event, Decision: Decision{Action: Continue}, Payload: payload}
		return ErrClosed
	}
	defer snap.release(shard)
	if h.obs == nil {
		var err error
		*r, err, _ = h.fireOn(ctx, snap, event, payload, reuse)
		return err
	}
	start := time.Now()
	res, err, ran := h.fireOn(ctx, snap, event, payload, reuse)
	if ran {
		h.fireDone(FireReport{Result: res, Generation: snap.gen, Start: start, Duration: time.Since(start), Input: payload, Err: err})
	}
	*r = res
	return err
}

// firingMemory is what a fire may reuse for its trace and messages: the
// emptied slices of the caller's previous Result (see FireInto).
type firingMemory struct {
	trace    []TraceEntry
	messages []Message
}

// acquire takes a reference on the current snapshot, so that what it
// holds stays open until the fire is done; nil once the host is closed.
// The shard is the reference's, to give back to release.
func (h *Host) acquire() (s *snapshot, shard int) {
	for {
		s = h.current.Load()
		if s == nil {
			return nil, 0
		}
		if shard, ok := s.tryAcquire(); ok {
			return s, shard
		}
	}
}
