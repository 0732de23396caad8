package host

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// The watchdog interrupts hook calls whose deadline has passed. Hooks run
// on the caller's goroutine; a call registers itself in a slot and the
// watchdog, one goroutine per host, scans the slots when the earliest
// deadline it knows of comes. No timer is made per call: a call only
// wakes the watchdog when its deadline is earlier than the next wake-up,
// which is rare once calls are flowing.
//
// While calls run, the watchdog also samples the process heap every
// heapPeriod; when it passes the limit, every call running is interrupted
// and marked, so that its fire reports the memory limit rather than a
// timeout. Reading one runtime/metrics sample costs well under a
// microsecond, so the sampling is cheap next to the calls it watches.
type watchdog struct {
	slots [watchSlots]watchSlot

	mu       sync.Mutex // guards overflow
	overflow map[*watchedCall]struct{}

	// limit is the heap budget in bytes; 0 turns sampling off.
	limit atomic.Int64
	// heap is the sample the watchdog goroutine reads, and only it.
	heap []metrics.Sample
	// collecting is set while a collection started after a memory
	// interrupt runs, so that only one runs at a time.
	collecting atomic.Bool
	// heapEvents counts the times the heap passed the limit with calls
	// to interrupt, and collectDue says that the calls last interrupted
	// for it have yet to leave before their garbage is collected; both
	// only for the watchdog goroutine (heapblame.go).
	heapEvents uint64
	collectDue bool
	// emergencyCollected is set once the heap, passing half as much again
	// as the limit while interrupted calls unwind, has been collected.
	emergencyCollected bool

	// passes is odd while the watchdog goroutine looks at the slots (a
	// scan, a heap check, the interrupts of stop): a call unregistered
	// while it is even cannot be in the watchdog's hands, and its memory
	// may serve another call (see unwatch).
	passes atomic.Uint64
	// calls are watchedCalls free for another fire.
	calls sync.Pool

	// nextWake is when the watchdog will next look, in nanoseconds since
	// epoch (clock.go); math.MaxInt64 while it sleeps until kicked.
	nextWake atomic.Int64
	kick     chan struct{}
	done     chan struct{}
	stopped  chan struct{}
	closing  atomic.Bool

	// suspects are the hooks running when the heap passed its limit
	// without one of them being the one to blame, and turn lets one
	// suspect run at a time (heapblame.go).
	suspects atomic.Pointer[suspectSet]
	turn     chan struct{}
}

// watchSlots bounds the calls tracked without a lock; more concurrent
// calls than this go to the overflow map.
const watchSlots = 256

// watchSlot is padded to a cache line so that concurrent calls in
// neighbouring slots do not contend.
type watchSlot struct {
	call atomic.Pointer[watchedCall]
	_    [56]byte
}

// A watchedCall is a call as the host runs it: the engine's call and
// what the watchdog did to it.
type watchedCall struct {
	scripting.Call
	// heapHit says whether and how the watchdog interrupted the call
	// because the heap passed its limit (heapblame.go).
	heapHit atomic.Uint64
	// isolated is set for a call served by a worker process, whose
	// memory is not the host's heap.
	isolated bool
}

// heapMetric is the heap in use: live objects and dead ones not yet
// swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

const (
	// watchPeriod is how often the watchdog looks while calls flow.
	watchPeriod = 50 * time.Millisecond
	// idleScans is how many empty scans put the watchdog to sleep.
	idleScans = 20
	// heapPeriod is how often the watchdog samples the heap while calls
	// run (and a heap limit is set).
	heapPeriod = 5 * time.Millisecond
)

// newWatchdog starts a watchdog that interrupts calls at their deadline
// and, when heapLimit is more than zero, when the heap passes it.
func newWatchdog(heapLimit int64) *watchdog {
	w := unstartedWatchdog(heapLimit)
	go w.run()
	return w
}

// unstartedWatchdog is a watchdog whose goroutine is not running yet:
// newWatchdog starts it, and a test that plays the goroutine's part
// itself uses it as it is.
func unstartedWatchdog(heapLimit int64) *watchdog {
	w := &watchdog{kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{}),
		heap: []metrics.Sample{{Name: heapMetric}}, turn: make(chan struct{}, 1)}
	w.nextWake.Store(math.MaxInt64)
	w.limit.Store(heapLimit)
	return w
}

// setHeapLimit changes the heap budget (a new config).
func (w *watchdog) setHeapLimit(n int64) { w.limit.Store(n) }

// period is how long the watchdog sleeps between scans while calls run.
func (w *watchdog) period() time.Duration {
	if w.limit.Load() > 0 {
		return heapPeriod
	}
	return watchPeriod
}

// stop ends the watchdog goroutine. Calls still running are interrupted
// now, and calls that start later are interrupted as they register: with
// no watchdog left, nothing else would stop them.
func (w *watchdog) stop() {
	w.closing.Store(true)
	close(w.done)
	<-w.stopped
	w.interruptAll()
}

func (w *watchdog) interruptAll() {
	w.passes.Add(1)
	defer w.passes.Add(1)
	w.eachCall((*watchedCall).Interrupt)
}

