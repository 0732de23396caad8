package starlark

// What the external tests may see of the speed rewrites (speed.go).

// speedRewriteNames names each speed rewrite, for benchmarks.
var speedRewriteNames = map[string]speedRewrite{
	"get": speedGet, "callfreeget": speedCallFreeGet, "hoist": speedHoist, "bindcaches": speedBindCaches, "reasondecisions": speedReasonDecisions,
}

// SpeedRewrites are the speed rewrites' names, in a fixed order.
func SpeedRewrites() []string {
	return []string{"get", "callfreeget", "hoist", "bindcaches", "reasondecisions"}
}

// EngineWithout is an engine with the named speed rewrites off.
func EngineWithout(names ...string) Engine {
	var e Engine
	for _, n := range names {
		r, ok := speedRewriteNames[n]
		if !ok {
			panic("no speed rewrite " + n)
		}
		e.without |= r
	}
	return e
}
