package lua

import (
	"context"
	"sync"
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
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int64(0); i < 200; i++ {
				out, err := fn.Call(&scripting.Call{Payload: map[string]any{"x": i}, Hook: "p.lua:h", Timeout: time.Second})
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
	time.Sleep(5 * time.Millisecond)
	p.Close() // calls after Close still work; their interpreters are closed on return
	wg.Wait()
	pl := p.(*program).pool
	for i := range pl.slots {
		if pl.slots[i].st.Load() != nil {
			t.Errorf("slot %d holds an interpreter after Close", i)
		}
	}
}
