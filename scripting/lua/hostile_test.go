package lua

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib/std"
)

// Hostile scripts: each case must come back within its deadline plus a
// slack, without crashing, with a clear error (or, for cases that are
// merely large, the right answer). The cases run in a child process that
// caps its own memory, so that a regression that lets one of them
// allocate gigabytes cannot take the machine down.

type hostileCase struct {
	name    string
	body    string // the hook's body; its parameters are s and n
	payload map[string]any
	timeout time.Duration
	// want is a substring of the error; empty means the call succeeds and
	// check (when set) judges its result.
	want   string
	check  func(t *testing.T, out any)
	limits scripting.Limits
}

// hostileSlack is how long after its deadline a hostile call may take to
// return, and how long the goroutines it started may run on after it
// returns, before the test calls it stuck. It is generous, for a loaded
// machine under the race detector (it only ever waits for a failure): a
// call that is not contained does not return at all, takes minutes, or
// returns a result where the case wants an error.
const hostileSlack = 10 * time.Second

var hostileCases = []hostileCase{
	{name: "unpack a huge range", body: `return hook.respond(select("#", unpack({}, 1, 1e8)))`, want: "unpack: too many results"},
	{name: "unpack a range past 2^63", body: `return hook.respond(select("#", unpack({}, -1e300, 1e300)))`, want: "too many results"},
	{name: "table.concat of 200,000 short strings", body: `
		local t = {}
		for i = 1, 200000 do t[i] = "x" end
		return hook.respond(#table.concat(t))`, check: wantResult(int64(200000))},
	{name: "table.concat past the string limit", body: `
		local big = string.rep("x", 16 * 1024 * 1024)
		local t = {}
		for i = 1, 300 do t[i] = big end
		return hook.respond(#table.concat(t))`, want: "table.concat: the result would be"},
	{name: "table.concat over a huge range of nothing", body: `return hook.respond(table.concat({}, ",", 1, 1e15))`, want: "invalid value (nil) at index 1"},
	{name: "string.byte of a MiB", body: `return hook.respond(select("#", string.byte(s, 1, -1)))`,
		payload: map[string]any{"s": strings.Repeat("x", 1<<20)}, want: "string.byte: string slice too long"},
	{name: "string.byte of a short string", body: `return hook.respond({string.byte("abc", 1, -1)})`,
		check: wantResult([]any{int64(97), int64(98), int64(99)})},
	{name: "concatenation doubling", body: `for i = 1, 40 do s = s .. s end`, payload: map[string]any{"s": "x"},
		want: "string concatenation: the result would be"},
	{name: "concatenation charges the budget", body: `
		local parts = {}
		for i = 1, 10 do parts[i] = s .. s end`, payload: map[string]any{"s": strings.Repeat("x", 4<<20)},
		want: "memory limit exceeded: this call would allocate more than 64MiB"},
	{name: "string.rep charges the budget", body: `
		local t = {}
		for i = 1, 10 do t[i] = string.rep("x", 16 * 1024 * 1024) end`,
		want: "string.rep: memory limit exceeded"},
	{name: "string.rep past the string limit", body: `return ("x"):rep(1e10)`, want: "exceed"},
	{name: "string.format with a huge width", body: `return string.format("%999999999d", 1)`, want: "width or precision too long"},
	{name: "string.format of many directives", body: `
		local f = string.rep("%99s", 200000)
		return string.format(f, unpack({}, 1, 200000))`, want: "too many results"},
	{name: "string.format formats like Lua", body: `return hook.respond(string.format("%5.2f|%-3d|%x|%q|%s|%g", 3.14159, 7, 255, 'a"b\n', 12, 0.1))`,
		check: wantResult(" 3.14|7  |ff|\"a\\\"b\\\n\"|12|0.1")},
	{name: "upper of a string past the budget", body: `
		local t = {}
		for i = 1, 20 do t[i] = s:upper() end`, payload: map[string]any{"s": strings.Repeat("x", 600<<10)},
		limits: scripting.Limits{MaxCallMemory: 1 << 20}, want: "string.upper: memory limit exceeded: this call would allocate more than 1MiB"},
	{name: "upper of invalid UTF-8 keeps its size", body: `return hook.respond(#string.upper(string.rep("\255", 16 * 1024 * 1024)))`,
		check: wantResult(int64(16 << 20))},
	{name: "lower of invalid UTF-8 keeps its size", body: `return hook.respond(#s:lower())`,
		payload: map[string]any{"s": strings.Repeat("\xffA", 1<<20)}, check: wantResult(int64(2 << 20))},
	{name: "string.format %q of NULs past the string limit", body: `return string.format("%q", ("\0"):rep(8 * 1024 * 1024 - 100))`,
		want: "string.format: the result would be"},
	{name: "string.format %q of NULs charged exactly", body: `
		local t = {}
		for i = 1, 4 do t[i] = string.format("%q", s) end`, payload: map[string]any{"s": strings.Repeat("\x00", 64<<10)},
		limits: scripting.Limits{MaxCallMemory: 1 << 20}, want: "string.format: memory limit exceeded"},
	{name: "os.date of a long format", body: `return os.date(string.rep("%c", 1e6))`, want: "os.date: the result would be"},
	{name: "os.date still formats", body: `return hook.respond(os.date("!%Y-%m-%d", 0))`, check: wantResult("1970-01-01")},
	{name: "a table index far past the end", body: `local t = {} t[6e7] = 1`, want: "table index: memory limit exceeded"},
	{name: "a constructor key far past the end", body: `local k = 6e7 local t = {[k] = 1}`, want: "table index: memory limit exceeded"},
	{name: "table.sort with a comparator that never returns", body: `
		local t = {}
		for i = 1, 1000 do t[i] = i end
		table.sort(t, function(a, b) while true do end end)`, timeout: 200 * time.Millisecond, want: "timed out"},
	{name: "table.sort of 50,000 numbers", body: `
		local t = {}
		for i = 1, 50000 do t[i] = (i * 7919) % 50000 end
		table.sort(t)
		return hook.respond({t[1], t[50000]})`, check: wantResult([]any{int64(0), int64(49999)})},
	{name: "table.insert out of bounds", body: `local t = {} table.insert(t, 6e7, 1)`, want: "position 60000000 out of bounds"},
	{name: "gmatch of the empty pattern over 128 MiB", body: `
		local n = 0
		for m in s:gmatch("") do n = n + 1 end
		return hook.respond(n)`, payload: map[string]any{"s": strings.Repeat("x", 128<<20)},
		timeout: 300 * time.Millisecond, want: "timed out"},
	{name: "gsub of every byte of 128 MiB", body: `return (s:gsub(".", "yy"))`,
		payload: map[string]any{"s": strings.Repeat("x", 128<<20)}, timeout: 300 * time.Millisecond, want: "timed out"},
	{name: "gsub past the string limit", body: `return (s:gsub("x", ("y"):rep(300)))`,
		payload: map[string]any{"s": strings.Repeat("x", 64<<10)}, want: "string.gsub: result would exceed"},
	{name: "a pattern that backtracks for hours", body: `return s:find("a*a*a*a*a*c")`,
		payload: map[string]any{"s": strings.Repeat("a", 5000)}, timeout: 200 * time.Millisecond, want: "timed out"},
	{name: "gsub with a backtracking pattern", body: `return (s:gsub(".-.-.-b", "x"))`,
		payload: map[string]any{"s": strings.Repeat("a", 3000)}, timeout: 200 * time.Millisecond, want: "timed out"},
	{name: "a pattern nested past the matcher's depth", body: `return ("a"):rep(300):match(("a?"):rep(300))`,
		want: "pattern too complex"},
	{name: "a returned value sharing sub-tables", body: `
		local t = {}
		for i = 1, 40 do t = {t, t} end
		return hook.modify({x = t})`, want: "memory limit exceeded: this call would allocate more than 64MiB"},
	{name: "json.encode of a value sharing sub-tables", body: `
		local json = require("json")
		local t = {}
		for i = 1, 40 do t = {t, t} end
		return hook.respond(#json.encode(t))`, want: "json.encode: argument 1 (value): [1]×21"},
	{name: "a returned value nested too deep", body: `
		local t = {}
		for i = 1, 600 do t = {t} end
		return hook.respond(t)`, want: "nests deeper than"},
	{name: "a returned cycle", body: `local t = {} t.self = t return hook.respond(t)`, want: "contains itself"},
	{name: "setmetatable on a number", body: `setmetatable(1, {__index = {secret = "x"}})`, want: "table expected"},
	{name: "an endless __concat", body: `
		local mt = {}
		mt.__concat = function(a, b) while true do end end
		return "x" .. setmetatable({}, mt)`, timeout: 200 * time.Millisecond, want: "timed out"},
	{name: "__concat works", body: `
		local mt = {__concat = function(a, b) return "meta" end}
		return hook.respond("x" .. setmetatable({}, mt) .. "y")`, check: wantResult("xmeta")},
	{name: "concatenation of nil", body: `return "x" .. nil`, want: "cannot perform concat operation between"},
	{name: "an integer above 2^53 survives a round trip", body: `return hook.modify({n = n})`,
		payload: map[string]any{"n": map[string]any{"big": int64(1<<60 + 1), "neg": int64(-(1<<62 + 3))}},
		check:   wantResult(nil)},
}

