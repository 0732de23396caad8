package host

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	glua "github.com/yuin/gopher-lua"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/benchcpu"
	"github.com/hookhost/hookhost/scripting/lua"
	hhstar "github.com/hookhost/hookhost/scripting/starlark"
)

// The benchmark of issue 2: the same guardrail in Lua and in Starlark,
//
//	raw           called through the interpreter's own API, no deadline
//	raw-deadline  raw, with a per-call deadline done the plain way
//	              (context.WithTimeout + SetContext; Thread.Cancel on a timer)
//	fire          through Host.Fire with that one hook
//	fire10        Host.Fire with ten such hooks on the event
//	fire-parallel fire under RunParallel (run with -cpu 1,2 for scaling)
//	machine-parallel
//	              no hook at all: about a microsecond of arithmetic on a
//	              buffer each goroutine owns, no allocation, no shared
//	              memory. Its two-core ÷ one-core throughput is what the
//	              machine itself gives work that shares nothing (a virtual
//	              machine's cores may be busy elsewhere), the ceiling the
//	              fires' scaling is read against
//	fire-into     fire through FireInto, one Result reused
//	fire-parallel-into
//	              fire-parallel through FireInto, a Result per goroutine
//	fire-varied   fire on two payloads in turn whose commands differ,
//	              as real ones do: both engines reuse what their last
//	              call bound (Lua its argument tables, Starlark its dicts
//	              and string boxes), and a string equal to the one there
//	              already is not boxed again, which the same payload on
//	              every call always is
//
// on a payload the guardrail lets through, and the -deny variants of raw,
// raw-deadline and fire on one it refuses: the raw calls return the plain
// table / dict {action = "deny", reason = …}, the fires a hook.deny(…).
//
// Besides wall time each reports cpu-ns/op, the process's CPU time (user
// and system, the collector's included) per call: on a shared, loaded
// machine it varies far less than wall time. For the -parallel ones it
// also says how well calls scale: with calls that share nothing, CPU per
// call is the same at -cpu 2 as at -cpu 1, and what it grows by is what
// contention and the collector cost. docs/performance.md reports
// benchstat medians and the ratios.

const benchLua = `
hook.on("tool.execute.pre", function(tool_name, params)
  if tool_name == "bash" and string.find(params.command, "rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  end
end, { name = "%s" })
`

const benchStar = `
def guard(tool_name, params):
    if tool_name == "bash" and "rm -rf /" in params.get("command", ""):
        return hook.deny("refusing to delete the root filesystem")

hook.on("tool.execute.pre", guard, name = "%s")
`

var benchPayload = map[string]any{"tool_name": "bash", "params": map[string]any{"command": "ls -la"}}

// benchDenyCommand is the command of the payload the guardrail refuses.
const benchDenyCommand = "rm -rf / --no-preserve-root"

var benchDenyPayload = map[string]any{"tool_name": "bash", "params": map[string]any{"command": benchDenyCommand}}

// benchReason is the guardrail's reason, which the raw calls return too.
const benchReason = "refusing to delete the root filesystem"

