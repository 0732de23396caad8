package starlark

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/hookhost/hookhost/scripting"
)

// Decision values are reused by a thread's later calls, but what a call
// returns is its own: concurrent calls, each making several decisions and
// returning one built from its payload, each get theirs, and a result
// kept after later calls still says what it said.
func TestReusedDecisionsDoNotCross(t *testing.T) {
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "d.star", Code: []byte(`
def guard(reason):
    other = hook.deny("not this one")
    mine = hook.deny(reason)
    if other["reason"] == mine["reason"]:
        fail("decisions share a value")
    return mine

hook.on("e", guard)
`)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	fn := p.Hooks()[0].Func
	call := func(reason string) (string, *scripting.Decision) {
		out, err := fn.Call(&scripting.Call{Payload: map[string]any{"reason": reason}, Hook: "d.star:guard", Config: map[string]any{}})
		if err != nil {
			t.Error(err)
			return "", nil
		}
		d := out.(*scripting.Decision)
		return d.Reason(), d
	}
	_, first := call("first")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				want := fmt.Sprintf("g%d-%d", g, i)
				if got, _ := call(want); got != want {
					t.Errorf("a call returned %q, want %q", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	if first.Reason() != "first" {
		t.Fatalf("a kept result changed to %q", first.Reason())
	}
}
