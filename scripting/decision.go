package scripting

import (
	"github.com/hookhost/hookhost/stdlib"
)

// A Decision is what a decision constructor of the hook module returns:
// the neutral map a script could have written by hand, built once and
// never changed. It keeps each key in a field of its own rather than in
// a map, so that building one (hook.deny(reason) is most hooks' answer)
// costs one small allocation, and the host reads it without map lookups.
// An engine hands it to a script as an opaque, read-only value (fields
// readable by key) and, when a hook returns it as it is, returns it to the
// host unchanged (Return), so that a decision is not converted into the
// language and back on its way. Engines know nothing of its keys: the
// host validates a Decision as it validates a map a hook returns.
type Decision struct {
	action   string
	reason   string
	fields   map[string]any // hook.modify's
	result   any            // hook.respond's
	approval map[string]any // hook.ask's options
	messages any            // hook.message's, a []any
	has      decisionKeys   // which keys the decision has
	// m is the decision when a constructor built it from a map a script
	// gave (hook.stop(d)), which may hold anything; the fields above are
	// then unused and the host parses m.
	m map[string]any

	size  int64 // what Copy charges
	depth int   // levels of nesting, the decision itself counted
	// shared is set for a decision built outside any call (at a file's
	// top level): many calls may return it, so each gets a copy of what
	// it holds.
	shared bool
}

// decisionKeys is a set of a Decision's keys.
type decisionKeys uint8

const (
	hasAction decisionKeys = 1 << iota
	hasReason
	hasFields
	hasResult
	hasApproval
	hasMessages
	hasStop // and stop is true: the constructors only ever set it so
)

// keyNames are the keys a built decision may have, sorted (Keys' order).
var keyNames = []struct {
	name string
	bit  decisionKeys
}{{"action", hasAction}, {"approval", hasApproval}, {"fields", hasFields}, {"messages", hasMessages},
	{"reason", hasReason}, {"result", hasResult}, {"stop", hasStop}}

// DecisionKeys returns the keys a decision may have, sorted: the one list
// of them, which the host also checks a returned table against.
func DecisionKeys() []string {
	names := make([]string, len(keyNames))
	for i, k := range keyNames {
		names[i] = k.name
	}
	return names
}

// ReasonAction is a constructor of the hook module that takes a reason
// and nothing else.
type ReasonAction struct {
	Name string
	// Optional is set when the reason may be left out (hook.allow()).
	Optional bool
}

// ReasonActions are the hook module's constructors that take only a
// reason. HookModule builds them; an engine may also bind them straight
// to ReasonDecision and ActionDecision for a call with one string (or no)
// argument, the commonest return value of all, leaving every other call
// to the module function.
var ReasonActions = []ReasonAction{allowAction, denyAction, abortTurnAction, hardAbortAction}

var (
	allowAction     = ReasonAction{"allow", true}
	denyAction      = ReasonAction{"deny", false}
	abortTurnAction = ReasonAction{"abort_turn", false}
	hardAbortAction = ReasonAction{"hard_abort", false}
)

// ReasonDecision is what hook.<action>(reason) builds.
func ReasonDecision(action, reason string) Decision {
	return Decision{action: action, reason: reason, has: hasAction | hasReason, size: keysCost(2), depth: 1}
}

// ActionDecision is what hook.<action>() builds, without a reason.
func ActionDecision(action string) Decision {
	return Decision{action: action, has: hasAction, size: keysCost(1), depth: 1}
}

// newDecision seals d, which a constructor has just filled: its size and
// depth are reckoned now, while nothing else can see it. A Decision is
// read-only from then on.
func newDecision(d Decision) *Decision {
	d.size, d.depth = keysCost(d.count()), 1
	for _, v := range d.containers() {
		if v != nil {
			s, dep := measure(v)
			d.size += s
			d.depth = max(d.depth, dep+1)
		}
	}
	return &d
}

// decisionOfMap seals a decision a constructor built as a map.
func decisionOfMap(m map[string]any) *Decision {
	size, depth := measure(m)
	return &Decision{m: m, size: size, depth: depth}
}

// containers are the values of d that may hold other values.
func (d *Decision) containers() [4]any {
	var out [4]any
	if d.fields != nil {
		out[0] = d.fields
	}
	if d.approval != nil {
		out[1] = d.approval
	}
	out[2], out[3] = d.result, d.messages
	return out
}

// Plain reports whether d keeps its keys in fields and has none but
// action, reason and stop (what hook.deny(reason) and its kind build).
func (d *Decision) Plain() bool { return d.m == nil && d.has&^(hasAction|hasReason|hasStop) == 0 }

// holdsContainers reports whether d holds a value that may be changed
// (a map or a list), not only strings.
func (d *Decision) holdsContainers() bool {
	return d.fields != nil || d.approval != nil || d.result != nil || d.messages != nil
}

func (d *Decision) count() int {
	n := 0
	for _, k := range keyNames {
		if d.has&k.bit != 0 {
			n++
		}
	}
	return n
}

// Depth is how many levels the decision nests, itself counted: a decision
// found inside another value makes that value this much deeper.
func (d *Decision) Depth() int { return d.depth }

// Share marks a decision built outside any hook call, before the engine
// hands it to the script: a file's top level may keep it in a global that
// every later call can return.
func (d *Decision) Share() { d.shared = true }

