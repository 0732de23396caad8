package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// The tests run the built binaries, hookhost-hook and the full hookhost
// beside it, as an agent runs them: they are built once, by TestMain,
// into a temporary directory.

var binDir string

// installTags are the build tags of the README's install line.
const installTags = "urfave_cli_no_docs,netgo"

func TestMain(m *testing.M) {
	if os.Getenv(impostorEnv) != "" {
		impostor()
		return
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "hookhost-hook-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	// Built as the README installs them.
	for _, b := range []struct{ out, pkg string }{{"hookhost-hook", "."}, {"hookhost", "../hookhost"}} {
		if out, err := exec.Command("go", "build", "-tags", installTags, "-o", filepath.Join(dir, b.out), b.pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", b.pkg, err, out)
			return 1
		}
	}
	return m.Run()
}

// A run is one process's answer.
type run struct {
	stdout, stderr string
	code           int
}

func (r run) String() string {
	return fmt.Sprintf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
}

// runBin runs the binary name of binDir with args, stdin and env added
// to this process's environment.
func runBin(t *testing.T, env []string, stdin, name string, args ...string) run {
	t.Helper()
	return runIn(t, "", env, stdin, name, args...)
}

// privateDir is a temporary directory closed to other users, short
// enough for a socket's path.
func privateDir(t *testing.T) string {
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

// stopServers ends the servers --server auto started under runtime.
func stopServers(t *testing.T, runtime string) { stopServersTB(runtime) }

func stopServersTB(runtime string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(data, []byte("unix:"+runtime+"/")) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}

func shipped(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "hooks.d"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// An agentCase is one agent's events: one the shipped guardrails deny,
// one they have no opinion on, one that does not decode.
type agentCase struct {
	args               []string
	deny, none, broken string
	denyMark           string
}

var agentCases = []agentCase{
	{[]string{"claude"},
		`{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`,
		`{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t2"}`,
		`{"session_id":"s","hook_event_name":"PreToolUse","tool_input":{"command":`,
		`"permissionDecision":"deny"`},
	{[]string{"gemini"},
		`{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-01T09:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`,
		`{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-01T09:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
		`{"session_id":"s","hook_event_name":"BeforeTool","tool_input":[`,
		`"decision":"deny"`},
	{[]string{"codex"},
		`{"session_id":"c","turn_id":"t","cwd":"/w","model":"gpt-5-codex","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"c1"}`,
		`{"session_id":"c","turn_id":"t","cwd":"/w","model":"gpt-5-codex","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c2"}`,
		`{"session_id":"c","hook_event_name":"PreToolUse","tool_input":{`,
		`"permissionDecision":"deny"`},
	{[]string{"cursor"},
		`{"hook_event_name":"preToolUse","conversation_id":"c1","generation_id":"g1","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{"command":"rm -rf /","cwd":"/w"},"tool_use_id":"t1","cwd":"/w"}`,
		`{"hook_event_name":"preToolUse","conversation_id":"c1","generation_id":"g1","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{"command":"ls","cwd":"/w"},"tool_use_id":"t2","cwd":"/w"}`,
		`{"hook_event_name":"preToolUse","tool_input":{"command":`,
		`"permission":"deny"`},
	{[]string{"copilot", "--event", "preToolUse"},
		`{"sessionId":"s1","timestamp":1764633600000,"cwd":"/w","toolName":"bash","toolArgs":{"command":"rm -rf /"}}`,
		`{"sessionId":"s1","timestamp":1764633600000,"cwd":"/w","toolName":"bash","toolArgs":{"command":"ls"}}`,
		`{"sessionId":"s1","toolName":"bash","toolArgs":{"command":`,
		`"permissionDecision":"deny"`},
}

// TestSameAnswers runs the same events through hookhost AGENT --server
// auto and hookhost-hook AGENT, for every command dialect, and compares
// stdout and exit status: with no server to be had (the hooks load in
// the full command's process), with the server running (hookhost-hook
// answers alone: the full command it would fall back to is missing), and
// with an event that does not decode (the server's refusal is not
// printed: the full command fails closed, as it does itself).
func TestSameAnswers(t *testing.T) {
	dir := shipped(t)
	runtime := privateDir(t)
	t.Cleanup(func() { stopServers(t, runtime) })
	// The auto socket's own directory open to others: --server auto
	// refuses to use it, so every call is answered in process. (A parent
	// open to others is fine: the socket's directory is made private.)
	open := t.TempDir()
	if err := os.Mkdir(filepath.Join(open, "hookhost"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(open, "hookhost"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopServers(t, open) }) // none should start; if one does, it must not outlive the test
	up := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=1m"}
	noServer := []string{"XDG_RUNTIME_DIR=" + open, "HOOKHOST_AUTO_IDLE_EXIT=1m"}
	for _, ac := range agentCases {
		t.Run(ac.args[0], func(t *testing.T) {
			args := append(append([]string{}, ac.args...), "--dir", dir, "--server", "auto")
			for _, tc := range []struct {
				name, stdin string
				env         []string
				alone       bool // hookhost-hook must answer without the full command
				want        func(r run) bool
			}{
				{"deny, no server", ac.deny, noServer, false, func(r run) bool { return r.code == 0 && strings.Contains(r.stdout, ac.denyMark) }},
				{"no opinion, no server", ac.none, noServer, false, func(r run) bool { return r.code == 0 && r.stdout == "" }},
				{"deny, server started", ac.deny, up, false, func(r run) bool { return r.code == 0 && strings.Contains(r.stdout, ac.denyMark) }},
				{"deny, server up", ac.deny, up, true, func(r run) bool { return r.code == 0 && strings.Contains(r.stdout, ac.denyMark) }},
				{"no opinion, server up", ac.none, up, true, func(r run) bool { return r.code == 0 && r.stdout == "" }},
				{"broken event, server up", ac.broken, up, false, func(r run) bool { return r.code == 2 && !strings.Contains(r.stdout, "allow") }},
			} {
				env := tc.env
				if tc.alone && goruntime.GOOS == "linux" { // elsewhere every call goes to hookhost
					env = append(append([]string{}, env...), fullEnv+"="+filepath.Join(binDir, "absent"))
				}
				// hookhost-hook first: in "server started" it is the one
				// that finds no server, and its full command starts it.
				small := runBin(t, env, tc.stdin, "hookhost-hook", args...)
				full := runBin(t, tc.env, tc.stdin, "hookhost", args...)
				if !tc.want(full) {
					t.Errorf("%s: hookhost: %v", tc.name, full)
				}
				if small.stdout != full.stdout || small.code != full.code {
					t.Errorf("%s:\nhookhost-hook: %v\nhookhost:      %v", tc.name, small, full)
				}
			}
		})
	}
}

// impostorEnv makes the test binary an impostor (see impostor).
const impostorEnv = "HOOKHOST_HOOK_TEST_IMPOSTOR"

// impostor listens, as uid 65534 (nobody), on the socket named by
// $HOOKHOST_HOOK_TEST_IMPOSTOR, writes every byte it receives to the
// file named by $HOOKHOST_HOOK_TEST_RECORD, and answers every request
// with an allow in every agent's terms. It binds the socket as the user
// that runs the test (root: only root can become another user), in the
// private directory of --server auto, and then becomes nobody before it
// listens: the kernel's SO_PEERCRED names the listener's user.
func impostor() {
	die := func(err error) { fmt.Fprintln(os.Stderr, "impostor:", err); os.Exit(1) }
	rec, err := os.OpenFile(os.Getenv(impostorEnv+"_RECORD"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		die(err)
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		die(err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: os.Getenv(impostorEnv)}); err != nil {
		die(err)
	}
	if err := syscall.Setuid(65534); err != nil {
		die(err)
	}
	if err := syscall.Listen(fd, 16); err != nil {
		die(err)
	}
	os.Stdout.WriteString("listening\n")
	allow := `{"permissionDecision":"allow","decision":"allow","permission":"allow","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`
	for {
		c, _, err := syscall.Accept(fd)
		if err != nil {
			die(err)
		}
		buf := make([]byte, 64<<10)
		syscall.SetsockoptTimeval(c, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &syscall.Timeval{Sec: 1})
		if n, _ := syscall.Read(c, buf); n > 0 {
			rec.Write(buf[:n])
		}
		syscall.Write(c, []byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "+
			strconv.Itoa(len(allow))+"\r\n\r\n"+allow))
		syscall.Close(c)
	}
}

// TestImpostor: a socket at --server auto's path served by another user
// (nobody) gets nothing from hookhost-hook, whose full command then
// refuses it too and fails closed: the same answer as hookhost's own,
// never the impostor's allow. Only root can run a process as another
// user; as anyone else the test has no impostor to start.
func TestImpostor(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("starting a listener as another user takes root")
	}
	dir := shipped(t)
	runtime := privateDir(t)
	env := []string{"XDG_RUNTIME_DIR=" + runtime}
	for _, ac := range agentCases {
		t.Run(ac.args[0], func(t *testing.T) {
			args := append(append([]string{}, ac.args...), "--dir", dir, "--server", "auto")
			req, ok := parse(args, func(k string) string {
				if k == "XDG_RUNTIME_DIR" {
					return runtime
				}
				return os.Getenv(k)
			})
			if !ok {
				t.Fatalf("parse(%q) refused it", args)
			}
			t.Setenv("XDG_RUNTIME_DIR", runtime)
			sock, err := autosock.Path(req.dir, req.config)
			if err != nil {
				t.Fatal(err)
			}
			record := filepath.Join(t.TempDir(), "record")
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), impostorEnv+"="+sock, impostorEnv+"_RECORD="+record)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); os.Remove(sock) })
			if _, err := out.Read(make([]byte, 16)); err != nil {
				t.Fatalf("the impostor did not start: %v", err)
			}
			small := runBin(t, env, ac.deny, "hookhost-hook", args...)
			full := runBin(t, env, ac.deny, "hookhost", args...)
			if small.stdout != full.stdout || small.code != full.code {
				t.Errorf("\nhookhost-hook: %v\nhookhost:      %v", small, full)
			}
			if small.code != 2 || strings.Contains(small.stdout, "allow") || !strings.Contains(small.stderr, "uid 65534") {
				t.Errorf("hookhost-hook: %v, want exit 2, no allow, the impostor named", small)
			}
			if data, _ := os.ReadFile(record); len(data) > 0 {
				t.Errorf("the impostor received %q", data)
			}
		})
	}
}

// TestHandsOver: a command line hookhost-hook does not read goes to the
// full command with the same arguments and stdin, which answers it (or
// reports the mistake) exactly as when it is run itself.
func TestHandsOver(t *testing.T) {
	dir := shipped(t)
	runtime := privateDir(t)
	t.Cleanup(func() { stopServers(t, runtime) })
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=1m"}
	claude := agentCases[0]
	for _, tc := range []struct {
		name, stdin string
		args        []string
	}{
		{"without --server: in process", claude.deny, []string{"claude", "--dir", dir}},
		{"print-settings", "", []string{"claude", "--dir", dir, "--server", "auto", "--print-settings"}},
		{"copilot without --event", agentCases[4].deny, []string{"copilot", "--dir", dir, "--server", "auto"}},
		{"an unknown flag", claude.deny, []string{"claude", "--dir", dir, "--server", "auto", "--no-such-flag"}},
		{"--event where the agent has none", claude.deny, []string{"claude", "--event", "PreToolUse", "--dir", dir, "--server", "auto"}},
		{"an unknown agent", claude.deny, []string{"nosuchagent", "--dir", dir, "--server", "auto"}},
		{"--fail-open, an event that does not decode", claude.broken, []string{"claude", "--dir", dir, "--server", "auto", "--fail-open"}},
		{"an event over the limit", strings.Repeat(" ", maxEvent) + claude.deny, []string{"claude", "--dir", dir, "--server", "auto"}},
	} {
		small := runBin(t, env, tc.stdin, "hookhost-hook", tc.args...)
		full := runBin(t, env, tc.stdin, "hookhost", tc.args...)
		if small.stdout != full.stdout || small.code != full.code || small.stderr != full.stderr {
			t.Errorf("%s:\nhookhost-hook: %v\nhookhost:      %v", tc.name, small, full)
		}
	}
}

// TestPrintSettings: hookhost --print-settings --server auto prints
// hookhost-hook when it is installed beside hookhost, and hookhost
// itself with --full-hook or without --server auto.
func TestPrintSettings(t *testing.T) {
	dir := shipped(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"claude", "--server", "auto"}, `"command": "hookhost-hook claude --dir ` + dir + ` --server auto"`},
		{[]string{"copilot", "--server", "auto"}, `"bash": "hookhost-hook copilot --dir ` + dir + ` --server auto --event preToolUse"`},
		{[]string{"claude", "--server", "auto", "--full-hook"}, `"command": "hookhost claude --dir ` + dir + ` --server auto"`},
		{[]string{"claude"}, `"command": "hookhost claude --dir ` + dir + `"`},
	} {
		r := runBin(t, nil, "", "hookhost", append(tc.args, "--print-settings", "--dir", dir)...)
		if r.code != 0 || !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%v: %v\nwant %s", tc.args, r, tc.want)
		}
	}
}

