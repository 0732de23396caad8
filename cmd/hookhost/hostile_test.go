package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The end-to-end hostile suite: each hostile hook of the issue, in both
// languages, beside a lower-priority hook that must still run, fired
// through the real binary with "hookhost fire --json" under an address
// space of 4 GiB and a minute of CPU (prlimit, or ulimit where prlimit is
// missing), so that a regression cannot take the shared machine down.
// Whatever the hostile hook does, hookhost answers with one JSON object
// having used no more CPU time than the hook's deadline plus a generous
// slack, exits 0, and the lower hook's decision is in the trace. CPU time
// is what is bounded, not wall time, because load does not stretch it: a
// hook the deadline fails to stop spins on until the bound, while on a
// machine busy with other builds a run that stops it in time can still
// take many seconds of wall time.

// hostileSlack is the CPU time the process may use beyond the hostile
// hook's deadline: starting, loading, the lower hook, printing.
const hostileSlack = 6 * time.Second

// hostileHang is the wall time a run may take beyond its CPU bound
// before it counts as hung (a hook blocked without spinning); only a hang
// ever waits for it.
const hostileHang = time.Minute

// hostileDeadline is the hostile hooks' timeout.
const hostileDeadline = time.Second

// memoryCap and cpuCap bound every process the suite starts.
const (
	memoryCap = 4 << 30
	cpuCap    = 60 // seconds
)

// A hostileCase is one hostile hook.
type hostileCase struct {
	name string
	file string // the hook file's name: its extension picks the language
	code string // registers the hook "bomb" on tool.execute.pre at priority 10
	// stdin is the payload, when the case needs a large one.
	stdin []byte
	// isolated runs the file with isolation: process.
	isolated bool
	// wantError, when set, is part of the hostile hook's error.
	wantError string
	// orTimeout accepts the hook's own timeout instead of wantError: for
	// a bomb stopped by a meter that counts as the script goes (element by
	// element, or operation by operation), which on a loaded machine may
	// reach the deadline before the budget. Either way the host stopped
	// the hook with an error, answered and did not crash; a broken meter
	// still fails the run, which then passes the address space cap or the
	// CPU bound.
	orTimeout bool
}

// lowHook is the lower-priority hook that must run after every hostile
// one.
const lowHook = `hook.on("tool.execute.pre", function() return hook.message("low ran") end, { name = "low", priority = -10 })`

func luaBomb(body string) string {
	return "hook.on(\"tool.execute.pre\", function()\n" + body + "\nend, { name = \"bomb\", priority = 10, timeout = \"1s\" })\n"
}

func starBomb(body string) string {
	return "def bomb():\n" + indent(body) + "\nhook.on(\"tool.execute.pre\", bomb, priority = 10, timeout = \"1s\")\n"
}

func indent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

// starBig is a string of 1 MiB, within the per-call budget.
const starBig = `big = "x" * (1 << 20)`

// sharedLua and sharedStar build a value of 2^40 leaves in 40 steps.
const (
	sharedLua  = "local t = {}\nfor i = 1, 40 do t = { t, t } end"
	sharedStar = "t = []\nfor _ in range(40):\n    t = [t, t]"
)

