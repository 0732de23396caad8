package starlark

import (
	"fmt"
	"math"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

// A meter counts what hookhost's own code does for one call of a script:
// the bytes it allocates, charged against the call's memory budget
// (Limits.MaxCallMemory), and the iterations of its builtins, which count
// as execution steps and check the call's interrupt as they go. The
// interpreter checks the deadline between instructions; a meter is what
// makes the Go loops inside one instruction (sorted, str, a conversion)
// answer it too.
//
// A meter is a value owned by one builtin call or conversion; a zero
// meter (no call) counts nothing, for values built outside any call
// (module constants).
type meter struct {
	call      *scripting.Call
	memLimit  int64
	maxSteps  uint64
	maxString int   // Limits.MaxStringSize: the longest string str and repr build
	pending   int64 // bytes counted but not yet charged
	ticks     int
	// dicts, when set, supplies the dicts a payload binding fills (see
	// dictCache).
	dicts *dictCache
	// strings, when set, boxes the strings a payload binding converts
	// (see stringCache).
	strings *stringCache
	// keys, when set, gives the sorted keys of the payload maps a
	// binding converts (see keyCache).
	keys *keyCache
}

// Sizes charged for what a builtin or a conversion allocates, in bytes:
// close to what the Go runtime uses on 64-bit platforms, rounded up.
const (
	valueSize = 16  // one Starlark or neutral value in a slice or interface
	sliceSize = 32  // a list, tuple or []any header and its box
	entrySize = 64  // one dict or set entry, or one map[string]any entry
	dictSize  = 128 // an empty dict or map
	// decisionSize is a decision value that holds only strings.
	decisionSize = 160
)

// Meters check the interrupt and charge pending bytes every tickEvery
// iterations or every flushBytes bytes, so the cost per element stays a
// counter increment.
const (
	tickEvery  = 1024
	flushBytes = 64 << 10
)

// meterOf returns the meter of the call the thread serves: the hook call,
// or the file's top level while it runs.
func meterOf(thread *starlark.Thread) meter {
	ct := callThreadOf(thread)
	if ct == nil {
		return meter{}
	}
	return meterFor(ct.call, ct.limits)
}

func meterFor(c *scripting.Call, limits *scripting.Limits) meter {
	return meter{call: c, memLimit: limits.MaxCallMemory, maxSteps: limits.MaxSteps, maxString: limits.MaxStringSize}
}

// spend counts n bytes about to be allocated. It fails once the call's
// budget is exhausted or the call was interrupted.
func (m *meter) spend(n int64) error {
	if m.call == nil {
		return nil
	}
	m.pending += n
	if m.pending < flushBytes {
		return nil
	}
	return m.flush()
}

// spendN counts n elements of size bytes each, refusing before anything
// is allocated when the product passes the budget (or overflows).
func (m *meter) spendN(n int, size int64) error {
	if n <= 0 {
		return nil
	}
	if int64(n) > math.MaxInt64/size {
		return m.spend(math.MaxInt64 / 2)
	}
	return m.spend(int64(n) * size)
}

// flush charges the pending bytes and checks the interrupt.
func (m *meter) flush() error {
	if m.call == nil {
		return nil
	}
	if m.call.Interrupted() {
		return scripting.ErrInterrupted
	}
	n := m.pending
	m.pending = 0
	if n <= 0 {
		return nil
	}
	if n > m.memLimit { // keep the call's running total far from overflow
		n = m.memLimit + 1
	}
	return m.call.Charge(n, m.memLimit)
}

// tick counts one iteration of a builtin's loop. Every tickEvery
// iterations it adds them to the thread's execution steps, fails when
// the step budget is spent, and checks the interrupt and the budget.
func (m *meter) tick(thread *starlark.Thread) error {
	m.ticks++
	if m.ticks < tickEvery {
		return nil
	}
	m.ticks = 0
	if thread != nil && m.maxSteps > 0 {
		thread.Steps += tickEvery
		if thread.Steps >= m.maxSteps {
			return fmt.Errorf("too many steps (the call's budget is %d)", m.maxSteps)
		}
	}
	return m.flush()
}