func wantResult(want any) func(t *testing.T, out any) {
	return func(t *testing.T, out any) {
		t.Helper()
		m, _ := scripting.AsNeutral(out).(map[string]any)
		if want == nil { // the modify case: the payload's n, exactly
			got := m["fields"].(map[string]any)["n"].(map[string]any)
			if got["big"] != int64(1<<60+1) || got["neg"] != int64(-(1<<62+3)) {
				t.Errorf("got %#v, want the payload's integers unchanged", got)
			}
			return
		}
		if fmt.Sprint(m["result"]) != fmt.Sprint(want) {
			t.Errorf("got %#v, want %#v", m["result"], want)
		}
	}
}

func TestHostile(t *testing.T) {
	if os.Getenv(hostileChildEnv) == "" {
		runCapped(t, "TestHostile")
		return
	}
	capMemory()
	baseGoroutines = runtime.NumGoroutine() + 1 // the subtest's goroutine
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) { runHostile(t, tc) })
	}
}

func runHostile(t *testing.T, tc hostileCase) {
	src := fmt.Sprintf("hook.on(\"e\", function(s, n)\n%s\nend, { name = \"h\" })\n", tc.body)
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "hostile.lua", Code: []byte(src)},
		&scripting.Env{Modules: std.Modules(std.Options{}), Limits: tc.limits})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	timeout := tc.timeout
	if timeout == 0 {
		timeout = 10 * time.Second // generous: the race detector makes big strings slow
		if tc.want == "" {
			// A case that must succeed only tests its answer: on a loaded
			// machine under -race, 200,000 concatenations took 8 s.
			timeout = time.Minute
		}
	}
	payload := tc.payload
	if payload == nil {
		payload = map[string]any{}
	}
	start := time.Now()
	out, err := callWithDeadline(p.Hooks()[0].Func, payload, timeout)
	if took := time.Since(start); took > timeout+hostileSlack {
		t.Errorf("took %v, deadline %v", took, timeout)
	}
	deadlineFirst := false
	switch {
	case tc.want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case tc.want == "":
		if tc.check != nil {
			tc.check(t, out)
		}
	case err == nil:
		t.Fatalf("no error, want one containing %q (got %v)", tc.want, out)
	case tc.timeout == 0 && errors.Is(err, scripting.ErrInterrupted) && !strings.Contains(tc.want, "timed out"):
		// A case that wants a limit error runs under the default deadline,
		// and on a loaded machine under the race detector the deadline can
		// come before the budget: both are correct bounds, and the call was
		// still contained (it did not succeed).
		t.Logf("the deadline came before %q: %v", tc.want, err)
		deadlineFirst = true
	case !strings.Contains(err.Error(), tc.want):
		t.Fatalf("error %q does not contain %q", err, tc.want)
	}
	settled(t)
	var se *scripting.Error
	if err != nil && (!errors.As(err, &se) || se.Hook != "hostile.lua:h") {
		t.Errorf("error %v does not name the hook", err)
	}
	if strings.Contains(tc.want, "memory limit") && !deadlineFirst && !errors.Is(err, scripting.ErrMemoryLimit) {
		t.Errorf("error %v does not unwrap to ErrMemoryLimit", err)
	}
}

