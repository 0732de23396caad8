package lua

import (
	"context"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/benchcpu"
	"github.com/hookhost/hookhost/stdlib/shell"
	"github.com/hookhost/hookhost/stdlib/shell/shelltest"
)

// shellValues are shell.parse's results for the typical lines, as the module
// gives them to the engine (stdlib.Records) before conversion.
func shellValues(tb testing.TB) []any {
	tb.Helper()
	var out []any
	for _, line := range shelltest.TypicalLines() {
		cmds, err := shell.Parse(context.Background(), line)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, shell.Records(cmds))
	}
	return out
}

// BenchmarkToLuaShell measures converting shell.parse's result for each
// of the typical lines into Lua tables (what a module function's result
// costs a script, charged as a call charges it), the four lines per op.
func BenchmarkToLuaShell(b *testing.B) {
	values := shellValues(b)
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	boxes := keyBoxes{}
	b.ReportAllocs()
	defer benchcpu.PerOp(b)()
	for b.Loop() {
		c := &scripting.Call{}
		for _, v := range values {
			lb := luaBuilder{L: L, b: budget{call: c, limit: 1 << 30, strings: true}, boxes: boxes}
			if _, err := lb.build(v, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}
