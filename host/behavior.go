package host

import (
	"errors"
	"fmt"

	"github.com/hookhost/hookhost/scripting"
)

// What a hook's failure does to its fire. Each hook has its own error
// behaviour and timeout behaviour (skip or deny), so that a guard can
// fail closed on an event whose other hooks (a logger, a notifier) fail
// open. Most specific first, the first one set wins:
//
//  1. the operator's entry for the hook id (hooks."guard.lua:no-rm"),
//  2. the operator's entry for its file (hooks."guard.lua"),
//  3. the operator's entry for its pack (hooks."pack/"),
//  4. the script's own hook.on options (error_behavior, timeout_behavior),
//  5. the pack's HOOK.md front matter,
//  6. the event (its catalog default, or the operator's events entry).
//
// deny needs an event that allows deny. A file, pack or front-matter
// deny is meant for every hook there, on whatever event, so it applies
// only where the event allows deny and is passed over elsewhere (the
// event's own behaviour, skip, applies). A deny on a hook id, or in the
// hook's own options, names one hook, so on an event without deny it is
// an error, reported with its line, and the event's behaviour applies.

// behaviorKinds are the two behaviours, by config key.
var behaviorKinds = []struct {
	key   string
	get   func(HookConfig) Behavior
	front func(*packMeta) Behavior
	event func(*EventSpec) Behavior
}{
	{"error_behavior", func(hc HookConfig) Behavior { return hc.ErrorBehavior },
		func(m *packMeta) Behavior { return m.errorBehavior }, func(s *EventSpec) Behavior { return s.OnError }},
	{"timeout_behavior", func(hc HookConfig) Behavior { return hc.TimeoutBehavior },
		func(m *packMeta) Behavior { return m.timeoutBehavior }, func(s *EventSpec) Behavior { return s.OnTimeout }},
}

// scriptBehavior is the behaviour a hook's own options declare for kind
// (a behaviorKinds key).
func scriptBehavior(h scripting.Hook, key string) Behavior {
	if key == "error_behavior" {
		return Behavior(h.ErrorBehavior)
	}
	return Behavior(h.TimeoutBehavior)
}

// resolveBehaviors gives a hook its error and timeout behaviours (see
// above); err holds the mistakes: a per-id or script deny on an event
// without deny.
func resolveBehaviors(id, file string, h scripting.Hook, spec *EventSpec, pack *packMeta, cfgPath string, byID, byFile, byPack HookConfig) (onError, onTimeout Behavior, err error) {
	var out [2]Behavior
	var errs []error
	for i, k := range behaviorKinds {
		out[i] = k.event(spec)
		if pack != nil {
			out[i] = broadBehavior(out[i], k.front(pack), spec)
		}
		switch b := scriptBehavior(h, k.key); {
		case b == FailClosed && !spec.allows(Deny):
			errs = append(errs, &scripting.Error{File: file, Line: h.Line, Hook: id,
				Msg: fmt.Sprintf("hook.on: option %s: deny: the event %s does not allow deny", k.key, spec.Name)})
		case b != "":
			out[i] = b
		}
		out[i] = broadBehavior(out[i], k.get(byPack), spec)
		out[i] = broadBehavior(out[i], k.get(byFile), spec)
		switch b := k.get(byID); {
		case b == FailClosed && !spec.allows(Deny):
			errs = append(errs, &ConfigError{File: cfgPath, Line: byID.behaviorLines[k.key],
				Msg: fmt.Sprintf("hooks.%s.%s: deny: the hook's event %s does not allow deny", id, k.key, spec.Name)})
		case b != "":
			out[i] = b
		}
	}
	return out[0], out[1], errors.Join(errs...)
}

// broadBehavior is b, as set by a file, pack or front matter, over the
// behaviour set so far: deny only where the event allows it.
func broadBehavior(sofar, b Behavior, spec *EventSpec) Behavior {
	if b == "" || b == FailClosed && !spec.allows(Deny) {
		return sofar
	}
	return b
}

// An Enforcement says whether a hook's decisions count (shadow mode):
// a new rule can run beside the others, recorded in the trace, the
// decision log and the metrics, before it decides anything.
type Enforcement string

const (
	// Enforce: the hook's decisions are folded like any hook's (the
	// default).
	Enforce Enforcement = "enforce"
	// DryRun: the hook runs as usual, under its deadline, and what it
	// returned is recorded in its trace entry but not applied: the fire
	// decides as if it had returned nothing, its modify changes nothing
	// the next hook sees, its stop stops nothing, and its errors and
	// timeouts never make the fire fail closed.
	DryRun Enforcement = "dryrun"
	// Warn: as DryRun, and a decision it returns adds a system message
	// "<hook> would <action>: <reason>" to the answer.
	Warn Enforcement = "warn"
)

// enforcements are the values of hooks.<key>.enforce, in the order
// messages list them.
var enforcements = []Enforcement{Enforce, DryRun, Warn}

// shadow reports whether the hook's decisions are recorded but not
// applied.
func (e Enforcement) shadow() bool { return e == DryRun || e == Warn }

// resolveEnforcement is a hook's enforcement: the operator's entry for
// its id, else its file's, else its pack's, else Enforce.
func resolveEnforcement(byID, byFile, byPack HookConfig) Enforcement {
	for _, hc := range []HookConfig{byID, byFile, byPack} {
		if hc.Enforce != "" {
			return hc.Enforce
		}
	}
	return Enforce
}
