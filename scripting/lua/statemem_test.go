package lua

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// guardSource is a small guardrail like the hook benchmark's: one hook
// reading two payload fields, with a module-level pattern list.
const guardSource = `
local blocked = { "rm %-rf /", "curl .* | sh" }
hook.on("pre_tool_use", function(tool_name, tool_input)
  if tool_name ~= "Bash" then return end
  for _, p in ipairs(blocked) do
    if string.find(tool_input.command or "", p) then return hook.deny("blocked: " .. p) end
  end
end, { name = "guard" })
`

// heapInUse is the live heap after two collections.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func compileGuard(tb testing.TB) *program {
	tb.Helper()
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "g.lua", Code: []byte(guardSource)}, &scripting.Env{})
	if err != nil {
		tb.Fatal(err)
	}
	return p.(*program)
}

// BenchmarkStateMemory reports what the heap retains per pooled
// interpreter of one file (B/state: n interpreters made and kept, divided
// by n; served: each has served one call, and keeps its arguments for
// the next, see binder.go; served-max: with the widest payload kept) and
// per loaded file with its one first
// interpreter (B/file).
func BenchmarkStateMemory(b *testing.B) {
	guardInput := map[string]any{"command": "ls -la", "description": "list files"}
	widest := map[string]any{} // the widest tool_input a state keeps (maxKept)
	for i := 0; tableCost+entryCost*int64(i+1) <= maxKept; i++ {
		widest[fmt.Sprintf("field%03d", i)] = fmt.Sprintf("value %d", i)
	}
	b.Run("state", func(b *testing.B) { benchStates(b, nil) })
	b.Run("served", func(b *testing.B) { benchStates(b, guardInput) })
	b.Run("served-max", func(b *testing.B) { benchStates(b, widest) })
	b.Run("file", func(b *testing.B) {

		const n = 32
		var perFile float64
		for b.Loop() {
			progs := make([]*program, n)
			before := heapInUse()
			for i := range progs {
				progs[i] = compileGuard(b)
			}
			after := heapInUse()
			perFile = float64(after-before) / n
			for _, p := range progs {
				p.Close()
			}
		}
		b.ReportMetric(perFile, "B/file")
	})
}

// benchStates measures B/state, each state having served one call with
// input as its tool_input unless input is nil.
func benchStates(b *testing.B, input map[string]any) {
	p := compileGuard(b)
	defer p.Close()
	const n = 64
	fn := p.hooks[0].Func.(*function)
	payload := map[string]any{"tool_name": "Bash", "tool_input": input}
	var perState float64
	for b.Loop() {
		states := make([]*state, n)
		before := heapInUse()
		for i := range states {
			st, err := p.newState()
			if err != nil {
				b.Fatal(err)
			}
			if input != nil {
				c := &scripting.Call{Payload: payload, Hook: "g.lua:guard", Config: map[string]any{}, Timeout: time.Second}
				st.cur = c
				_, _, err = fn.run(st, c)
				st.cur = nil
				st.reset()
				if err != nil {
					b.Fatal(err)
				}
			}
			states[i] = st
		}
		after := heapInUse()
		perState = float64(after-before) / n
		for _, st := range states {
			st.close()
		}
	}
	b.ReportMetric(perState, "B/state")
}

// An interpreter starts with a small value stack and grows it on demand:
// the limits scripts already had still hold, and only a stack grown past
// grownSlots by one builtin keeps the interpreter out of the pool.
func TestStackGrowsOnDemand(t *testing.T) {
	src := `
local function deep(n, a, b, c, d, e, f, g, h)
  local x1, x2, x3, x4, x5, x6, x7, x8 = a, b, c, d, e, f, g, h
  if n == 0 then return x1 + x8 end
  return deep(n - 1, x1, x2, x3, x4, x5, x6, x7, x8) + 0
end
hook.on("e", function(what, n)
  if what == "recurse" then return hook.respond(deep(n, 1, 2, 3, 4, 5, 6, 7, 8)) end
  if what == "unpack" then return hook.respond(select("#", unpack({}, 1, n))) end
  return hook.respond(select("#", string.byte(string.rep("x", n), 1, -1)))
end, { name = "h" })`
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "s.lua", Code: []byte(src)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tc := range []struct {
		what   string
		n      int64
		result int64
		err    string
		idle   int
	}{
		{what: "recurse", n: 190, result: 9, idle: 1},
		{what: "recurse", n: 250, err: "stack overflow", idle: 0},
		{what: "unpack", n: 500, result: 500, idle: 1},
		{what: "unpack", n: maxResults, result: maxResults, idle: 0},
		{what: "unpack", n: maxResults + 1, err: "too many results", idle: 1},
		{what: "byte", n: maxResults, result: maxResults, idle: 0},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.what, tc.n), func(t *testing.T) {
			fillPool(t, p.(*program), 1)
			defer p.(*program).pool.drain()
			out, err := callWithDeadline(p.Hooks()[0].Func, map[string]any{"what": tc.what, "n": tc.n}, 5*time.Second)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want an error containing %q", out, err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				if got := scripting.AsNeutral(out).(map[string]any)["result"]; got != tc.result {
					t.Errorf("result %v, want %d", got, tc.result)
				}
			}
			if got := idleStates(p); got != tc.idle {
				t.Errorf("%d idle interpreters after the call, want %d", got, tc.idle)
			}
		})
	}
}

// BenchmarkNewState measures making one interpreter of a file: opening
// the sandbox's libraries, running the top level and freezing.
func BenchmarkNewState(b *testing.B) {
	p := compileGuard(b)
	defer p.Close()
	b.ReportAllocs()
	for b.Loop() {
		st, err := p.newState()
		if err != nil {
			b.Fatal(err)
		}
		st.close()
	}
}
