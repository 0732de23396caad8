package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runAgentCmd runs "hookhost DIALECT args..." with stdin and env, and
// returns stdout, stderr and the exit status.
func runAgentCmd(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("hookhost", args...)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "HOOKHOST_EVENT_CACHE=off")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

const webSearchEvent = `{"session_id":"sess-1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"WebSearch",` +
	`"tool_input":{"query":"hookhost"},"tool_use_id":"toolu_1"}`

// TestServerAutoKeepsState: the shipped web-search limit (5 a minute per
// session) holds across ten separate hookhost claude processes, because
// --server auto fires them all through one server it starts itself.
func TestServerAutoKeepsState(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	runtime := privateTempDir(t)
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=20s"}
	t.Cleanup(func() { stopServersUnder(t, runtime) })
	// The pack alone: the in-process calls below would each compile every
	// shipped pack on the event again.
	dir := copyShipped(t, "web-fetch-limit")
	for i := 1; i <= 10; i++ {
		stdout, stderr, code := runAgentCmd(t, env, webSearchEvent, "claude", "--dir", dir, "--server", "auto")
		if code != 0 || strings.Contains(stderr, "loading the hooks in this process") {
			t.Fatalf("call %d: exit %d, stderr:\n%s", i, code, stderr)
		}
		denied := strings.Contains(stdout, `"permissionDecision":"deny"`) && strings.Contains(stdout, "web search limit of 5 a minute")
		if want := i > 5; denied != want || (!denied && stdout != "") {
			t.Errorf("call %d: %q, want denied=%v", i, stdout, want)
		}
	}
	socks, _ := filepath.Glob(filepath.Join(runtime, "hookhost", "serve-*.sock"))
	if len(socks) != 1 {
		t.Errorf("sockets: %v, want one", socks)
	}
	if st, err := os.Stat(filepath.Join(runtime, "hookhost")); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("socket directory: %v, %v", st, err)
	}
	// Without the server, each process counts from zero: never denied.
	for i := 1; i <= 6; i++ {
		if stdout, _, _ := runAgentCmd(t, nil, webSearchEvent, "claude", "--dir", dir); stdout != "" {
			t.Fatalf("in-process call %d: %q, want no opinion", i, stdout)
		}
	}
}

// TestServerURL: --server fires through a serve on a socket; when it is
// down, the hooks load in this process instead, unless --fail-closed.
func TestServerURL(t *testing.T) {
	dir := t.TempDir()
	hook := `hook.on("tool.execute.pre", function(params) if params.command == "rm -rf /" then return hook.deny("no") end end)`
	if err := writeFile(filepath.Join(dir, "guard.lua"), hook); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(privateTempDir(t), "s.sock")
	event := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	geminiEvent := strings.Replace(event, "PreToolUse", "BeforeTool", 1)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n"

	if err := writeFile(filepath.Join(dir, "broken.lua"), "hook.on("); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, nil, "--dir", dir, "--http", "unix:"+sock)
	stdout, stderr, code := runAgentCmd(t, nil, event, "claude", "--dir", dir, "--server", "unix:"+sock)
	if stdout != want || code != 0 || !strings.HasPrefix(stderr, "broken.lua:1: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("through the server: %q %q exit %d, want the answer and the server's load problem", stdout, stderr, code)
	}
	stdout, _, _ = runAgentCmd(t, nil, geminiEvent, "gemini", "--dir", dir, "--server", "unix:"+sock)
	if stdout != `{"decision":"deny","reason":"no"}`+"\n" {
		t.Errorf("gemini through the server: %q", stdout)
	}
	pico := startPicoclaw(t, dir, "--server", "unix:"+sock)
	pico.hello()
	rmRoot := toolCall("bash", map[string]any{"command": "rm -rf /"})
	if a := pico.call("hook.before_tool", rmRoot); jsonOf(a.Result) != `{"action":"deny_tool","reason":"no"}` {
		t.Errorf("picoclaw through the server: %s", a.raw)
	}
	// From here the hooks load in this process, where a file with no good
	// version would block every guard event: the fallback's answer needs
	// the broken file gone.
	if err := os.Remove(filepath.Join(dir, "broken.lua")); err != nil {
		t.Fatal(err)
	}
	s.kill()
	if a := pico.call("hook.before_tool", rmRoot); jsonOf(a.Result) != `{"action":"deny_tool","reason":"no"}` {
		t.Errorf("picoclaw, server down: %s, want the in-process answer", a.raw)
	}
	if err := pico.closeAndWait(); err != nil {
		t.Errorf("picoclaw exit: %v", err)
	}
	if !strings.Contains(pico.stderr.String(), "loading the hooks in this process") {
		t.Errorf("picoclaw did not note the fallback:\n%s", pico.stderr)
	}

	stdout, stderr, code = runAgentCmd(t, nil, event, "claude", "--dir", dir, "--server", "unix:"+sock)
	if stdout != want || code != 0 || !strings.Contains(stderr, "loading the hooks in this process") {
		t.Errorf("server down: %q %q exit %d, want the in-process answer and a note", stdout, stderr, code)
	}
	stdout, stderr, code = runAgentCmd(t, nil, geminiEvent, "gemini", "--dir", dir, "--server", "unix:"+sock)
	if stdout != `{"decision":"deny","reason":"no"}`+"\n" || stderr != "" || code != 0 {
		t.Errorf("gemini, server down: %q %q exit %d, want an answer and nothing on stderr", stdout, stderr, code)
	}
	stdout, stderr, code = runAgentCmd(t, nil, event, "claude", "--dir", dir, "--server", "unix:"+sock, "--fail-closed")
	if stdout != want || code != 0 || !strings.Contains(stderr, "no hookhost server answers") {
		t.Errorf("server down, --fail-closed (which changes nothing): %q %q exit %d, want the in-process answer", stdout, stderr, code)
	}
	if _, stderr, code := runAgentCmd(t, nil, event, "claude", "--server", "ftp://x"); code != 2 || !strings.Contains(stderr, "want http://HOST:PORT") {
		t.Errorf("a bad --server: %q exit %d", stderr, code)
	}
}

