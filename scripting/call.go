package scripting

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"
)

// A Call is one invocation of a hook function. The host fills the
// exported fields, registers the call with its watchdog and passes it to
// Function.Call. A Call is also the context.Context that stdlib functions
// receive: it is done when the call is interrupted.
type Call struct {
	// Payload is the event payload. Engines read it and must not modify
	// it; scripts receive copies.
	Payload map[string]any
	// Event is the event being fired.
	Event string
	// Hook is the hook's id ("guard.lua:no-rm-root").
	Hook string
	// Config is the operator's configuration for the hook (ctx.config);
	// never nil while a call runs.
	Config map[string]any
	// HooksDir is the absolute path of the directory the host loads its
	// hooks from (ctx.hooks_dir): a guard that protects the guards must
	// know where they are, whatever the directory is named. Empty when
	// the scripts come from somewhere that has no path (an in-memory
	// file system).
	HooksDir string
	// Timeout is this call's budget (ctx.timeout_ms).
	Timeout time.Duration
	// Deadline is when the call's budget ends.
	Deadline time.Time

	state         atomic.Uint32
	interruptedAt atomic.Int64 // Unix nanoseconds
	intr          Interrupter
	done          atomic.Pointer[chan struct{}]
	closed        atomic.Bool
	abandoned     atomic.Bool
	charged       atomic.Int64 // bytes counted by Charge

	kept Decision // see KeepDecision
}

// KeepDecision copies d into the call's own memory and returns the copy,
// which lives as long as the call: an engine that reuses its decision
// values from call to call returns this copy, so that what it hands the
// caller is never a value a later call will change.
func (c *Call) KeepDecision(d *Decision) *Decision {
	c.kept = *d
	return &c.kept
}

// An Interrupter stops a running interpreter as soon as it can: between
// two instructions for Lua, at the next step for Starlark.
type Interrupter interface {
	Interrupt()
}

// Call states. A call moves from pending to armed when the engine starts
// running script code, and from armed to either finished (it returned in
// time) or interrupted (the watchdog got there first). The single
// compare-and-swap at each step decides the race between the engine and
// the watchdog, so an interpreter is reused only when it was certainly
// never interrupted.
const (
	callPending uint32 = iota
	callArmed
	callInterrupted
	callFinished
)

// Reset makes c a new, pending call with no fields set, so that a host
// may use it again. Only for a call that returned without being
// interrupted or abandoned, which nothing else holds any more.
func (c *Call) Reset() { *c = Call{} }

// ErrInterrupted is the cause of a call's error when the call was
// interrupted at its deadline.
var ErrInterrupted = errors.New("interrupted at its deadline")

// ErrAbandoned is returned by Guard when the call was interrupted while
// the guarded work was still running; the work's goroutine is left behind.
var ErrAbandoned = errors.New("abandoned a builtin that did not return by the deadline")

// ErrMemoryLimit is the cause of a call's error when it tried to allocate
// past its per-call memory budget (Limits.MaxCallMemory).
var ErrMemoryLimit = errors.New("memory limit exceeded")

// Arm records how to interrupt the call and marks it running. It reports
// false when the call was interrupted before it started; the engine must
// then not run it.
func (c *Call) Arm(intr Interrupter) bool {
	c.intr = intr
	return c.state.CompareAndSwap(callPending, callArmed)
}

// Disarm marks the call finished. It reports false when the call was
// interrupted: the engine must then discard the interpreter it used,
// because the interrupt may land on it at any moment.
func (c *Call) Disarm() bool {
	return c.state.CompareAndSwap(callArmed, callFinished)
}

// Interrupt stops the call: its interpreter is interrupted (when armed),
// its context is done, and later Arm calls fail. It is safe to call from
// any goroutine, any number of times.
func (c *Call) Interrupt() {
	for {
		switch s := c.state.Load(); s {
		case callPending:
			if !c.state.CompareAndSwap(s, callInterrupted) {
				continue
			}
			c.interruptedAt.Store(time.Now().UnixNano())
		case callArmed:
			if !c.state.CompareAndSwap(s, callInterrupted) {
				continue
			}
			c.interruptedAt.Store(time.Now().UnixNano())
			c.intr.Interrupt()
		default:
			return
		}
		c.closeDone()
		return
	}
}

