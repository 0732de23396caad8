package lua

// A speedRewrite is one of the caches and shortcuts that exist only to
// make a fire cheaper, never to meter or contain it. A speed rewrite must
// not change what a script can observe, so each can be turned off
// without changing any outcome: the benchmark of the shipped packs
// (speed_bench_test.go) fires a pack with and without each, which is how
// docs/performance.md knows what each one gains. Only tests turn them
// off (program's without field, set by a test's engine); a host's
// programs have every one on.
type speedRewrite uint8

const (
	// speedRecycledArgs is the binder's refilling of a hook's last
	// arguments (binder.go).
	speedRecycledArgs speedRewrite = 1 << iota
	// speedReasonDecisions is hook.deny(reason) and the other reason
	// constructors writing their decision into the state's own memory
	// and reused wrappers (reasonBuiltin, decisionValue).
	speedReasonDecisions
)

// has reports whether every rewrite of r is off in without.
func (without speedRewrite) has(r speedRewrite) bool { return without&r != 0 }
