package host

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// Run slots. Hook calls are CPU work: when more start at once than the
// cores can run, every one of them waits for a CPU while its deadline
// runs, and they time out together (on two cores, 64 concurrent fires of
// guards on long shell lines did). So a hook call first takes one of
// limits.concurrency run slots, waiting in line when none is free, and
// its deadline starts when it has one. The wait is bounded by
// limits.queue_timeout and the caller's context: past it the call is the
// hook's failure, with a reason that says the host was saturated, and
// its error behaviour applies (a guard that fails closed denies).
//
// The slots are a buffered channel: taking a free one is one
// non-blocking send, giving it back one receive, so a host with no load
// pays a few nanoseconds per call.

// DefaultQueueTimeout is how long a hook call waits for a run slot when
// the config sets no limits.queue_timeout.
const DefaultQueueTimeout = 5 * time.Second

// DefaultConcurrency is the number of run slots when the config sets no
// limits.concurrency: one per processor Go runs on. Hook calls are CPU
// work, so one more call than cores only makes two calls share a core
// and both slower; BenchmarkFireBurst (64 fires at once of a guard doing
// a few milliseconds of work, on a loaded two-core machine) measured the
// share of calls that timed out at 3-5 % with one slot per core, 18-23 %
// with two, 50-57 % with four, and 97 % with no bound. An isolated hook's
// call holds its slot while its worker process computes, which is CPU
// work too.
func DefaultConcurrency() int { return runtime.GOMAXPROCS(0) }

// runSlots bounds the hook calls running at once. The settings change
// with the config: a new limit is a new channel, and a call gives its
// slot back to the channel it took it from.
type runSlots struct {
	sem     atomic.Pointer[chan struct{}]
	wait    atomic.Int64 // queue timeout, in nanoseconds
	waiters atomic.Int64
}

func newRunSlots(cfg *Config) *runSlots {
	s := &runSlots{}
	s.configure(cfg)
	return s
}

// configure applies a config's limits.concurrency and
// limits.queue_timeout (a new config).
func (s *runSlots) configure(cfg *Config) {
	n, wait := cfg.Concurrency(), cfg.QueueTimeout()
	if cur := s.sem.Load(); cur == nil || cap(*cur) != n {
		sem := make(chan struct{}, n)
		s.sem.Store(&sem)
	}
	s.wait.Store(int64(wait))
}

// tryAcquire takes a free slot, if one is, without waiting.
func (s *runSlots) tryAcquire() (sem chan struct{}, ok bool) {
	sem = *s.sem.Load()
	select {
	case sem <- struct{}{}:
		return sem, true
	default:
		return nil, false
	}
}

// acquire waits in line for a slot, at most the queue timeout and while
// ctx lasts; err says why it got none.
func (s *runSlots) acquire(ctx context.Context) (sem chan struct{}, err error) {
	s.waiters.Add(1)
	defer s.waiters.Add(-1)
	sem = *s.sem.Load()
	wait := time.Duration(s.wait.Load())
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case sem <- struct{}{}:
		return sem, nil
	case <-timer.C:
		return nil, fmt.Errorf("%w: no run slot free within %v (%d hook calls running, %d waiting)",
			ErrSaturated, wait, len(sem), s.waiters.Load()-1)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release gives a slot back to the channel it was taken from.
func releaseSlot(sem chan struct{}) { <-sem }

// waiting is the number of hook calls waiting for a slot.
func (s *runSlots) waiting() int64 { return s.waiters.Load() }

// ErrSaturated is the cause of a hook's failure when it waited for a run
// slot longer than limits.queue_timeout: the host had more hook calls to
// run than its cores and its queue could take.
var ErrSaturated = errors.New("the host was saturated")

// awaitSlot waits, before the hook's clock starts, for a run slot; a
// wait that ends without one is the hook's failure (a timeout when the
// caller's context ended it, an error saying the host was saturated
// otherwise).
func (fr *firing) awaitSlot(b *boundHook) (sem chan struct{}, entry TraceEntry, err error) {
	begin := time.Now()
	sem, err = fr.h.slots.acquire(fr.ctx)
	fr.now = monoNow()
	if err == nil {
		return sem, TraceEntry{}, nil
	}
	entry = TraceEntry{Hook: b.id, Priority: b.priority, Duration: time.Since(begin)}
	if fr.ctx.Err() != nil {
		fr.ctxEnded = true
		entry.Outcome, entry.Error = OutcomeTimeout, fr.timeoutText(b, false)
		return nil, entry, errors.New(entry.Error)
	}
	fr.h.logger.Warn("hook call found no run slot: the host is saturated", "hook", b.id, "error", err)
	entry.Outcome, entry.Error = OutcomeError, err.Error()
	return nil, entry, err
}
