package lua

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hookhost/hookhost/scripting"
)

// reuseSource makes several decisions per call, in the state's own memory
// and past it, and returns one built from the payload.
const reuseSource = `
local TOP = hook.deny("made at the top level")

hook.on("e", function(reason, n)
  local other = hook.deny("not this one")
  local mine = hook.deny(reason)
  if other.reason == mine.reason then error("decisions share a value") end
  for i = 1, n do
    local d = hook.ask("filler " .. i)
    if d.reason ~= "filler " .. i then error("filler " .. i .. " reads " .. d.reason) end
  end
  if reason == "top" then return TOP end
  if reason == "allow" then return hook.allow() end
  if reason == "nested" then return hook.stop(hook.deny("inside")) end
  return mine
end)
`

func compileReuse(t *testing.T) scripting.Function {
	t.Helper()
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "d.lua", Code: []byte(reuseSource)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p.Hooks()[0].Func
}

func callReuse(t *testing.T, fn scripting.Function, reason string, n int64) *scripting.Decision {
	out, err := fn.Call(&scripting.Call{Payload: map[string]any{"reason": reason, "n": n}, Hook: "d.lua:e", Config: map[string]any{}})
	if err != nil {
		t.Error(err)
		return nil
	}
	return out.(*scripting.Decision)
}

// TestReusedDecisionsDoNotCross: decisions live in a state's own memory
// while a call runs, but what a call returns is its own — concurrent
// calls get theirs, a result kept after later calls still says what it
// said, whether the call made fewer decisions than the state keeps or
// more.
func TestReusedDecisionsDoNotCross(t *testing.T) {
	fn := compileReuse(t)
	first := callReuse(t, fn, "first", 0)
	many := callReuse(t, fn, "many", 3*maxPooledDecisions)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				want := fmt.Sprintf("g%d-%d", g, i)
				if d := callReuse(t, fn, want, int64(i%(2*maxPooledDecisions))); d == nil || d.Reason() != want {
					t.Errorf("a call returned %v, want %q", d, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	if first.Reason() != "first" || many.Reason() != "many" {
		t.Fatalf("kept results changed to %q and %q", first.Reason(), many.Reason())
	}
}

// TestReasonConstructors covers the calls the fast path takes and the
// ones it leaves to the module function, whose errors they keep.
func TestReasonConstructors(t *testing.T) {
	fn := compileReuse(t)
	for _, c := range []struct{ reason, action, want string }{
		{"top", "deny", "made at the top level"},
		{"allow", "allow", ""},
		{"plain", "deny", "plain"},
	} {
		d := callReuse(t, fn, c.reason, 1)
		if d == nil || decisionAction(d) != c.action || d.Reason() != c.want {
			t.Errorf("%s: got %v, want %s %q", c.reason, d, c.action, c.want)
		}
	}
	if d := callReuse(t, fn, "nested", 0); d == nil || !strings.Contains(fmt.Sprint(d.Map()), "inside") {
		t.Errorf("nested: got %v", d)
	}

	for _, c := range []struct{ call, wantErr string }{
		{"hook.deny()", "hook.deny: missing argument 1 (reason)"},
		{"hook.deny(1)", "hook.deny: argument 1 (reason)"},
		{`hook.deny("a", "b")`, "hook.deny: too many arguments"},
		{"hook.abort_turn({})", "hook.abort_turn: argument 1 (reason)"},
	} {
		src := "hook.on(\"e\", function() return " + c.call + " end)"
		p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "bad.lua", Code: []byte(src)}, &scripting.Env{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Hooks()[0].Func.Call(&scripting.Call{Payload: map[string]any{}, Hook: "bad.lua:e", Config: map[string]any{}})
		p.Close()
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: error %v, want %q", c.call, err, c.wantErr)
		}
	}
}

func decisionAction(d *scripting.Decision) string {
	a, _ := d.Action()
	return a
}