func BenchmarkHook(b *testing.B) {
	b.Run("lua/raw", func(b *testing.B) { benchRawLua(b, false, "ls -la") })
	b.Run("lua/raw-deadline", func(b *testing.B) { benchRawLua(b, true, "ls -la") })
	b.Run("lua/raw-deny", func(b *testing.B) { benchRawLua(b, false, benchDenyCommand) })
	b.Run("lua/raw-deadline-deny", func(b *testing.B) { benchRawLua(b, true, benchDenyCommand) })
	b.Run("lua/raw-parallel", func(b *testing.B) {
		defer benchcpu.PerOp(b)()
		b.RunParallel(func(pb *testing.PB) { rawLuaLoop(b, false, "ls -la", pb.Next) })
	})
	b.Run("star/raw", func(b *testing.B) { benchRawStar(b, false, "ls -la") })
	b.Run("star/raw-deadline", func(b *testing.B) { benchRawStar(b, true, "ls -la") })
	b.Run("star/raw-deny", func(b *testing.B) { benchRawStar(b, false, benchDenyCommand) })
	b.Run("star/raw-deadline-deny", func(b *testing.B) { benchRawStar(b, true, benchDenyCommand) })
	b.Run("star/raw-parallel", func(b *testing.B) {
		defer benchcpu.PerOp(b)()
		b.RunParallel(func(pb *testing.PB) { rawStarLoop(b, false, "ls -la", pb.Next) })
	})
	b.Run("machine-parallel", func(b *testing.B) {
		defer benchcpu.PerOp(b)()
		b.RunParallel(func(pb *testing.PB) {
			var buf [64]uint64
			for i := range buf {
				buf[i] = uint64(i) + 1
			}
			for pb.Next() {
				machineWork(&buf)
			}
			if buf[0] == 0 && buf[1] == 0 { // keeps the work from being optimised away
				b.Log(buf[2])
			}
		})
	})
	for _, lang := range []struct{ ext, src string }{{"lua", benchLua}, {"star", benchStar}} {
		b.Run(lang.ext+"/fire", func(b *testing.B) { benchFire(b, benchHost(b, lang.ext, lang.src, 1)) })
		b.Run(lang.ext+"/fire-varied", func(b *testing.B) { benchFireVaried(b, benchHost(b, lang.ext, lang.src, 1)) })
		b.Run(lang.ext+"/fire-deny", func(b *testing.B) { benchFireDeny(b, benchHost(b, lang.ext, lang.src, 1)) })
		b.Run(lang.ext+"/fire10", func(b *testing.B) { benchFire(b, benchHost(b, lang.ext, lang.src, 10)) })
		b.Run(lang.ext+"/fire-parallel", func(b *testing.B) {
			h := benchHost(b, lang.ext, lang.src, 1)
			defer benchcpu.PerOp(b)()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					fireOnce(b, h)
				}
			})
		})
		b.Run(lang.ext+"/fire-into", func(b *testing.B) {
			h := benchHost(b, lang.ext, lang.src, 1)
			defer benchcpu.PerOp(b)()
			b.ReportAllocs()
			var r Result
			for i := 0; i < b.N; i++ {
				fireInto(b, h, &r)
			}
		})
		b.Run(lang.ext+"/fire-parallel-into", func(b *testing.B) {
			h := benchHost(b, lang.ext, lang.src, 1)
			defer benchcpu.PerOp(b)()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				var r Result
				for pb.Next() {
					fireInto(b, h, &r)
				}
			})
		})
	}
}

// machineWork is machine-parallel's unit: about a microsecond of
// xorshift rounds over a buffer that stays in the core's own cache.
func machineWork(buf *[64]uint64) {
	for round := 0; round < 12; round++ {
		for i := range buf {
			x := buf[i]
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			buf[i] = x + buf[(i+1)%len(buf)]
		}
	}
}

func benchHost(b *testing.B, ext, src string, n int) *Host {
	fsys := fstest.MapFS{}
	for i := 0; i < n; i++ {
		fsys[fmt.Sprintf("g%d.%s", i, ext)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(src, "guard"))}
	}
	h, err := New(context.Background(), Options{FS: fsys})
	if err != nil || len(h.Problems()) > 0 {
		b.Fatal(err, h.Problems())
	}
	b.Cleanup(func() { h.Close() })
	return h
}

func benchFire(b *testing.B, h *Host) {
	defer benchcpu.PerOp(b)()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		fireOnce(b, h)
	}
}

func benchFireDeny(b *testing.B, h *Host) {
	defer benchcpu.PerOp(b)()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, err := h.Fire(context.Background(), "tool.execute.pre", benchDenyPayload)
		if err != nil || r.Decision.Action != Deny || r.Decision.Reason != benchReason {
			b.Fatal(err, r.Decision)
		}
	}
}

// benchVariedPayloads are allowed payloads with different commands.
var benchVariedPayloads = [2]map[string]any{
	{"tool_name": "bash", "params": map[string]any{"command": "ls -la"}},
	{"tool_name": "bash", "params": map[string]any{"command": "git status --short"}},
}

func benchFireVaried(b *testing.B, h *Host) {
	defer benchcpu.PerOp(b)()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, err := h.Fire(context.Background(), "tool.execute.pre", benchVariedPayloads[i%2])
		if err != nil || r.Decision.Action != Continue {
			b.Fatal(err, r.Decision)
		}
	}
}

// fireInto is fireOnce through FireInto, reusing r.
func fireInto(b *testing.B, h *Host, r *Result) {
	err := h.FireInto(context.Background(), r, "tool.execute.pre", benchPayload)
	if err != nil || r.Decision.Action != Continue || len(r.Trace) != 1 {
		b.Fatal(err, r.Decision)
	}
}

