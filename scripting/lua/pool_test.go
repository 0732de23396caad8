package lua

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// Many goroutines calling one file share its interpreters; closing the
// program while calls run strands none of them and breaks none.
func TestPoolConcurrentCallsAndClose(t *testing.T) {
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "p.lua", Code: []byte(`
local n = 0 -- per interpreter: calls must not rely on it
hook.on("e", function(x) n = n + 1 return hook.respond(x * 2) end, { name = "h" })`)}, &scripting.Env{Limits: scripting.Limits{MaxIdle: 2}})
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	var wg sync.WaitGroup
	var calls atomic.Int64
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int64(0); i < 200; i++ {
				out, err := fn.Call(&scripting.Call{Payload: map[string]any{"x": i}, Hook: "p.lua:h", Timeout: time.Second})
				calls.Add(1)
				if err != nil {
					t.Error(err)
					return
				}
				if got := scripting.AsNeutral(out).(map[string]any)["result"]; got != i*2 {
					t.Errorf("got %v, want %d", got, i*2)
				}
			}
		}()
	}
	for calls.Load() < 8 { // calls are running, and interpreters in the pool
		runtime.Gosched()
	}
	p.Close() // calls after Close still work; their interpreters are closed on return
	wg.Wait()
	pl := p.(*program).pool
	for i := range pl.slots {
		if pl.slots[i].st.Load() != nil {
			t.Errorf("slot %d holds an interpreter after Close", i)
		}
	}
}

// A processor's calls take back the interpreter they gave back last (its
// memory is in that core's caches), not one from a random slot. Under the
// race detector sync.Pool drops a quarter of what it is given, so a home
// is lost now and then and only most calls find theirs; taken from a
// random slot, about a third would.
func TestPoolGivesBackTheLastInterpreter(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))  // one processor, whose home the sync.Pool keeps
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection would empty the sync.Pool
	p := newStatePool(8)
	states := make([]*state, 4)
	for i := range states {
		states[i] = &state{}
		p.put(states[i])
	}
	const calls = 200
	same := 0
	last := p.get()
	p.put(last)
	for i := 0; i < calls; i++ {
		st := p.get()
		if st == last {
			same++
		}
		last = st
		p.put(st)
	}
	want := calls
	if raceEnabled {
		want = calls * 6 / 10
	}
	if same < want {
		t.Fatalf("%d of %d calls took the interpreter given back last, want at least %d", same, calls, want)
	}
	for range states {
		if p.get() == nil {
			t.Fatal("an interpreter was lost")
		}
	}
	if p.get() != nil {
		t.Fatal("more interpreters than were given")
	}
}
