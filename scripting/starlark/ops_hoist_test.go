package starlark

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// TestHoistDecisions: which constructor calls the rewrite hoists to the
// top level (ops_hoist.go), counted as the globals it adds and the reads
// of them it leaves in functions.
func TestHoistDecisions(t *testing.T) {
	constructors := map[string]bool{"allow": true, "deny": false, "abort_turn": false, "hard_abort": false}
	for _, tc := range []struct {
		src            string
		globals, reads int
	}{
		{"def h():\n    return hook.deny('x')", 1, 1},
		{"def h(n):\n    if n:\n        return hook.deny('x')\n    return hook.deny('x')", 1, 2},
		{"def h(n):\n    if n:\n        return hook.deny('x')\n    return hook.deny('y')", 2, 2},
		{"def h(n):\n    if n:\n        return hook.deny('x')\n    return hook.hard_abort('x')", 2, 2},
		{"def h():\n    return hook.allow()", 1, 1},
		{"h = lambda: hook.abort_turn('stop')", 1, 1},
		{"def h():\n    return hook.deny()", 0, 0},         // deny needs a reason: the module says so
		{"def h(r):\n    return hook.deny(r)", 0, 0},       // not a literal
		{"def h():\n    return hook.deny(1)", 0, 0},        // not a string: fails when called, not at load
		{"def h():\n    return hook.deny(b'x')", 0, 0},     // bytes
		{"def h():\n    return hook.deny('x', 'y')", 0, 0}, // two arguments
		{"def h():\n    return hook.deny(reason = 'x')", 0, 0},
		{"def h():\n    return hook.ask('x')", 0, 0},      // not a reason constructor
		{"def h(hook):\n    return hook.deny('x')", 0, 0}, // hook bound in the file
		{"def h():\n    return hook.deny('x')\nhook = 1", 0, 0},
		{"def h():\n    return [hook.deny('x') for hook in [1]]", 0, 0},
		{"r = hook.deny('x')", 0, 0}, // the top level runs once anyway
		{"def h():\n    return hook.deny('x' + 'y')", 0, 0},
	} {
		t.Run(tc.src, func(t *testing.T) {
			f, err := fileOptions.Parse("h.star", tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			rewriteOps(f, func(name string) bool { return name == "hook" }, func(string) bool { return false }, constructors)
			globals, reads := 0, 0
			syntax.Walk(f, func(n syntax.Node) bool {
				switch n := n.(type) {
				case *syntax.AssignStmt:
					if id, ok := n.LHS.(*syntax.Ident); ok && strings.HasPrefix(id.Name, hoistPrefix) {
						globals++
						return false
					}
				case *syntax.Ident:
					if strings.HasPrefix(n.Name, hoistPrefix) {
						reads++
					}
				}
				return true
			})
			if globals != tc.globals || reads != tc.reads {
				t.Fatalf("%d hoisted globals read %d times, want %d and %d", globals, reads, tc.globals, tc.reads)
			}
		})
	}
}

// TestHoistedDecisionsBehaveAsCalls: through the engine, a hoisted
// decision is the decision the call builds, a constructor call that is
// not hoisted fails when it runs (not when the file loads), with the
// module's error, and the one hoisted decision serves calls on many
// threads at once (the race detector watches that nothing writes it).
func TestHoistedDecisionsBehaveAsCalls(t *testing.T) {
	const src = `
def h(mode):
    if mode == "deny":
        return hook.deny("refusing")
    if mode == "allow":
        return hook.allow()
    if mode == "both":
        return hook.respond({"same": hook.deny("refusing") == hook.deny("refusing"), "reason": hook.deny("refusing")["reason"]})
    if mode == "int":
        return hook.deny(1)
    return None

hook.on("e", h)
`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "h.star", Code: []byte(src)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	call := func(mode string) (any, error) {
		return fn.Call(&scripting.Call{Hook: "h.star:h", Timeout: time.Second, Payload: map[string]any{"mode": mode}})
	}
	for mode, want := range map[string]map[string]any{
		"deny":  {"action": "deny", "reason": "refusing"},
		"allow": {"action": "allow"},
		"both":  {"action": "respond", "result": map[string]any{"same": true, "reason": "refusing"}},
	} {
		out, err := call(mode)
		if err != nil {
			t.Fatal(mode, err)
		}
		if got := scripting.AsNeutral(out); !stdlib.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", mode, got, want)
		}
	}
	if _, err := call("int"); err == nil || !strings.Contains(err.Error(), "h.star:10") || !strings.Contains(err.Error(), "deny") {
		t.Fatalf("hook.deny(1): %v, want the module's error at line 10", err)
	}

	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				out, err := call("deny")
				if err != nil {
					t.Error(err)
					return
				}
				if got := scripting.AsNeutral(out).(map[string]any); got["reason"] != "refusing" {
					t.Errorf("decision %v", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