func fireOnce(b *testing.B, h *Host) {
	r, err := h.Fire(context.Background(), "tool.execute.pre", benchPayload)
	if err != nil || r.Decision.Action != Continue {
		b.Fatal(err, r.Decision)
	}
}

func benchRawLua(b *testing.B, deadline bool, command string) {
	defer benchcpu.PerOp(b)()
	n := 0
	rawLuaLoop(b, deadline, command, func() bool { n++; return n <= b.N })
}

// rawLuaLoop calls the guardrail through gopher-lua's own API while next
// says so; each caller has its own interpreter.
func rawLuaLoop(b *testing.B, deadline bool, command string, next func() bool) {
	L := glua.NewState()
	defer L.Close()
	src := strings.Replace(strings.Replace(benchLua, "hook.on(\"tool.execute.pre\", function", "H = function", 1), "end, { name = \"%s\" })", "end", 1)
	src = strings.Replace(src, "hook.deny(\"", "{action = \"deny\", reason = \"", 1)
	src = strings.Replace(src, "filesystem\")", "filesystem\"}", 1)
	if err := L.DoString(src); err != nil {
		b.Fatal(err)
	}
	fn := L.GetGlobal("H").(*glua.LFunction)
	b.ReportAllocs()
	for next() {
		cancel := context.CancelFunc(func() {})
		if deadline {
			var ctx context.Context
			ctx, cancel = context.WithTimeout(context.Background(), time.Second)
			L.SetContext(ctx)
		}
		params := L.CreateTable(0, 1)
		params.RawSetString("command", glua.LString(command))
		L.Push(fn)
		L.Push(glua.LString("bash"))
		L.Push(params)
		if err := L.PCall(2, 1, nil); err != nil {
			b.Fatal(err)
		}
		if (command != "ls -la") != (L.Get(-1) != glua.LNil) {
			b.Fatal("the raw Lua guardrail decided wrong")
		}
		L.Pop(1)
		cancel()
	}
}

func benchRawStar(b *testing.B, deadline bool, command string) {
	defer benchcpu.PerOp(b)()
	n := 0
	rawStarLoop(b, deadline, command, func() bool { n++; return n <= b.N })
}

// rawStarLoop calls the guardrail through go.starlark.net's own API while
// next says so.
func rawStarLoop(b *testing.B, deadline bool, command string, next func() bool) {
	src := strings.Replace(benchStar, "hook.on(\"tool.execute.pre\", guard, name = \"%s\")", "", 1)
	src = strings.Replace(src, "hook.deny(\"refusing to delete the root filesystem\")", "{\"action\": \"deny\", \"reason\": \""+benchReason+"\"}", 1)
	globals, err := starlark.ExecFileOptions(&syntax.FileOptions{}, &starlark.Thread{}, "g.star", src, nil)
	if err != nil {
		b.Fatal(err)
	}
	globals.Freeze()
	fn := globals["guard"]
	b.ReportAllocs()
	for next() {
		thread := &starlark.Thread{}
		var timer *time.Timer
		if deadline {
			timer = time.AfterFunc(time.Second, func() { thread.Cancel("timeout") })
		}
		params := starlark.NewDict(1)
		_ = params.SetKey(starlark.String("command"), starlark.String(command))
		v, err := starlark.Call(thread, fn, starlark.Tuple{starlark.String("bash"), params}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if (command != "ls -la") != (v != starlark.None) {
			b.Fatal("the raw Starlark guardrail decided wrong")
		}
		if deadline {
			timer.Stop()
		}
	}
}

// BenchmarkEngineCall is a hook call through an engine alone, without
// the host around it: what the engine adds to the raw interpreter.
func BenchmarkEngineCall(b *testing.B) {
	for _, c := range []struct {
		eng scripting.Engine
		src string
	}{{lua.Engine{}, benchLua}, {hhstar.Engine{}, benchStar}} {
		b.Run(c.eng.Language(), func(b *testing.B) {
			p, err := c.eng.Compile(context.Background(), scripting.Source{Name: "g" + c.eng.Extension(), Code: []byte(fmt.Sprintf(c.src, "g"))}, &scripting.Env{})
			if err != nil {
				b.Fatal(err)
			}
			fn := p.Hooks()[0].Func
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				call := &scripting.Call{Payload: benchPayload, Hook: "g", Timeout: time.Second}
				if _, err := fn.Call(call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