// privateTempDir is a temporary directory with mode 0700 and a short
// path (a socket path has at most 108 bytes).
func privateTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// stopServersUnder ends the servers --server auto started under dir (it
// detaches them: they are found by their command line) and waits for
// them to exit.
func stopServersUnder(t testing.TB, dir string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(data, []byte("unix:"+dir+"/")) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if err != nil {
			continue
		}
		proc, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		proc.Signal(os.Interrupt)
		for i := 0; i < 3000 && proc.Signal(syscallZero) == nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// syscallZero is the null signal: it checks that a process still exists.
var syscallZero = syscall.Signal(0)

// hangingServer listens on a Unix socket, accepts every connection,
// reads what is sent and never answers, until the test ends.
func hangingServer(t *testing.T) string {
	t.Helper()
	sock := filepath.Join(privateTempDir(t), "hang.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				go io.Copy(io.Discard, conn)
				<-done
			}()
		}
	}()
	t.Cleanup(func() { close(done); ln.Close() })
	return sock
}

// TestServerThatHangs: a server that accepts and never answers is given
// --server-timeout, then counts as unavailable — the hooks are loaded in
// this process, or with --fail-closed the command hook fails closed —
// rather than leaving the agent to kill the hook at its own timeout.
func TestServerThatHangs(t *testing.T) {
	dir := t.TempDir()
	hook := `hook.on("tool.execute.pre", function(params) if params.command == "rm -rf /" then return hook.deny("no") end end)`
	if err := writeFile(filepath.Join(dir, "guard.lua"), hook); err != nil {
		t.Fatal(err)
	}
	sock := hangingServer(t)
	event := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n"

	stdout, stderr, code := runAgentCmd(t, nil, event, "claude", "--dir", dir, "--server", "unix:"+sock, "--server-timeout", "300ms")
	if stdout != want || code != 0 || !strings.Contains(stderr, "did not answer in time within 300ms") ||
		!strings.Contains(stderr, "loading the hooks in this process") {
		t.Errorf("hanging server: %q %q exit %d, want the in-process answer and a note", stdout, stderr, code)
	}
	stdout, stderr, code = runAgentCmd(t, []string{"HOOKHOST_SERVER_TIMEOUT=200ms"}, event,
		"claude", "--dir", dir, "--server", "unix:"+sock, "--fail-closed")
	if stdout != want || code != 0 || !strings.Contains(stderr, "did not answer in time") {
		t.Errorf("hanging server, --fail-closed (which changes nothing): %q %q exit %d, want the in-process answer", stdout, stderr, code)
	}
	if _, stderr, code := runAgentCmd(t, nil, event, "claude", "--server", "unix:"+sock, "--server-timeout", "0s"); code != 1 ||
		!strings.Contains(stderr, "--server-timeout 0s: want a positive duration") {
		t.Errorf("--server-timeout 0s: %q exit %d", stderr, code)
	}
}