// watch registers c and returns the token to pass to unwatch.
func (w *watchdog) watch(c *watchedCall) int {
	slot := -1
	start := int(rand.Uint32() % watchSlots)
	for i := 0; i < watchSlots; i++ {
		idx := (start + i) % watchSlots
		if w.slots[idx].call.CompareAndSwap(nil, c) {
			slot = idx
			break
		}
	}
	if slot < 0 {
		w.mu.Lock()
		if w.overflow == nil {
			w.overflow = make(map[*watchedCall]struct{})
		}
		w.overflow[c] = struct{}{}
		w.mu.Unlock()
	}
	if w.closing.Load() {
		c.Interrupt()
		return slot
	}
	if int64(c.Deadline.Sub(epoch)) < w.nextWake.Load() {
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
	return slot
}

// unwatch unregisters c and reports whether its memory may serve
// another call once the engine and the fire are done with it: the
// watchdog goroutine, which may have read the slot just before, was not
// looking at the slots when c left it. (Seen from the other side: a pass
// that starts after c left the slot cannot find it, and one running at
// that moment made passes odd. Go's atomics are sequentially consistent.)
func (w *watchdog) unwatch(slot int, c *watchedCall) (reusable bool) {
	if slot >= 0 {
		w.slots[slot].call.Store(nil)
		return w.passes.Load()%2 == 0
	}
	w.mu.Lock()
	delete(w.overflow, c)
	w.mu.Unlock()
	return false
}

// newCall is a watchedCall for a fire's hook call: one a finished call
// left, or a new one.
func (w *watchdog) newCall() *watchedCall {
	if c, ok := w.calls.Get().(*watchedCall); ok {
		return c
	}
	return &watchedCall{}
}

// reuseCall keeps c for a later call. Only for a call that returned in
// time, was not abandoned, and that nothing holds any more: not the
// watchdog (unwatch said so), not a context watch, not a worker's
// reader. Nothing of the call stays reachable from the pool.
func (w *watchdog) reuseCall(c *watchedCall) {
	c.Reset()
	c.heapHit.Store(heapNotHit)
	c.isolated = false
	w.calls.Put(c)
}

func (w *watchdog) run() {
	defer close(w.stopped)
	timer := time.NewTimer(time.Hour)
	idle := 0
	for {
		now := int64(monoNow())
		// Publish the next wake-up before scanning: a call that registers
		// after the scan then sees it and kicks if it needs to.
		w.nextWake.Store(now + int64(w.period()))
		earliest, busy := w.scan(now)
		if busy {
			idle = 0
			w.checkHeap()
		} else if idle++; idle >= idleScans && w.sleep() {
			select {
			case <-w.kick:
				idle = 0
				continue
			case <-w.done:
				return
			}
		}
		if earliest < w.nextWake.Load() {
			w.nextWake.Store(earliest)
		}
		timer.Reset(time.Duration(w.nextWake.Load() - now))
		select {
		case <-timer.C:
		case <-w.kick:
			timer.Stop() // since Go 1.23 a stopped timer delivers no stale value
		case <-w.done:
			return
		}
	}
}

// sleep marks the watchdog asleep and reports whether it may sleep: a
// call that registered meanwhile keeps it awake.
func (w *watchdog) sleep() bool {
	w.nextWake.Store(math.MaxInt64)
	if _, busy := w.scan(int64(monoNow())); busy {
		return false
	}
	return true
}

// eachCall calls f on every call registered: only during a pass (passes
// odd), so that no call it sees is reused meanwhile (see unwatch).
func (w *watchdog) eachCall(f func(*watchedCall)) {
	for i := range w.slots {
		if c := w.slots[i].call.Load(); c != nil {
			f(c)
		}
	}
	w.mu.Lock()
	for c := range w.overflow {
		f(c)
	}
	w.mu.Unlock()
}

// scan interrupts overdue calls and returns the earliest deadline still
// pending and whether any call is in flight.
func (w *watchdog) scan(now int64) (earliest int64, busy bool) {
	w.passes.Add(1)
	defer w.passes.Add(1)
	earliest = math.MaxInt64
	check := func(c *watchedCall) {
		busy = true
		if c.Interrupted() {
			return
		}
		d := int64(c.Deadline.Sub(epoch))
		if d <= now {
			c.Interrupt()
		} else if d < earliest {
			earliest = d
		}
	}
	w.eachCall(check)
	return earliest, busy
}

// collect runs garbage collections on a goroutine of its own, so that
// what the interrupted calls allocated is freed before the next sample
// blames the calls that come after them. One runs at a time. It runs two:
// what died while the first one marked survives it (a call that returned
// a moment before still had its interpreter on a stack the collector had
// already scanned), and was left over the limit, blamed on the next call.
func (w *watchdog) collect() {
	if !w.collecting.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer w.collecting.Store(false)
		runtime.GC()
		runtime.GC()
	}()
}

// runnableMetric counts the goroutines ready to run that wait for a
// processor.
const runnableMetric = "/sched/goroutines/runnable:goroutines"

// starved says why the process is short of CPU now, or "" when it is
// not: hook calls wait for a run slot (the host has more to run than its
// cores), or at least GOMAXPROCS goroutines are ready to run but wait for
// a processor (a whole core's worth of work queued). Both are states,
// not durations: a machine that is merely slow is not starved, and a
// test does not depend on how fast it runs. It is read only to judge an
// abandoned call, which is rare.
func (h *Host) starved() string {
	if n := h.slots.waiting(); n > 0 {
		return fmt.Sprintf("%d hook calls waiting for a run slot", n)
	}
	sample := []metrics.Sample{{Name: runnableMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return ""
	}
	if n, procs := sample[0].Value.Uint64(), runtime.GOMAXPROCS(0); n >= uint64(procs) {
		return fmt.Sprintf("%d goroutines waiting for one of %d processors", n, procs)
	}
	return ""
}