// TestSameSocket: hookhost-hook finds the server hookhost started for the
// same command line however the directory and config are named — by
// default (./hooks.d and the hookhost.yaml in it, from the working
// directory), by environment variables, relative — since the socket's
// name is made of them: after hookhost starts it, hookhost-hook answers
// alone (the full command it would fall back to is missing).
func TestSameSocket(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("hookhost-hook answers alone on Linux only")
	}
	work := t.TempDir()
	hooks := filepath.Join(work, "hooks.d")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	guard := `hook.on("tool.execute.pre", function(tool_name, params)
  if (params.command or ""):find("rm -rf", 1, true) then return hook.deny("no rm -rf here") end
end)
`
	for name, data := range map[string]string{"guard.lua": guard, "hookhost.yaml": "hooks: {}\n"} {
		if err := os.WriteFile(filepath.Join(hooks, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claude := agentCases[0]
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"defaults", nil, []string{"claude", "--server", "auto"}},
		{"relative --dir and --config", nil, []string{"claude", "--dir", "hooks.d", "-c", "hooks.d/hookhost.yaml", "--server", "auto"}},
		{"environment", []string{"HOOKHOST_DIR=hooks.d", "HOOKHOST_SERVER=auto"}, []string{"claude"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime := privateDir(t)
			t.Cleanup(func() { stopServers(t, runtime) })
			env := append([]string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=1m"}, tc.env...)
			full := runIn(t, work, env, claude.deny, "hookhost", tc.args...)
			small := runIn(t, work, append(env, fullEnv+"="+filepath.Join(binDir, "absent")), claude.deny, "hookhost-hook", tc.args...)
			if full.code != 0 || !strings.Contains(full.stdout, "no rm -rf here") || small.stdout != full.stdout || small.code != 0 {
				t.Errorf("\nhookhost-hook: %v\nhookhost:      %v", small, full)
			}
		})
	}
}

// runIn is runBin in the working directory dir ("": this process's).
func runIn(t *testing.T, dir string, env []string, stdin, name string, args ...string) run {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, name), args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOOKHOST_EVENT_CACHE=off"), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return run{stdout.String(), stderr.String(), code}
}

