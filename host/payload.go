package host

import (
	"slices"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// A payload that is not made of neutral values is a usage error whichever
// hooks are loaded, and no script may see it: every field is checked
// before the first script runs. Engines that convert the fields a hook
// binds check them on the way (scripting.Hook.Binds), so the host checks
// only the others, and a payload is walked once, not twice.

// firstToRun is the first hook a fire would call, unless the fire ends
// before; nil when none would.
func firstToRun(hooks []*boundHook, now func() time.Time) *boundHook {
	for _, b := range hooks {
		if !b.strikes.quarantined.Load() || !b.strikes.blocks(now()) {
			return b
		}
	}
	return nil
}

// checkPayload checks that the payload is made of neutral values, except
// for the fields the first hook binds: converting them for it checks them
// before its script runs (scripting.Hook.Binds), and a field that fails
// makes the fire a bad payload then (see firing.firstCallFailed). So
// every field is checked before any script runs, and each once. With no
// hook to run, or one that promises nothing, the host checks every field.
func checkPayload(payload map[string]any, first *boundHook) error {
	if first == nil || first.binds == nil {
		return stdlib.Check(payload)
	}
	b := first.binds
	if b.All {
		return nil
	}
	// A field is counted once however many parameters name it (Lua
	// allows function(params, params)).
	bound := 0
	for i, name := range b.Fields {
		if _, ok := payload[name]; ok && !slices.Contains(b.Fields[:i], name) {
			bound++
		}
	}
	if bound == len(payload) {
		return nil // no other field: no walk of the map
	}
	for k, v := range payload {
		if !slices.Contains(b.Fields, k) {
			if err := stdlib.CheckField(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkBound checks the fields checkPayload left to the first hook, for a
// fire that does not call it after all.
func checkBound(payload map[string]any, first *boundHook) error {
	if first == nil || first.binds == nil {
		return nil
	}
	return stdlib.Check(payload)
}
