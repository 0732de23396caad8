package lua

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// A statePool keeps idle interpreters of one file for reuse. It keeps
// them across garbage collections (unlike sync.Pool: a miss costs a run
// of the file's top level), and takes no lock: interpreters sit in
// padded slots that goroutines claim with compare-and-swap, so concurrent
// calls of the same file rarely touch the same cache line.
//
// Each processor's calls go back to the slot they used last (their
// home, kept in a sync.Pool, which is per processor), so an interpreter
// keeps serving the core whose caches hold its tens of kilobytes; taken
// from a random slot, it would move between cores' caches on about every
// other call, which doubled the CPU per call on two cores. A call whose
// home is empty or taken looks from a random slot.
type statePool struct {
	slots  []stateSlot
	closed atomic.Bool
	homes  sync.Pool // of *poolHome
}

// A poolHome is the slot a processor's calls take interpreters from and
// give them back to.
type poolHome struct{ slot int }

type stateSlot struct {
	st atomic.Pointer[state]
	_  [56]byte // a cache line per slot
}

func newStatePool(size int) *statePool { return &statePool{slots: make([]stateSlot, size)} }

// get takes an idle interpreter, or returns nil when there is none: the
// one in the caller's home slot when there is one, else any.
func (p *statePool) get() *state {
	n := len(p.slots)
	if n == 0 {
		return nil
	}
	home, _ := p.homes.Get().(*poolHome)
	if home == nil {
		home = &poolHome{slot: int(rand.Uint32() % uint32(n))}
	}
	start := home.slot
	for i := 0; i < n; i++ {
		idx := (start + i) % n
		s := &p.slots[idx]
		if st := s.st.Load(); st != nil && s.st.CompareAndSwap(st, nil) {
			home.slot = idx
			st.home = home
			return st
		}
	}
	p.homes.Put(home)
	return nil
}

// put keeps st for reuse, in its caller's home slot when that is free;
// it closes st when the pool is full or closed.
func (p *statePool) put(st *state) {
	home := st.home
	st.home = nil
	if home == nil {
		home, _ = p.homes.Get().(*poolHome)
	}
	if !p.closed.Load() && len(p.slots) > 0 {
		n := len(p.slots)
		start := int(rand.Uint32() % uint32(n))
		if home != nil {
			start = home.slot
		}
		for i := 0; i < n; i++ {
			idx := (start + i) % n
			s := &p.slots[idx]
			if s.st.Load() == nil && s.st.CompareAndSwap(nil, st) {
				if home != nil {
					home.slot = idx
					p.homes.Put(home)
				}
				if p.closed.Load() { // Close ran meanwhile: do not strand st
					p.drain()
				}
				return
			}
		}
	}
	if home != nil {
		p.homes.Put(home)
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
