package server

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// What one client can hold is bounded: connections (limitListener),
// the memory of request bodies and decoded payloads (memBudget), and
// fires running or waiting to run (fireGate). None of them allocates in
// proportion to what a client declares, only to what it sent.

// A limitListener accepts at most cap(slots) connections open at once.
// Past that, Accept waits for one to close: new connections wait in the
// kernel's accept backlog, which costs the process nothing, and are
// served as slots free up (the request and idle deadlines see that they
// do).
type limitListener struct {
	net.Listener
	slots chan struct{}
	done  chan struct{}
	once  sync.Once
}

func newLimitListener(ln net.Listener, max int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, max), done: make(chan struct{})}
}

// Accept waits for a free slot, then for a connection, which holds the
// slot until it is closed; Close ends the wait with net.ErrClosed.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
}

// Close also ends an Accept waiting for a slot.
func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back when closed (once, however often
// net/http closes it).
type limitConn struct {
	net.Conn
	release func()
}

// Close closes the connection and frees its slot.
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// A memBudget is the bytes that requests may hold at once: body buffers
// as they grow (with the smaller ones they replaced, garbage until the
// collector frees them), then an estimate of the decoded payload and the
// answer.
// It is shared by all requests; a request that cannot get what it needs
// is answered 503 (or 413 when it could never fit).
type memBudget struct {
	limit int64
	used  atomic.Int64
}

// take reserves n bytes, or reports that they are not free.
func (b *memBudget) take(n int64) bool {
	for {
		used := b.used.Load()
		if used+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(used, used+n) {
			return true
		}
	}
}

func (b *memBudget) give(n int64) { b.used.Add(-n) }

// A hold is one request's share of the budget.
type hold struct {
	budget *memBudget
	n      int64
}

// grow reserves n more bytes for the request.
func (h *hold) grow(n int64) bool {
	if !h.budget.take(n) {
		return false
	}
	h.n += n
	return true
}

// release gives everything back; the request holds nothing after.
func (h *hold) release() {
	h.budget.give(h.n)
	h.n = 0
}

// A fireGate lets cap(run) fires run at once and up to maxQueue more wait
// for a slot, each at most the wait it is given. A fire's hooks start
// (and their deadlines with them) only once it has a slot, so fires
// beyond what the cores can run wait here rather than all share the CPU
// and time out together.
type fireGate struct {
	run      chan struct{}
	queued   atomic.Int64
	maxQueue int64
}

func newFireGate(running, queue int) *fireGate {
	return &fireGate{run: make(chan struct{}, running), maxQueue: int64(queue)}
}

// enter waits for a slot; false means the queue was full, the wait ran
// out or ctx ended. A true enter must be followed by leave.
func (g *fireGate) enter(ctx context.Context, wait time.Duration) bool {
	select {
	case g.run <- struct{}{}:
		return true
	default:
	}
	if g.queued.Add(1) > g.maxQueue {
		g.queued.Add(-1)
		return false
	}
	defer g.queued.Add(-1)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case g.run <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (g *fireGate) leave() { <-g.run }

// busyWarner logs that the server refused work for lack of capacity at
// most once per period, so a flood does not flood the log as well.
type busyWarner struct {
	last atomic.Int64 // unix nanoseconds of the last warning
}

const busyWarnPeriod = 10 * time.Second

// due reports whether a warning may be logged now.
func (b *busyWarner) due() bool {
	now := time.Now().UnixNano()
	last := b.last.Load()
	return now-last >= int64(busyWarnPeriod) && b.last.CompareAndSwap(last, now)
}

// decodedCost estimates, generously, the bytes a JSON body takes once
// decoded into Go values and while its answer is encoded: the body
// itself (its strings are copied out and the answer quotes the payload
// back) and, for each structural token, what a decoded value costs.
// A body of many tiny values ({},{},… or 1,1,…) decodes to 20–30 times
// its size, so the count matters more than the length.
func decodedCost(body []byte) int64 {
	return 2*int64(len(body)) + perToken*structuralTokens(body)
}

// perToken is what decodedCost charges per value, key or separator: about
// twice what a decoded empty object or small number takes (measured with
// encoding/json and the payload normalisation).
const perToken = 64

// structuralTokens counts the {, [, : and , outside strings, plus one:
// at least as many as the values and keys the body decodes to.
func structuralTokens(b []byte) int64 {
	n := int64(1)
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[' || c == ':' || c == ',':
			n++
		}
	}
	return n
}
