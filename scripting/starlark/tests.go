package starlark

import (
	"strings"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

var _ scripting.TestProgram = (*program)(nil)

// Tests lists the file's test functions (Env.Testing only).
func (p *program) Tests() []scripting.Test { return p.tests }

// findTests lists the frozen global functions whose names start with
// test_, in the order of their definitions.
func (p *program) findTests(globals starlark.StringDict) []scripting.Test {
	var out []scripting.Test
	for name, v := range globals {
		fn, ok := v.(*starlark.Function)
		if !ok || !strings.HasPrefix(name, scripting.TestPrefix) {
			continue
		}
		out = append(out, scripting.Test{Name: name, Line: int(fn.Position().Line),
			Func: &function{prog: p, fn: fn, sig: signatureOf(fn)}})
	}
	scripting.SortTests(out)
	return out
}