// settled fails when goroutines the call started (guarded matches) are
// still running hostileSlack after it came back: abandoned work must
// stop.
func settled(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(hostileSlack); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if runtime.NumGoroutine() <= baseGoroutines {
			return
		}
	}
	t.Errorf("%d goroutines still run after the call (want at most %d)", runtime.NumGoroutine(), baseGoroutines)
}

// baseGoroutines is what the capped child runs besides a call: the test
// runner's, the test's own and the memory sampler.
var baseGoroutines int

// resultDeadline is the deadline of calls whose test is about their
// result, not their deadline: it is far from what they take (a few
// milliseconds) because a loaded machine under -race can stall even a
// short call past a second, and only a failure reaches it.
const resultDeadline = time.Minute

// callWithDeadline calls fn as the host does: a timer stands in for the
// host's watchdog.
func callWithDeadline(fn scripting.Function, payload map[string]any, timeout time.Duration) (any, error) {
	c := &scripting.Call{Payload: payload, Event: "e", Hook: "hostile.lua:h", Config: map[string]any{},
		Timeout: timeout, Deadline: time.Now().Add(timeout)}
	timer := time.AfterFunc(timeout, c.Interrupt)
	defer timer.Stop()
	return fn.Call(c)
}

const hostileChildEnv = "HOOKHOST_LUA_CAPPED_CHILD"

// runCapped runs the named test in a child process of this test binary,
// which caps its memory (capMemory), and fails with its output if it
// fails.
func runCapped(t *testing.T, name string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), hostileChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("child output:\n%s", out)
	if err != nil {
		t.Fatalf("the capped child failed: %v", err)
	}
}

// The capped child's bounds: its heap, sampled every few milliseconds
// (which catches growth), and, when the race detector (which reserves
// terabytes of shadow memory) is off, its address space (which catches
// one huge allocation between two samples; a Go test binary reserves a
// few GiB of address space it never touches, hence the margin).
const (
	heapCap         = 2 << 30
	addressSpaceCap = 10 << 30
)

func capMemory() {
	if !raceEnabled {
		lim := &syscall.Rlimit{Cur: addressSpaceCap, Max: addressSpaceCap}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, lim); err != nil {
			fmt.Fprintln(os.Stderr, "capping the address space:", err)
			os.Exit(3)
		}
	}
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for range time.Tick(5 * time.Millisecond) {
			metrics.Read(sample)
			if heap := sample[0].Value.Uint64(); heap > heapCap {
				fmt.Fprintf(os.Stderr, "the heap reached %d bytes: a hostile case is not bounded\n", heap)
				os.Exit(3)
			}
		}
	}()
}
