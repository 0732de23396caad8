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
	// speedBindCaches are the payload binding's kept dicts, string boxes
	// and sorted keys (dictcache.go, bindcache.go).
	speedBindCaches speedRewrite = 1 << iota
)

// has reports whether every rewrite of r is off in without.
func (without speedRewrite) has(r speedRewrite) bool { return without&r != 0 }
