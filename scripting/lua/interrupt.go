package lua

import (
	"context"
	"sync/atomic"
	"time"
)

// An interruptContext is the one context an interpreter carries for its
// whole life. gopher-lua looks at its Done channel before every
// instruction (a select with a default), so Done is built for that: until
// the interpreter is interrupted it returns nil, on which the select's
// receive gives up at once — cheaper than looking at an open channel,
// which is what a context.WithCancel costs each instruction. Interrupt
// makes Done a closed channel for good: the next instruction raises.
type interruptContext struct {
	done atomic.Pointer[chan struct{}]
}

var _ context.Context = (*interruptContext)(nil)

// Done is nil until the interpreter is interrupted, then a closed
// channel.
func (c *interruptContext) Done() <-chan struct{} {
	if p := c.done.Load(); p != nil {
		return *p
	}
	return nil
}

// Err is context.Canceled once the interpreter is interrupted.
func (c *interruptContext) Err() error {
	if c.done.Load() != nil {
		return context.Canceled
	}
	return nil
}

// Deadline is none: the call's deadline is the watchdog's, which
// interrupts.
func (*interruptContext) Deadline() (time.Time, bool) { return time.Time{}, false }

// Value is nil: gopher-lua reads no values from its context.
func (*interruptContext) Value(any) any { return nil }

// interrupt closes Done; later calls do nothing.
func (c *interruptContext) interrupt() {
	ch := make(chan struct{})
	close(ch)
	c.done.CompareAndSwap(nil, &ch)
}
