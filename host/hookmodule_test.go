package host

import (
	"slices"
	"testing"

	"github.com/hookhost/hookhost/scripting"
)

// TestHookModuleActions checks the hook module's decision constructors,
// which live in scripting (below host), against host's actions: each
// constructor named after a decision action builds a decision with it
// (hook.message adds a message, with no action), and every action a
// constructor builds is one the host knows.
func TestHookModuleActions(t *testing.T) {
	args := map[string]any{"reason": "why", "verdict": "ask", "fields": map[string]any{"k": "v"}, "result": "r", "text": "t"}
	m := scripting.HookModule()
	for i := range m.Funcs {
		f := &m.Funcs[i]
		c := scripting.NewModuleCall(f)
		for j, p := range f.Params {
			if v, ok := args[p.Name]; ok {
				c.Args[j] = v
			}
		}
		out, err := f.Impl(c)
		if err != nil {
			t.Errorf("hook.%s: %v", f.Name, err)
			continue
		}
		d, ok := out.(*scripting.Decision)
		if !ok {
			t.Errorf("hook.%s returned %T, not a decision", f.Name, out)
			continue
		}
		action, has := d.Action()
		if has && !Action(action).valid() {
			t.Errorf("hook.%s builds action %q, which the host does not know", f.Name, action)
		}
		if slices.Contains(decisionActions, Action(f.Name)) && action != f.Name {
			t.Errorf("hook.%s builds action %q, want %q", f.Name, action, f.Name)
		}
	}
}
