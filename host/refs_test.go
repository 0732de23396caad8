package host

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestFireRefsSequence(t *testing.T) {
	type step struct {
		op        string // acquire, release (the latest held), retire
		wantOK    bool   // acquire only
		wantClose bool
	}
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"retired with no fire closes at once", []step{{op: "retire", wantClose: true}}},
		{"the last fire out closes", []step{
			{op: "acquire", wantOK: true}, {op: "acquire", wantOK: true},
			{op: "retire"}, {op: "release"}, {op: "release", wantClose: true},
		}},
		{"releases before retiring do not close", []step{
			{op: "acquire", wantOK: true}, {op: "release"}, {op: "acquire", wantOK: true}, {op: "release"},
			{op: "retire", wantClose: true},
		}},
		{"no fire gets in once retired", []step{
			{op: "acquire", wantOK: true}, {op: "retire"},
			{op: "acquire", wantOK: false}, {op: "release", wantClose: true},
			{op: "acquire", wantOK: false},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r fireRefs
			var held []int
			for i, s := range c.steps {
				var closeNow bool
				switch s.op {
				case "acquire":
					shard, ok, cl := r.acquire()
					if ok != s.wantOK {
						t.Fatalf("step %d: acquire ok %v, want %v", i, ok, s.wantOK)
					}
					if ok {
						held = append(held, shard)
					}
					closeNow = cl
				case "release":
					closeNow = r.release(held[len(held)-1])
					held = held[:len(held)-1]
				case "retire":
					closeNow = r.retire()
				}
				if closeNow != s.wantClose {
					t.Fatalf("step %d (%s): close %v, want %v", i, s.op, closeNow, s.wantClose)
				}
			}
		})
	}
}

// TestFireRefsConcurrent retires while fires come and go on every
// shard: the snapshot closes exactly once, and never while a fire that
// got in still holds it.
func TestFireRefsConcurrent(t *testing.T) {
	for round := 0; round < 200; round++ {
		var r fireRefs
		var closes atomic.Int64
		var closed, closedWhileHeld atomic.Bool
		closeIt := func() {
			closed.Store(true)
			closes.Add(1)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := 0; i < 200; i++ {
					shard, ok, closeNow := r.acquire()
					if closeNow {
						closeIt()
					}
					if !ok {
						return
					}
					// Between acquire and release the snapshot must be open.
					if closed.Load() {
						closedWhileHeld.Store(true)
					}
					if r.release(shard) {
						closeIt()
					}
				}
			}()
		}
		close(start)
		if r.retire() {
			closeIt()
		}
		wg.Wait()
		if closedWhileHeld.Load() {
			t.Fatalf("round %d: closed while a fire held it", round)
		}
		if n := closes.Load(); n != 1 {
			t.Fatalf("round %d: closed %d times, want once", round, n)
		}
	}
}