func hostileCases() []hostileCase {
	wide := map[string]any{}
	for i := range 120_000 {
		wide[fmt.Sprintf("field_%06d", i)] = i
	}
	widePayload, _ := json.Marshal(wide)
	digitsPayload, _ := json.Marshal(map[string]any{"s": strings.Repeat("7", 2<<20)})
	return []hostileCase{
		{name: "lua unpack 1e8", file: "bomb.lua", code: luaBomb(`return hook.message(tostring(select("#", unpack({}, 1, 1e8))))`)},
		{name: "lua table.concat of 200000 strings", file: "bomb.lua", code: luaBomb(`
local t = {}
for i = 1, 200000 do t[i] = "x" end
return hook.message(tostring(#table.concat(t)))`)},
		{name: "lua string.byte of 1 MiB", file: "bomb.lua", code: luaBomb(`
local s = string.rep("x", 1024 * 1024)
return hook.message(tostring(select("#", string.byte(s, 1, -1))))`)},
		{name: "lua s = s .. s", file: "bomb.lua", code: luaBomb(`
local s = "x"
for i = 1, 64 do s = s .. s end`)},
		{name: "lua table.concat of 300 x 16 MiB", file: "bomb.lua", code: luaBomb(`
local big = string.rep("x", 16 * 1024 * 1024)
local t = {}
for i = 1, 300 do t[i] = big end
return hook.message(tostring(#table.concat(t)))`)},
		{name: "lua string.format huge widths", file: "bomb.lua", code: luaBomb(`
local parts = {}
for i = 1, 1000 do parts[i] = string.format("%99d", i) end
return hook.message(string.format("%999999999d", 1))`)},
		{name: "lua gmatch of the empty pattern over 16 MiB", file: "bomb.lua", code: luaBomb(`
local s = string.rep("x", 16 * 1024 * 1024)
local n = 0
for m in s:gmatch("") do n = n + 1 end
return hook.message(tostring(n))`)},
		{name: "lua shared sub-tables returned", file: "bomb.lua", code: luaBomb(sharedLua + "\nreturn hook.modify({ v = t })")},
		{name: "lua json.encode of shared sub-tables", file: "bomb.lua", code: "local json = require(\"json\")\n" +
			luaBomb(sharedLua+"\nreturn hook.message(json.encode(t))")},
		{name: "star min(range(1 << 62))", file: "bomb.star", code: starBomb(`return hook.message(str(min(range(1 << 62))))`)},
		{name: "star sorted(range(1 << 25))", file: "bomb.star", code: starBomb(`return hook.message(str(len(sorted(range(1 << 25)))))`)},
		{name: "star str of a 300000-deep list", file: "bomb.star", code: starBomb(`
x = []
for _ in range(300000):
    x = [x]
return hook.message(str(x)[:10])`)},
		// One operation of gigabytes: refused in process before it
		// allocates, and isolated too.
		{name: "star [0] * (1 << 28)", file: "bomb.star", wantError: "list * int: 268435456 elements: memory limit exceeded",
			code: starBomb(`return hook.message(str(len([0] * (1 << 28))))`)},
		{name: "star [0] * (1 << 28), isolated", file: "bomb.star", isolated: true, wantError: "memory limit exceeded",
			code: starBomb(`return hook.message(str(len([0] * (1 << 28))))`)},
		{name: "star s * n", file: "bomb.star", wantError: "string * int: 536870912 bytes: memory limit exceeded",
			code: starBomb("s = \"x\" * 1024\nreturn hook.message(str(len(s * (1 << 19))))")},
		{name: "star join of one string many times", file: "bomb.star", wantError: "join: 4294967296 bytes: memory limit exceeded",
			code: starBomb(starBig + "\nreturn hook.message(str(len(\"\".join([big] * 4096))))")},
		{name: "star join with a long separator", file: "bomb.star", wantError: "join: 4293918720 bytes: memory limit exceeded",
			code: starBomb(starBig + "\nreturn hook.message(str(len(big.join([\"\"] * 4096))))")},
		{name: "star replace", file: "bomb.star", wantError: "replace: 4294967296 bytes: memory limit exceeded",
			code: starBomb(starBig + "\nreturn hook.message(str(len((\"a\" * 4096).replace(\"a\", big))))")},
		{name: "star format of a repeated field", file: "bomb.star", wantError: "format: 4294979584 bytes: memory limit exceeded",
			code: starBomb(starBig + "\nreturn hook.message(str(len((\"{0}\" * 4096).format(big))))")},
		{name: "star % of a repeated key", file: "bomb.star", wantError: "str % dict: 4294987776 bytes: memory limit exceeded",
			code: starBomb(starBig + "\nreturn hook.message(str(len((\"%(a)s\" * 4096) % {\"a\": big})))")},
		{name: "star list(range(1 << 30))", file: "bomb.star", code: starBomb(`return hook.message(str(len(list(range(1 << 30)))))`)},
		{name: "star s + s doubling", file: "bomb.star", wantError: "str + str: 67108864 bytes: memory limit exceeded", orTimeout: true, code: starBomb(`
s = "x"
for _ in range(64):
    s = s + s
return hook.message(str(len(s)))`)},
		{name: "star shared sub-lists returned", file: "bomb.star", code: starBomb(sharedStar + "\nreturn hook.modify({\"v\": t})")},
		{name: "star json.encode of shared sub-lists", file: "bomb.star", code: "load(\"json\", \"json\")\n" +
			starBomb(sharedStar+"\nreturn hook.message(json.encode(t))")},
		{name: "lua re.match of a pattern the NFA steps entirely per byte", file: "bomb.lua", wantError: "timed out after 1s",
			code: "local re = require(\"re\")\n" + luaBomb(`return hook.message(tostring(re.match(string.rep("(a*)*", 100) .. "b", string.rep("a", 4000000))))`)},
		{name: "star re.match of a pattern the NFA steps entirely per byte", file: "bomb.star", wantError: "timed out after 1s",
			code: "load(\"re\", \"re\")\n" + starBomb(`return hook.message(str(re.match("(a*)*" * 100 + "b", "a" * 4000000)))`)},
		{name: "lua re.find_all searching again after each match", file: "bomb.lua", wantError: "timed out after 1s",
			code: "local re = require(\"re\")\n" + luaBomb(`return hook.message(tostring(#re.find_all("a*b|a", string.rep("a", 4000000))))`)},
		{name: "star re.split searching again after each match", file: "bomb.star", wantError: "timed out after 1s",
			code: "load(\"re\", \"re\")\n" + starBomb(`return hook.message(str(len(re.split("a*b|a", "a" * 4000000))))`)},
		{name: "star **kwargs of a 120000-field payload", file: "bomb.star", stdin: widePayload,
			code: "def bomb(**kw):\n    return hook.message(str(len(kw)))\n\nhook.on(\"tool.execute.pre\", bomb, priority = 10, timeout = \"1s\")\n"},
		{name: "lua vararg of a 120000-field payload", file: "bomb.lua", stdin: widePayload,
			code: "hook.on(\"tool.execute.pre\", function(...) local n = 0 for _ in pairs((...)) do n = n + 1 end return hook.message(tostring(n)) end, { name = \"bomb\", priority = 10, timeout = \"1s\" })\n"},
		{name: "star l.extend of a global range(1 << 40)", file: "bomb.star", wantError: "iterating range: memory limit exceeded", orTimeout: true,
			code: "R = range(1 << 40)\n" + starBomb("l = []\nl.extend(R)\nreturn hook.message(str(len(l)))")},
		{name: "star int of a payload field of 2 MB of digits", file: "bomb.star", stdin: digitsPayload, wantError: "exceeds the limit (4300 digits) for integer string conversion",
			code: "def bomb(s):\n    return hook.message(str(int(s) % 7))\n\nhook.on(\"tool.execute.pre\", bomb, priority = 10, timeout = \"1s\")\n"},
		{name: "lua tonumber of a payload field of 2 MB of digits", file: "bomb.lua", stdin: digitsPayload,
			code: "hook.on(\"tool.execute.pre\", function(s) return hook.message(tostring(tonumber(s))) end, { name = \"bomb\", priority = 10, timeout = \"1s\" })\n"},
		{name: "star str of an int of 16 million bits", file: "bomb.star", wantError: "more than the limit of 262144",
			code: starBomb(`x = int("f" * 4000000, 16)` + "\nreturn hook.modify({\"params\": {\"n\": x, \"s\": str(x)}})")},
	}
}

