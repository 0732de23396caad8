package starlark

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// A call that runs out of steps fails; the next call on the same program
// (on a recycled thread) starts with a full budget.
func TestStepBudgetPerCall(t *testing.T) {
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "s.star", Code: []byte(`
def h(n):
    i = 0
    for _ in range(n):
        i += 1
    return hook.respond(i)

hook.on("e", h)
`)}, &scripting.Env{Limits: scripting.Limits{MaxSteps: 10000}})
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	call := func(n int64) (any, error) {
		return fn.Call(&scripting.Call{Payload: map[string]any{"n": n}, Hook: "s.star:h", Timeout: time.Second})
	}
	if _, err := call(1_000_000); err == nil || !strings.Contains(err.Error(), "too many steps") {
		t.Fatalf("want a step-budget error, got %v", err)
	}
	for i := 0; i < 3; i++ {
		out, err := call(10)
		if err != nil {
			t.Fatalf("call %d after an exhausted budget: %v", i, err)
		}
		if scripting.AsNeutral(out).(map[string]any)["result"] != int64(10) {
			t.Fatalf("got %v", out)
		}
	}
}
