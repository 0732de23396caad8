package state

import "time"

// A ring is a FIFO of timestamps in ascending order, the events a rate
// window still counts. It grows by doubling up to the capacity asked for,
// so a key that sees few events stays small whatever its limit.
type ring struct {
	buf     []time.Duration
	head, n int
}

func (r *ring) len() int { return r.n }
func (r *ring) cap() int { return len(r.buf) }

// at returns the i-th oldest timestamp.
func (r *ring) at(i int) time.Duration { return r.buf[(r.head+i)%len(r.buf)] }

func (r *ring) oldest() time.Duration { return r.at(0) }
func (r *ring) newest() time.Duration { return r.at(r.n - 1) }

func (r *ring) popOldest() {
	r.head = (r.head + 1) % len(r.buf)
	r.n--
}

// push appends t; the ring must have room (n < cap).
func (r *ring) push(t time.Duration) {
	r.buf[(r.head+r.n)%len(r.buf)] = t
	r.n++
}

// resize moves the timestamps into a buffer of capacity c >= n.
func (r *ring) resize(c int) {
	buf := make([]time.Duration, c)
	for i := range r.n {
		buf[i] = r.at(i)
	}
	r.buf, r.head = buf, 0
}

// grownCap is the capacity to grow to for one more element, at most
// limit.
func (r *ring) grownCap(limit int) int {
	return min(limit, max(4, 2*len(r.buf)))
}
