package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkCommandHooks runs, in each iteration, one process of each
// command hook an agent may start, alternating, and reports each one's
// median wall clock and CPU time (user + system, from its rusage) and
// their ratios to /bin/true's in the same run (docs/performance.md,
// "The small command hook"):
//
//   - true: /bin/true, the floor;
//   - sh-true: sh -c /bin/true, the floor of a command an agent runs
//     through a shell;
//   - sh-empty-go: sh -c with a Go program that does nothing, the floor
//     of a Go command hook;
//   - hook-auto: sh -c 'hookhost-hook claude --dir hooks.d --server
//     auto', the server already running (what --print-settings --server
//     auto prints when hookhost-hook is installed);
//   - full-auto: the same line with hookhost itself (what it printed
//     before);
//   - shipped: hookhost claude --dir hooks.d, in process, the event
//     cache warm;
//   - trivial20: hookhost claude in process on 20 small guard hooks, 10
//     Lua and 10 Starlark, spread over five events;
//   - version: hookhost --version, the full binary's own start.
//
// Every process answers a Claude Code PreToolUse for Bash "ls".
// HOOKHOST_BENCH_DIR names the directory of a hookhost and hookhost-hook
// to measure instead of the ones TestMain builds.
func BenchmarkCommandHooks(b *testing.B) {
	bins := binDir
	if d := os.Getenv("HOOKHOST_BENCH_DIR"); d != "" {
		bins = d
	}
	hook, full := filepath.Join(bins, "hookhost-hook"), filepath.Join(bins, "hookhost")
	shippedDir, err := filepath.Abs(filepath.Join("..", "..", "hooks.d"))
	if err != nil {
		b.Fatal(err)
	}
	runtime, err := os.MkdirTemp("", "hhb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(runtime)
	os.Chmod(runtime, 0o700)
	b.Setenv("XDG_RUNTIME_DIR", runtime)
	b.Setenv("HOOKHOST_AUTO_IDLE_EXIT", "2m")
	b.Setenv("HOOKHOST_EVENT_CACHE", filepath.Join(runtime, "events.json"))
	b.Setenv(fullEnv, full)
	defer stopServersTB(runtime)
	trivial := trivialHooks(b)
	event := []byte(`{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/proj",` +
		`"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"toolu_01"}`)
	cmds := []struct {
		name string
		argv []string
	}{
		{"true", []string{"/bin/true"}},
		{"sh-true", []string{"/bin/sh", "-c", "/bin/true"}},
		{"sh-empty-go", []string{"/bin/sh", "-c", emptyGo(b)}},
		{"hook-auto", []string{"/bin/sh", "-c", hook + " claude --dir " + shippedDir + " --server auto"}},
		{"full-auto", []string{"/bin/sh", "-c", full + " claude --dir " + shippedDir + " --server auto"}},
		{"shipped", []string{full, "claude", "--dir", shippedDir}},
		{"trivial20", []string{full, "claude", "--dir", trivial}},
		{"version", []string{full, "--version"}},
	}
	for _, c := range cmds { // start the server, warm the caches
		runTimed(b, event, c.argv)
	}
	wall := make([][]time.Duration, len(cmds))
	cpu := make([][]time.Duration, len(cmds))
	for b.Loop() {
		for i, c := range cmds {
			w, u := runTimed(b, event, c.argv)
			wall[i], cpu[i] = append(wall[i], w), append(cpu[i], u)
		}
	}
	trueWall, trueCPU := median(wall[0]), median(cpu[0])
	for i, c := range cmds {
		w, u := median(wall[i]), median(cpu[i])
		b.ReportMetric(float64(w.Nanoseconds())/1e6, c.name+"-wall-ms")
		b.ReportMetric(float64(u.Nanoseconds())/1e6, c.name+"-cpu-ms")
		if i > 0 {
			b.ReportMetric(float64(w)/float64(trueWall), c.name+"-wall-x")
			b.ReportMetric(float64(u)/float64(trueCPU), c.name+"-cpu-x")
		}
	}
}

// runTimed runs argv on stdin and returns its wall clock and CPU time.
func runTimed(b *testing.B, stdin []byte, argv []string) (time.Duration, time.Duration) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, stderr.Bytes())
	}
	wall := time.Since(start)
	if stderr.Len() > 0 {
		b.Fatalf("%v wrote to stderr:\n%s", argv, stderr.Bytes())
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// trivialHooks writes 10 Lua and 10 Starlark files of one small guard
// hook each, spread over five events (four on tool.execute.pre).
func trivialHooks(b *testing.B) string {
	dir := b.TempDir()
	events := []string{"tool.execute.pre", "tool.execute.post", "turn.pre", "session.start", "tool.approve"}
	for i := range 10 {
		ev := events[i%len(events)]
		lua := fmt.Sprintf(`hook.on(%q, function(tool_name, params)
  if ((params or {}).command or ""):find("rm -rf /", 1, true) then return hook.deny("rule %d") end
end)
`, ev, i)
		star := fmt.Sprintf(`def rule(tool_name, params = {}):
    if "rm -rf /" in (params or {}).get("command", ""):
        return hook.deny("rule %d")

hook.on(%q, rule)
`, i, ev)
		for name, src := range map[string]string{fmt.Sprintf("r%02d.lua", i): lua, fmt.Sprintf("r%02d.star", i): star} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}

// emptyGo builds a Go program that does nothing, statically linked.
func emptyGo(b *testing.B) string {
	dir := b.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "empty")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