// Interrupted reports whether the call was interrupted.
func (c *Call) Interrupted() bool { return c.state.Load() == callInterrupted }

// InterruptedAt is when the call was interrupted, or the zero time.
func (c *Call) InterruptedAt() time.Time {
	if n := c.interruptedAt.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// Charge counts n bytes that the call is about to allocate through
// something hookhost implements or wraps (a string builtin, a table or
// list it builds, a conversion, a module's result). Once the call's total
// passes limit (Limits.MaxCallMemory, already defaulted) it returns an
// error wrapping ErrMemoryLimit and the allocation must not happen. It is
// safe to call from guarded work on another goroutine.
func (c *Call) Charge(n, limit int64) error {
	total := c.addCharge(n)
	if limit > 0 && total > limit {
		return fmt.Errorf("%w: this call would allocate more than %s", ErrMemoryLimit, FormatBytes(limit))
	}
	return nil
}

// addCharge adds n to the call's total, saturating at math.MaxInt64 (a
// negative n counts as that much too), so that Charged stays past the
// limit once any charge was.
func (c *Call) addCharge(n int64) int64 {
	for {
		old := c.charged.Load()
		total := old + n
		if n < 0 || total < old {
			total = math.MaxInt64
		}
		if c.charged.CompareAndSwap(old, total) {
			return total
		}
	}
}

// Charged is how many bytes Charge has counted so far.
func (c *Call) Charged() int64 { return c.charged.Load() }

// FormatBytes writes n bytes the way limits are written in the config
// ("64MiB", "512KiB", "100B").
func FormatBytes(n int64) string {
	for _, u := range []struct {
		size int64
		unit string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d%s", n/u.size, u.unit)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// Abandoned reports whether an interrupt abandoned guarded work, leaving
// a goroutine behind.
func (c *Call) Abandoned() bool { return c.abandoned.Load() }

func (c *Call) closeDone() {
	if p := c.done.Load(); p != nil && c.closed.CompareAndSwap(false, true) {
		close(*p)
	}
}

// Context returns the call as a context.Context for stdlib functions:
// it is done when the call is interrupted and carries the call's
// deadline. Its Done channel is made on first use, so calls that never
// block pay nothing for it.
func (c *Call) Context() context.Context { return callContext{c} }

// Done returns the channel that Context's Done returns.
func (c *Call) Done() <-chan struct{} {
	if p := c.done.Load(); p != nil {
		return *p
	}
	ch := make(chan struct{})
	if !c.done.CompareAndSwap(nil, &ch) {
		return *c.done.Load()
	}
	if c.Interrupted() {
		c.closeDone()
	}
	return ch
}

// callContext is a Call seen as a context.Context. It holds only a
// pointer, so converting it to an interface does not allocate.
type callContext struct{ c *Call }

// Deadline is the call's deadline, if it has one.
func (cc callContext) Deadline() (time.Time, bool) { return cc.c.Deadline, !cc.c.Deadline.IsZero() }

// Done is closed when the call is interrupted.
func (cc callContext) Done() <-chan struct{} { return cc.c.Done() }

// Value is nil: a call carries no values in its context.
func (cc callContext) Value(any) any { return nil }

// Err is context.DeadlineExceeded once the call is interrupted, whatever
// interrupted it (its deadline, the caller's context, the host closing):
// the work being cut off is all a module needs to know.
func (cc callContext) Err() error {
	if cc.c.Interrupted() {
		return context.DeadlineExceeded
	}
	return nil
}

// Guard runs work on a goroutine of its own and waits for it or for the
// call to be interrupted, whichever comes first. On interruption it marks
// the call abandoned and returns ErrAbandoned; work keeps running and its
// result is dropped, which is why work must only use values it owns.
func Guard[T any](c *Call, work func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	out := make(chan result, 1)
	go func() {
		v, err := work()
		out <- result{v, err}
	}()
	select {
	case r := <-out:
		return r.v, r.err
	case <-c.Done():
		c.abandoned.Store(true)
		var zero T
		return zero, ErrAbandoned
	}
}