// TestHostile runs every hostile case through the binary, in process,
// then the memory bombs in process and isolated, then serve's SIGTERM.
func TestHostile(t *testing.T) {
	bin := builtHookhost(t)
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each case is a process of its own, bounded in CPU time, not wall time
			root := t.TempDir()
			dir := filepath.Join(root, "hooks.d")
			writeFiles(t, dir, map[string]string{c.file: c.code, "low.lua": lowHook})
			args := []string{"fire", "--dir", dir, "tool.execute.pre", "-", "--json"}
			if c.isolated {
				writeFiles(t, root, map[string]string{"hookhost.yaml": "hooks:\n  " + c.file + ": { isolation: process }\n"})
				args = append(args, "--config", filepath.Join(root, "hookhost.yaml"))
			}
			out := runBounded(t, bin, hostileDeadline+hostileSlack, c.stdin, args...)
			bomb := checkFireAnswer(t, out)
			if e, _ := bomb["error"].(string); c.wantError != "" && !strings.Contains(e, c.wantError) &&
				!(c.orTimeout && strings.Contains(e, "timed out after")) {
				t.Errorf("the bomb's error %q does not say %q", e, c.wantError)
			}
		})
	}
}

// A fireAnswer is what one bounded run of hookhost gave.
type fireAnswer struct {
	stdout, stderr []byte
	exit           int
	maxRSS         int64 // bytes
	elapsed        time.Duration
	cpu            time.Duration // user and system, the process's and its waited-for children's
}