// Return is what a hook that returns d hands the host: d itself when the
// call built it (nothing else can reach it any more) or when it holds only
// strings, which the host never changes; else a copy of what it holds,
// charged.
func (d *Decision) Return(charge func(int64) error) (*Decision, error) {
	if !d.shared || d.m == nil && !d.holdsContainers() {
		return d, nil
	}
	if err := charge(d.size); err != nil {
		return nil, err
	}
	if d.m != nil {
		return &Decision{m: deepCopy(d.m).(map[string]any), size: d.size, depth: d.depth}, nil
	}
	out := *d
	out.shared = false
	if d.fields != nil {
		out.fields = deepCopy(d.fields).(map[string]any)
	}
	if d.approval != nil {
		out.approval = deepCopy(d.approval).(map[string]any)
	}
	out.result, out.messages = deepCopy(d.result), deepCopy(d.messages)
	return &out, nil
}

// Map is the decision as a neutral map. The values in it are the
// decision's own: callers must not change them.
func (d *Decision) Map() map[string]any {
	if d.m != nil {
		return d.m
	}
	out := make(map[string]any, d.count())
	for _, k := range keyNames {
		if d.has&k.bit != 0 {
			out[k.name], _ = d.Field(k.name)
		}
	}
	return out
}

// Equal reports whether two decisions hold the same keys and values: the
// equality scripts see for decisions in both languages (==, and what is
// built on it: !=, in, list.index). Decisions compare by content because
// a decision cannot change, so two with the same content are the same
// decision in every way a hook can tell; and an engine may build one
// decision once and return it from every call (Starlark hoists
// hook.deny("literal")), which identity would show.
func (d *Decision) Equal(o *Decision) bool {
	// Only a script's comparison calls it, never a fire: building the two
	// maps is simpler than comparing field by field, and cheap enough.
	return d == o || stdlib.Equal(d.Map(), o.Map())
}

// Raw is the map a decision was built from (hook.stop of a map), which
// the host parses like any map a hook returns; ok is false for a decision
// that keeps its keys in fields of its own.
func (d *Decision) Raw() (m map[string]any, ok bool) { return d.m, d.m != nil }

// Field is the value of one key, and whether the decision has it.
func (d *Decision) Field(key string) (any, bool) {
	if d.m != nil {
		v, ok := d.m[key]
		return v, ok
	}
	var v any
	var bit decisionKeys
	switch key {
	case "action":
		v, bit = d.action, hasAction
	case "reason":
		v, bit = d.reason, hasReason
	case "fields":
		v, bit = d.fields, hasFields
	case "result":
		v, bit = d.result, hasResult
	case "approval":
		v, bit = d.approval, hasApproval
	case "messages":
		v, bit = d.messages, hasMessages
	case "stop":
		v, bit = true, hasStop
	}
	if d.has&bit == 0 {
		return nil, false
	}
	return v, true
}

// Action is the decision's action, and whether it has one; Reason its
// reason ("" when it has none); Stop whether it stops lower-priority
// hooks. They read a decision that keeps its keys in fields (Raw is not
// ok) without boxing its strings.
func (d *Decision) Action() (string, bool) { return d.action, d.has&hasAction != 0 }

// Reason is the decision's reason, "" when it has none.
func (d *Decision) Reason() string { return d.reason }

// Stop reports whether the decision stops lower-priority hooks.
func (d *Decision) Stop() bool { return d.has&hasStop != 0 }

// Keys are the decision's keys, sorted.
func (d *Decision) Keys() []string {
	if d.m != nil {
		return stdlib.SortedKeys(d.m)
	}
	out := make([]string, 0, d.count())
	for _, k := range keyNames {
		if d.has&k.bit != 0 {
			out = append(out, k.name)
		}
	}
	return out
}

// Copy is a fresh copy of the decision as a map, for a decision found
// inside another value (an argument, a table a hook returns): neutral
// values that leave an engine never share structure. charge is called
// with what the copy costs before it is made, so that copying the same
// decision many times is bounded by the call's memory budget.
func (d *Decision) Copy(charge func(int64) error) (map[string]any, error) {
	if err := charge(d.size); err != nil {
		return nil, err
	}
	return deepCopy(d.Map()).(map[string]any), nil
}

// AsNeutral is v with a Decision in its place turned into its map: for
// callers of Function.Call that need a neutral value (a worker process
// sending it on, a test comparing it).
func AsNeutral(v any) any {
	if d, ok := v.(*Decision); ok {
		return d.Map()
	}
	return v
}

// Costs used for charging copies: a container, and each of its entries.
const (
	containerCost = 64
	entryCost     = 32
)

// keysCost is what a decision of n keys is charged as a map.
func keysCost(n int) int64 { return int64(containerCost + entryCost*n) }

// measure is roughly what a deep copy of v allocates, and how deep v
// nests. The values a constructor seals are trees the engine converted,
// within the call's limits, so the walk is linear and bounded.
func measure(v any) (size int64, depth int) {
	grow := func(e any) {
		s, d := measure(e)
		size += s
		depth = max(depth, d+1)
	}
	switch v := v.(type) {
	case []any:
		size, depth = int64(containerCost+entryCost*len(v)), 1
		for _, e := range v {
			grow(e)
		}
	case map[string]any:
		size, depth = int64(containerCost+entryCost*len(v)), 1
		for _, e := range v {
			grow(e)
		}
	}
	return size, depth
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	}
	return v
}
