package lua

import (
	"context"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/benchcpu"
)

// BenchmarkCallWrites measures what containment costs where it costs
// something: 100 writes of table fields and 100 concatenations in a hook
// body (each is a Go call of a helper), against the same hook reading 100
// fields; and Lua patterns (hookhost's matcher). Reported per call.
func BenchmarkCallWrites(b *testing.B) {
	for _, bc := range []struct{ name, body string }{
		{"reads", `local t = {k = 1} local x = 0 for i = 1, 100 do x = x + t.k end return x`},
		{"writes", `local t = {} for i = 1, 100 do t.k = i end return t.k`},
		{"concat", `local s for i = 1, 100 do s = "a" .. i end return s`},
		{"match", `local s = "   rm -rf /tmp/build && make install   " local r for i = 1, 10 do r = s:match("^%s*(.-)%s*$") end return r`},
		{"gsub", `local s = ("key=value; "):rep(20) return (s:gsub("(%w+)=(%w+)", "%2=%1"))`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			src := "hook.on(\"e\", function()\n" + bc.body + "\nend, { name = \"h\" })\n"
			p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "b.lua", Code: []byte(src)}, &scripting.Env{})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			fn := p.Hooks()[0].Func
			b.ReportAllocs()
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				c := &scripting.Call{Payload: map[string]any{}, Hook: "b.lua:h", Config: map[string]any{}, Timeout: time.Second}
				if _, err := fn.Call(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
