package lua

import (
	"math/rand/v2"
	"sync/atomic"
)

// A statePool keeps idle interpreters of one file for reuse. It keeps
// them across garbage collections (unlike sync.Pool: a miss costs a run
// of the file's top level), and takes no lock: interpreters sit in
// padded slots that goroutines claim with compare-and-swap, starting at a
// random slot, so concurrent calls of the same file rarely touch the same
// cache line.
type statePool struct {
	slots  []stateSlot
	closed atomic.Bool
}

type stateSlot struct {
	st atomic.Pointer[state]
	_  [56]byte // a cache line per slot
}

func newStatePool(size int) *statePool { return &statePool{slots: make([]stateSlot, size)} }

// get takes an idle interpreter, or returns nil when there is none.
func (p *statePool) get() *state {
	n := len(p.slots)
	start := int(rand.Uint32() % uint32(n))
	for i := 0; i < n; i++ {
		s := &p.slots[(start+i)%n]
		if st := s.st.Load(); st != nil && s.st.CompareAndSwap(st, nil) {
			return st
		}
	}
	return nil
}

// put keeps st for reuse; it closes st when the pool is full or closed.
func (p *statePool) put(st *state) {
	if !p.closed.Load() {
		n := len(p.slots)
		start := int(rand.Uint32() % uint32(n))
		for i := 0; i < n; i++ {
			s := &p.slots[(start+i)%n]
			if s.st.Load() == nil && s.st.CompareAndSwap(nil, st) {
				if p.closed.Load() { // Close ran meanwhile: do not strand st
					p.drain()
				}
				return
			}
		}
	}
	st.close()
}

// close closes the idle interpreters; later puts close theirs.
func (p *statePool) close() {
	p.closed.Store(true)
	p.drain()
}

func (p *statePool) drain() {
	for i := range p.slots {
		if st := p.slots[i].st.Swap(nil); st != nil {
			st.close()
		}
	}
}