// TestNonBlockingStdin: an agent may hand its hook a pipe that does not
// block, and write the event a little at a time; hookhost-hook waits for
// it (and replays it whole to the full command when it hands over).
func TestNonBlockingStdin(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("hookhost-hook reads stdin on Linux only")
	}
	dir := shipped(t)
	runtime := privateDir(t)
	t.Cleanup(func() { stopServers(t, runtime) })
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=1m"}
	claude := agentCases[0]
	args := []string{"claude", "--dir", dir, "--server", "auto"}
	for _, tc := range []struct {
		name  string
		alone bool
	}{{"the server starting (handed over)", false}, {"the server up (answered alone)", true}} {
		t.Run(tc.name, func(t *testing.T) {
			// Not os.Pipe and r.Fd(): Fd, which exec calls too, makes a
			// pipe that os made non-blocking block again.
			var fds [2]int
			if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
				t.Fatal(err)
			}
			r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "event")
			defer r.Close()
			if err := syscall.SetNonblock(fds[0], true); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(filepath.Join(binDir, "hookhost-hook"), args...)
			cmd.Env = append(append(os.Environ(), "HOOKHOST_EVENT_CACHE=off"), env...)
			if tc.alone {
				cmd.Env = append(cmd.Env, fullEnv+"="+filepath.Join(binDir, "absent"))
			}
			cmd.Stdin = r
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			event := claude.deny
			for i := 0; i < len(event); i += 16 {
				time.Sleep(2 * time.Millisecond)
				if _, err := w.Write([]byte(event[i:min(i+16, len(event))])); err != nil {
					t.Fatal(err)
				}
			}
			w.Close()
			flags, _, _ := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[0]), syscall.F_GETFL, 0)
			if flags&syscall.O_NONBLOCK == 0 {
				t.Error("the test's pipe blocks: it tests nothing")
			}
			if err := cmd.Wait(); err != nil || !strings.Contains(stdout.String(), claude.denyMark) {
				t.Errorf("hookhost-hook: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
			}
		})
	}
}
