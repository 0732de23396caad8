package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The command-hook start-up benchmarks run the real binary (go build),
// not the test binary, once per iteration, against /bin/true in the same
// run: a command hook starts for every tool call, so from process start
// to answer is the cost that matters. Report with benchstat medians
// (docs/performance.md, "Command-hook start-up").

// benchBinaryEnv names a hookhost binary to measure instead of building
// one: runs of two builds (before and after a change) alternated by a
// shell loop compare them under the same load (docs/performance.md).
const benchBinaryEnv = "HOOKHOST_BENCH_BINARY"

// documentedTags are the build tags of the hookhost that agents start
// (README): urfave_cli_no_docs leaves out the command-line library's
// documentation generator, netgo Go's cgo DNS resolver, so that the
// binary is static (TestDocumentedBuildIsStatic) and its start pays no
// dynamic loader. docs/performance.md, "Start-up", says what each costs.
const documentedTags = "urfave_cli_no_docs,netgo"

// benchBinary is the hookhost the benchmarks measure: $HOOKHOST_BENCH_BINARY,
// or the one built for the tests (builtHookhost), as the README builds it.
func benchBinary(b *testing.B) string {
	b.Helper()
	if bin := os.Getenv(benchBinaryEnv); bin != "" {
		return bin
	}
	return builtHookhost(b)
}

// benchHooks writes 10 Lua and 10 Starlark files of one hook each: a
// guardrail shaped like the shipped ones, on the events an agent fires.
// With onePre every hook is on tool.execute.pre (the worst case for a
// PreToolUse); otherwise the twenty spread over five events.
func benchHooks(b *testing.B, onePre bool) string {
	b.Helper()
	dir := b.TempDir()
	events := []string{"tool.execute.pre", "tool.execute.post", "turn.pre", "session.start", "tool.approve"}
	for i := range 10 {
		ev := events[i%len(events)]
		if onePre {
			ev = "tool.execute.pre"
		}
		lua := fmt.Sprintf(`local state = require("state")
local BLOCKED = { "rm -rf /", "mkfs", "dd if=/dev/zero", ":(){ :|:& };:" }
hook.on(%q, function(tool_name, params, session_id)
  local cmd = (params or {}).command or ""
  for _, b in ipairs(BLOCKED) do
    if cmd:find(b, 1, true) then
      return hook.deny("blocked " .. b .. " (rule %d)")
    end
  end
  state.incr("calls:" .. tostring(session_id))
end, { name = "rule-%d", priority = %d })
`, ev, i, i, i)
		star := fmt.Sprintf(`load("state", "state")
BLOCKED = ["rm -rf /", "mkfs", "dd if=/dev/zero", ":(){ :|:& };:"]

def rule_%d(tool_name, params = {}, session_id = None):
    cmd = params.get("command", "") if params else ""
    for b in BLOCKED:
        if b in cmd:
            return hook.deny("blocked %%s (rule %d)" %% b)
    state.incr("calls:%%s" %% session_id)

hook.on(%q, rule_%d, priority = %d)
`, i, i, ev, i, i)
		for name, src := range map[string]string{fmt.Sprintf("rule%02d.lua", i): lua, fmt.Sprintf("rule%02d.star", i): star} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}

const benchEvent = `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/proj",` +
	`"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"toolu_01"}`

// runOnce runs the command and returns the CPU time it used (user and
// system): on a shared machine the wall clock also counts the time the
// process waited for a core, the CPU time does not.
func runOnce(b *testing.B, stdin []byte, name string, args ...string) time.Duration {
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// loop runs the command b.N times and reports its CPU time per run
// (cpu-ns/op) beside the wall clock (ns/op).
func loop(b *testing.B, stdin []byte, name string, args ...string) {
	var cpu time.Duration
	for b.Loop() {
		cpu += runOnce(b, stdin, name, args...)
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func BenchmarkSpawnTrue(b *testing.B) {
	loop(b, nil, "/bin/true")
}

func BenchmarkClaudeStartup(b *testing.B) {
	bin := benchBinary(b)
	for _, tc := range []struct {
		name   string
		onePre bool
	}{{"spread", false}, {"all-pre", true}} {
		dir := benchHooks(b, tc.onePre)
		// The event cache is the user's; the benchmark keeps its own, warmed
		// by the first run.
		b.Setenv(eventCacheEnv, filepath.Join(b.TempDir(), "events.txt"))
		b.Run(tc.name, func(b *testing.B) {
			loop(b, []byte(benchEvent), bin, "claude", "--dir", dir)
		})
		b.Run(tc.name+"-nocache", func(b *testing.B) {
			b.Setenv(eventCacheEnv, "off")
			loop(b, []byte(benchEvent), bin, "claude", "--dir", dir)
		})
	}
	b.Run("server-auto", func(b *testing.B) {
		runtime, err := os.MkdirTemp("", "hhb")
		if err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(runtime)
		os.Chmod(runtime, 0o700)
		b.Setenv("XDG_RUNTIME_DIR", runtime)
		b.Setenv("HOOKHOST_AUTO_IDLE_EXIT", "1m")
		defer stopServersUnder(b, runtime)
		dir := benchHooks(b, false)
		runOnce(b, []byte(benchEvent), bin, "claude", "--dir", dir, "--server", "auto") // starts the server
		loop(b, []byte(benchEvent), bin, "claude", "--dir", dir, "--server", "auto")
	})
	b.Run("version", func(b *testing.B) { // the binary's own start: no hooks, no stdin
		loop(b, nil, bin, "--version")
	})
}
