package starlark

import (
	"errors"
	"fmt"
	"sync/atomic"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// A decision constructor's result (scripting.Decision) reaches a script as
// a decision value holding it: one small allocation instead of a dict,
// and returned as it is, the host gets the decision itself without a
// conversion back. Scripts can read its fields (d["action"],
// "reason" in d) and nothing else; it is immutable, so it may be shared
// by threads (a decision built at a file's top level is a frozen global).
type decision struct {
	d scripting.Decision
	// fields are the decision's fields as a frozen dict, built on the first
	// read: one conversion per decision, however often it is read.
	fields atomic.Pointer[starlark.Dict]
}

// newDecisionValue is the script's value for a decision the thread's code
// built: shared when the file's top level built it (a global may keep it
// for every later call).
func newDecisionValue(thread *starlark.Thread, d scripting.Decision) *decision {
	v := &decision{d: d}
	if callOf(thread) == nil {
		v.d.Share()
	}
	return v
}

// maxPooledDecisions bounds the decision values a thread reuses from call
// to call: a call that makes more gets fresh ones for the rest.
const maxPooledDecisions = 4

// decisionValue is the value of a decision a hook call's constructor
// built: one of the thread's own, reused by its later calls. Nothing a
// call makes outlives it — what it returns reaches the host as a copy in
// the call's memory (scripting.Call.KeepDecision), a decision inside a
// returned value or a module argument is converted — and the thread is
// reused only after a call that was never interrupted;
// releaseDecisions clears them.
func (ct *callThread) decisionValue(d scripting.Decision) *decision {
	if ct.usedDecisions == maxPooledDecisions {
		return &decision{d: d}
	}
	if ct.usedDecisions == len(ct.decisions) {
		ct.decisions = append(ct.decisions, &decision{})
	}
	v := ct.decisions[ct.usedDecisions]
	ct.usedDecisions++
	v.d = d
	return v
}

// releaseDecisions clears the thread's decision values after a call.
func (ct *callThread) releaseDecisions() {
	for _, v := range ct.decisions[:ct.usedDecisions] {
		v.d = scripting.Decision{}
		v.fields.Store(nil)
	}
	ct.usedDecisions = 0
}

var (
	_ starlark.HasSetKey  = (*decision)(nil)
	_ starlark.Comparable = (*decision)(nil)
)

// CompareSameType compares two decisions by content
// (scripting.Decision.Equal); they have no order.
func (v *decision) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	w := y.(*decision)
	switch op {
	case syntax.EQL:
		return v.d.Equal(&w.d), nil
	case syntax.NEQ:
		return !v.d.Equal(&w.d), nil
	}
	return false, fmt.Errorf("%s %s %s not implemented", v.Type(), op, y.Type())
}

// errReadOnly is what writing a field of a decision fails with, in both
// languages.
const errReadOnly = "a decision is read-only (to change one, return a plain dict such as {\"action\": \"deny\", \"reason\": …})"

// SetKey refuses: a decision is read-only.
func (v *decision) SetKey(_, _ starlark.Value) error { return errors.New(errReadOnly) }

// String implements starlark.Value.
func (v *decision) String() string { return "decision" }

// Type implements starlark.Value: "decision".
func (v *decision) Type() string { return "decision" }

// Freeze implements starlark.Value: a decision is immutable already.
func (v *decision) Freeze() {}

// Truth implements starlark.Value: a decision is always true.
func (v *decision) Truth() starlark.Bool { return starlark.True }

// Hash implements starlark.Value: a decision is not hashable, like the
// dict it stands for.
func (v *decision) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable type: decision") }

// Get reads one field; a key the decision lacks is not found.
func (v *decision) Get(k starlark.Value) (starlark.Value, bool, error) {
	f := v.fields.Load()
	if f == nil {
		// Racing threads may each build it; they build the same thing.
		f = toStarlark(v.d.Map()).(*starlark.Dict)
		f.Freeze()
		v.fields.CompareAndSwap(nil, f)
	}
	return f.Get(k)
}

// decisionOf is the Decision v holds, if it holds one.
func decisionOf(v starlark.Value) (*scripting.Decision, bool) {
	if dv, ok := v.(*decision); ok {
		return &dv.d, true
	}
	return nil, false
}
