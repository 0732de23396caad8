package starlark

// A speedRewrite is one of the rewrites and caches that exist only to
// make a fire cheaper, never to meter or contain it. A speed rewrite must
// not change what a script can observe, so each can be turned off
// without changing any outcome: the benchmark of the shipped packs
// (speed_bench_test.go) fires a pack with and without each, which is how
// docs/performance.md knows what each one gains. Only tests turn them
// off (Engine's without field is unexported); the engine a host uses
// has every one on.
type speedRewrite uint8

const (
	// speedGet is the rewrite of x.get(key[, default]) into $get or its
	// call-free form (ops_get.go).
	speedGet speedRewrite = 1 << iota
	// speedHoist is the hoisting of decisions with a literal reason
	// (ops_hoist.go).
	speedHoist
	// speedBindCaches are the payload binding's kept dicts, string boxes
	// and sorted keys (dictcache.go, bindcache.go).
	speedBindCaches
	// speedReasonDecisions is hook.deny(reason) and the other reason
	// constructors building their decision straight into one of the
	// thread's reused decision values (reasonBuiltin, decisionValue).
	speedReasonDecisions
	// speedCallFreeGet is only the call-free form of x.get (ops_get.go):
	// with it off, x.get(…) still becomes $get(…).
	speedCallFreeGet
)

// has reports whether every rewrite of r is off in without.
func (without speedRewrite) has(r speedRewrite) bool { return without&r != 0 }
