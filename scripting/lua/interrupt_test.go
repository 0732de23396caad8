package lua

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// The interpreter's context: no Done channel until it is interrupted,
// then a closed one for good, and a spinning hook stops at its deadline.
func TestInterruptContext(t *testing.T) {
	c := &interruptContext{}
	if c.Done() != nil || c.Err() != nil {
		t.Fatalf("before an interrupt: Done %v, Err %v; want nil, nil", c.Done(), c.Err())
	}
	c.interrupt()
	c.interrupt() // a second interrupt changes nothing
	select {
	case <-c.Done():
	default:
		t.Fatal("Done is not closed after the interrupt")
	}
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err after the interrupt: %v", c.Err())
	}

	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "spin.lua",
		Code: []byte(`hook.on("e", function() local n = 0 while true do n = n + 1 end end, { name = "h" })`)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = callWithDeadline(p.Hooks()[0].Func, map[string]any{}, 50*time.Millisecond)
	if !errors.Is(err, scripting.ErrInterrupted) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("the spinning hook returned %v, want a timeout", err)
	}
	if n := idleStates(p); n != 0 {
		t.Errorf("%d idle interpreters after an interrupt, want 0 (an interrupted one is closed)", n)
	}
}