// checkFireAnswer checks the contract: exit 0, exactly one JSON object,
// the bomb's entry and the lower hook's decision in the trace.
func checkFireAnswer(t *testing.T, out fireAnswer) map[string]any {
	t.Helper()
	if out.exit != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", out.exit, tailOf(out.stderr))
	}
	dec := json.NewDecoder(bytes.NewReader(out.stdout))
	var res map[string]any
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, tailOf(out.stdout))
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON object:\n%s", tailOf(out.stdout))
	}
	trace, _ := res["trace"].([]any)
	var bomb, low map[string]any
	for _, e := range trace {
		m, _ := e.(map[string]any)
		switch m["hook"] {
		case "bomb.lua:bomb", "bomb.star:bomb":
			bomb = m
		case "low.lua:low":
			low = m
		}
	}
	if bomb == nil || low == nil || low["outcome"] != "decision" {
		t.Fatalf("trace %v: want the hostile hook and then the lower hook's decision", trace)
	}
	t.Logf("%s in %v (CPU %v), max RSS %d MiB: %s %.160v", bomb["hook"], out.elapsed.Round(time.Millisecond), out.cpu.Round(time.Millisecond), out.maxRSS>>20, bomb["outcome"], bomb["error"])
	return bomb
}

func tailOf(b []byte) string {
	if len(b) > 2000 {
		return "…" + string(b[len(b)-2000:])
	}
	return string(b)
}

// boundedCommand is argv that runs bin with args under the memory and
// CPU caps: prlimit where it exists, else a shell's ulimit, the command
// passed as arguments, never as shell text.
func boundedCommand(t *testing.T, bin string, args ...string) []string {
	t.Helper()
	if prlimit, err := exec.LookPath("prlimit"); err == nil {
		return append([]string{prlimit, fmt.Sprintf("--as=%d", memoryCap), fmt.Sprintf("--cpu=%d", cpuCap), bin}, args...)
	}
	script := fmt.Sprintf(`ulimit -v %d && ulimit -t %d && exec "$0" "$@"`, memoryCap>>10, cpuCap)
	return append([]string{"/bin/sh", "-c", script, bin}, args...)
}

// runBounded runs hookhost under the caps and fails the test if it used
// more than limit of CPU time, or has not finished within limit plus
// hostileHang of wall time.
func runBounded(t *testing.T, bin string, limit time.Duration, stdin []byte, args ...string) fireAnswer {
	t.Helper()
	argv := boundedCommand(t, bin, args...)
	ctx, cancel := context.WithTimeout(context.Background(), limit+hostileHang)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// WaitDelay is there for a process hookhost leaves behind holding its
	// output (a worker): on a loaded machine, copying what hookhost wrote
	// can itself wait more than a second after it exits, so only a hang
	// waits this long.
	cmd.WaitDelay = hostileHang
	start := time.Now()
	err := cmd.Run()
	out := fireAnswer{stdout: stdout.Bytes(), stderr: stderr.Bytes(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("hookhost did not answer within %v: hung; stderr:\n%s", limit+hostileHang, tailOf(out.stderr))
	}
	out.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if out.cpu > limit {
		t.Fatalf("hookhost used %v of CPU time, more than %v (the hook's deadline plus %v): the deadline did not stop the hook; stderr:\n%s",
			out.cpu.Round(time.Millisecond), limit, hostileSlack, tailOf(out.stderr))
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		out.exit = ee.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay):
		t.Fatalf("hookhost exited, but its output was still open %v later: something it started outlived it", hostileHang)
	case err != nil:
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		out.maxRSS = int64(ru.Maxrss) << 10
	}
	return out
}

// memoryBombs grow the heap step by step through the interpreter (a
// table of small tables, a list of fresh 1 KiB lists, each a repetition
// whose size the source bounds): nothing counts them one by one, so only
// the heap watchdog (in process) or the worker's limits (isolated) stop
// them.
var memoryBombs = map[string]string{
	"bomb.lua": luaBomb(`
local t = {}
for i = 1, 1e9 do t[i] = { i, i, i, i } end`),
	"bomb.star": starBomb(`
x = []
for i in range(1000000000):
    x.append([i] * 64)`),
}

