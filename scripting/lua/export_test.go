package lua

import (
	"context"

	"github.com/hookhost/hookhost/scripting"
)

// What the external tests may see of the speed rewrites (speed.go).

// speedRewriteNames names each speed rewrite, for benchmarks.
var speedRewriteNames = map[string]speedRewrite{"recycledargs": speedRecycledArgs, "reasondecisions": speedReasonDecisions}

// SpeedRewrites are the speed rewrites' names, in a fixed order.
func SpeedRewrites() []string { return []string{"recycledargs", "reasondecisions"} }

// engineWithout is the engine with some speed rewrites off: every one is
// looked at when a call runs, so setting them on the compiled program
// before its first call is enough.
type engineWithout struct {
	Engine
	without speedRewrite
}

func (e engineWithout) Compile(ctx context.Context, src scripting.Source, env *scripting.Env) (scripting.Program, error) {
	prog, err := e.Engine.Compile(ctx, src, env)
	if err != nil {
		return nil, err
	}
	prog.(*program).without = e.without
	return prog, nil
}

// EngineWithout is an engine with the named speed rewrites off.
func EngineWithout(names ...string) scripting.Engine {
	var e engineWithout
	for _, n := range names {
		r, ok := speedRewriteNames[n]
		if !ok {
			panic("no speed rewrite " + n)
		}
		e.without |= r
	}
	return e
}