// A memory bomb in process stays near limits.memory: the watchdog stops
// it within a sample or so, and its hook fails with the memory limit.
func TestHostileMemoryInProcess(t *testing.T) {
	bin := builtHookhost(t)
	const limit = 256 << 20
	for file, code := range memoryBombs {
		t.Run(file, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "hooks.d")
			writeFiles(t, dir, map[string]string{file: strings.Replace(code, `timeout = "1s"`, `timeout = "30s"`, 1), "low.lua": lowHook})
			writeFiles(t, root, map[string]string{"hookhost.yaml": "limits: { memory: 256MiB }\n"})
			out := runBounded(t, bin, 30*time.Second+hostileSlack, nil, "fire", "--dir", dir, "--config", filepath.Join(root, "hookhost.yaml"),
				"tool.execute.pre", "--json")
			bomb := checkFireAnswer(t, out)
			if e, _ := bomb["error"].(string); !strings.Contains(e, "memory limit") {
				t.Errorf("the bomb's error %q does not name the memory limit", e)
			}
			// The heap passes the limit by what the interpreter allocates
			// between two samples; the process also holds its code,
			// stacks and the runtime's own memory.
			if out.maxRSS > 2*limit {
				t.Errorf("max RSS %d MiB, want under twice limits.memory (%d MiB)", out.maxRSS>>20, 2*limit>>20)
			}
		})
	}
}

// Isolated, a memory bomb takes down only its worker: the host answers,
// exits 0 and runs the lower hook, and the hook's failure names the
// worker's end. (The max RSS the kernel reports for the host includes its
// workers', so it is not checked here.)
func TestHostileMemoryIsolated(t *testing.T) {
	bin := builtHookhost(t)
	for file, code := range memoryBombs {
		t.Run(file, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "hooks.d")
			writeFiles(t, dir, map[string]string{file: strings.Replace(code, `timeout = "1s"`, `timeout = "30s"`, 1), "low.lua": lowHook})
			writeFiles(t, root, map[string]string{"hookhost.yaml": "limits: { memory: 128MiB }\nhooks:\n  " + file + ": { isolation: process }\n"})
			out := runBounded(t, bin, 30*time.Second+hostileSlack, nil, "fire", "--dir", dir, "--config", filepath.Join(root, "hookhost.yaml"),
				"tool.execute.pre", "--json")
			bomb := checkFireAnswer(t, out)
			if e, _ := bomb["error"].(string); !strings.Contains(e, "isolation: the worker process ended") {
				t.Errorf("the bomb's error %q does not name its worker's end", e)
			}
		})
	}
}

// SIGTERM ends serve whatever a hook is doing: spinning in the
// interpreter, stuck in a builtin, consuming a huge range, or spinning in
// an isolated worker. What is checked is the path serve took, which load
// does not change, not how long it took, which load does: the fire is
// cancelled at the shutdown timeout (1 s here), so serve neither waits
// for the hook's 60 s deadline (it would miss startupLimit) nor closes
// the connection unanswered (it logs "stopping anyway").
func TestHostileServeSIGTERM(t *testing.T) {
	for _, c := range []struct{ name, file, code, config string }{
		{"lua spin", "spin.lua", `hook.on("turn.pre", function() print("spinning") while true do end end, { name = "spin", timeout = "60s" })`, ""},
		{"lua stuck builtin", "spin.lua", `hook.on("turn.pre", function() print("spinning") string.find(string.rep("a", 3000), ".-.-b") end, { name = "spin", timeout = "60s" })`, ""},
		{"star huge range", "spin.star", "def spin():\n    print(\"spinning\")\n    return min(range(1 << 62))\n\nhook.on(\"turn.pre\", spin, timeout = \"60s\")\n", ""},
		{"isolated spin", "spin.lua", `hook.on("turn.pre", function() print("spinning") while true do end end, { name = "spin", timeout = "60s" })`,
			"hooks:\n  spin.lua: { isolation: process }\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each case is a serve of its own
			root := t.TempDir()
			dir := filepath.Join(root, "hooks.d")
			writeFiles(t, dir, map[string]string{c.file: c.code})
			args := []string{"--dir", dir, "--shutdown-timeout", "1s"}
			if c.config != "" {
				writeFiles(t, root, map[string]string{"hookhost.yaml": c.config})
				args = append(args, "--config", filepath.Join(root, "hookhost.yaml"))
			}
			s := startServe(t, nil, args...)
			s.fireInBackground("turn.pre", `{"prompt":"x"}`)
			s.waitLog("spinning")
			start := time.Now()
			s.signal(syscall.SIGTERM)
			if code := s.wait(); code != 0 {
				t.Errorf("exit %d after SIGTERM, want 0:\n%s", code, s.log)
			}
			if strings.Contains(s.log.String(), "stopping anyway") {
				t.Errorf("the fire in flight was not answered once cancelled:\n%s", s.log)
			}
			t.Logf("exited %v after SIGTERM", time.Since(start).Round(time.Millisecond))
		})
	}
}
