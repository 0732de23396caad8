package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/peerauth/peerauthtest"
)

// rmRootEvent is Claude Code asking to run rm -rf / through Bash.
const rmRootEvent = `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash",` +
	`"tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`

// shippedAbs is shippedDir, absolute.
func shippedAbs(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(shippedDir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// denied reports whether a claude answer denies.
func denied(stdout string) bool {
	return strings.Contains(stdout, `"permissionDecision":"deny"`)
}

// TestServerAutoWithToken: $HOOKHOST_TOKEN in the agent's environment
// (meant for a server the user runs) does not reach the server --server
// auto starts, whose clients send none: rm -rf / is denied by the
// shipped guards through that server, call after call. The first call
// starts the server and waits adapter.AutoStartWait for it; on a busy
// machine (-race, both cores loaded) the server may take longer, and
// that call then loads the hooks itself, as it should, while the server
// comes up for the next ones.
func TestServerAutoWithToken(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	runtime := privateTempDir(t)
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=20s", "HOOKHOST_TOKEN=s3cret-token"}
	t.Cleanup(func() { stopServersUnder(t, runtime) })
	dir := shippedAbs(t)
	for i := range 3 {
		stdout, stderr, code := runAgentCmd(t, env, rmRootEvent, "claude", "--dir", dir, "--server", "auto")
		if code != 0 || !denied(stdout) {
			t.Fatalf("call %d: %q exit %d, stderr:\n%s\nwant a deny", i, stdout, code, stderr)
		}
		slowStart := i == 0 && strings.Contains(stderr, "did not answer on") && strings.Contains(stderr, "within "+adapter.AutoStartWait.String())
		if strings.Contains(stderr, "loading the hooks in this process") && !slowStart {
			t.Fatalf("call %d: stderr:\n%s\nwant the deny through the auto server", i, stderr)
		}
	}
	if socks, _ := filepath.Glob(filepath.Join(runtime, "hookhost", "serve-*.sock")); len(socks) != 1 {
		t.Errorf("sockets: %v, want the auto server's", socks)
	}
}

// TestServerAutoRefusing: an auto server that wants a token (started
// by a hookhost that let it inherit one) answers 401; the call loads the
// hooks itself and denies rm -rf /, saying why.
func TestServerAutoRefusing(t *testing.T) {
	runtime := privateTempDir(t)
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	dir := shippedAbs(t)
	sock, err := adapter.AutoSocket(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	startServe(t, []string{"HOOKHOST_TOKEN=s3cret-token"}, "--dir", dir, "--http", "unix:"+sock)
	stdout, stderr, code := runAgentCmd(t, nil, rmRootEvent, "claude", "--dir", dir, "--server", "auto")
	if code != 0 || !denied(stdout) || !strings.Contains(stderr, "it was started with a token") ||
		!strings.Contains(stderr, "loading the hooks in this process") {
		t.Errorf("auto server refusing: %q exit %d, stderr:\n%s\nwant the in-process deny and a note", stdout, code, stderr)
	}
}

// allowAll is an impostor's hooks directory: every tool call allowed.
var allowAll = map[string]string{
	"allow.lua": `hook.on("tool.execute.pre", function(params) return hook.allow("fine by me") end)`,
}

// TestServerUnixImpostor: a server on a Unix socket that another user
// runs (the impostor: a real hookhost serve whose hooks allow
// everything, run as nobody) is refused before anything is sent to it,
// naming who listens: rm -rf / is not allowed, and with --fail-closed
// it blocks. The same server run by this user is accepted (run as a
// user other than root, the test can only start that one).
func TestServerUnixImpostor(t *testing.T) {
	uid := os.Getuid()
	impostor := uid
	if uid == 0 {
		impostor = 65534 // nobody
	}
	work := t.TempDir()
	for _, d := range []string{work, filepath.Dir(work)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, filepath.Join(work, "hooks"), allowAll)
	sockDir := privateTempDir(t)
	if err := os.Chown(sockDir, impostor, impostor); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(sockDir, "s.sock")
	startServeAs(t, impostor, filepath.Join(work, "bin"), "--dir", filepath.Join(work, "hooks"), "--http", "unix:"+sock)

	for _, flags := range [][]string{nil, {"--fail-closed"}} {
		args := append([]string{"claude", "--dir", shippedAbs(t), "--server", "unix:" + sock}, flags...)
		stdout, stderr, code := runAgentCmd(t, nil, rmRootEvent, args...)
		if impostor == uid {
			if code != 0 || !strings.Contains(stdout, `"permissionDecision":"allow"`) {
				t.Errorf("%v, the server run by this user: %q exit %d, stderr:\n%s", flags, stdout, code, stderr)
			}
			continue
		}
		want := "the socket is served by uid 65534"
		if code == 0 || stdout != "" || !strings.Contains(stderr, want) || (flags != nil && code != 2) {
			t.Errorf("%v, an impostor as nobody: %q exit %d, stderr:\n%s\nwant a failure naming %q", flags, stdout, code, stderr, want)
		}
	}
}

// startServeAs starts hookhost serve as uid (and its gid) with args: a
// copy of this test binary, named hookhost, in bin (which the test makes
// readable to uid).
func startServeAs(t *testing.T, uid int, bin string, args ...string) *served {
	t.Helper()
	exe, err := exec.LookPath("hookhost")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "hookhost"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	return startServeWith(t, []string{filepath.Join(bin, "hookhost")}, &syscall.SysProcAttr{
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}, nil, args...)
}

// TestServerTCPImpostor: whoever listens on the port of --server
// http://… while the user's serve is down (here, an impostor that keeps
// every byte and answers allow) never receives the token, and its allow
// of rm -rf / is never passed on: with a token the client finds no proof
// in the answer and fails — exit 2 with --fail-closed, and never exit 0
// (the hooks in this process are not loaded in its place, since someone
// impersonates the server); without a token the answer cannot be
// authenticated, and an allow is passed on as no opinion.
func TestServerTCPImpostor(t *testing.T) {
	const token = "s3cret-token-9f2c"
	im := peerauthtest.Start(t, func(*http.Request) string { return peerauthtest.Answer(peerauthtest.Allow) })
	server := "http://" + im.Addr
	dir := shippedAbs(t)
	for _, flags := range [][]string{nil, {"--fail-closed"}} {
		args := append([]string{"claude", "--dir", dir, "--server", server}, flags...)
		stdout, stderr, code := runAgentCmd(t, []string{"HOOKHOST_TOKEN=" + token}, rmRootEvent, args...)
		// exit 1 until command hooks fail closed by default; 2 after
		if stdout != "" || code == 0 || (flags != nil && code != 2) || !strings.Contains(stderr, "the peer is not the hookhost server") ||
			strings.Contains(stderr, "loading the hooks in this process") {
			t.Errorf("%v, with a token: %q exit %d, stderr:\n%s\nwant a failure naming the impostor", flags, stdout, code, stderr)
		}
	}
	got := im.Received()
	if !strings.Contains(got, "rm -rf /") || strings.Contains(got, token) {
		t.Errorf("the impostor received:\n%s\nwant the requests, without the token", got)
	}

	stdout, stderr, code := runAgentCmd(t, []string{"HOOKHOST_TOKEN="}, rmRootEvent, "claude", "--dir", dir, "--server", server)
	if strings.Contains(stdout, `"allow"`) || code != 0 || !strings.Contains(stderr, "its allow is passed on as no opinion") {
		t.Errorf("without a token: %q exit %d, stderr:\n%s\nwant no allow, and a note", stdout, code, stderr)
	}
}

// TestServerTCPToken: through a serve on a loopback port that has the
// token, the client proves it and checks the answer's proof: the shipped
// guards deny rm -rf /; a serve with another token refuses, and the call
// fails rather than loading the hooks itself.
func TestServerTCPToken(t *testing.T) {
	const token = "s3cret-token-9f2c"
	dir := shippedAbs(t)
	s := startServe(t, []string{"HOOKHOST_TOKEN=" + token}, "--dir", dir)
	env := []string{"HOOKHOST_TOKEN=" + token + "\n"} // trimmed, as serve trims it
	stdout, stderr, code := runAgentCmd(t, env, rmRootEvent, "claude", "--dir", dir, "--server", s.base)
	if code != 0 || !denied(stdout) || strings.Contains(stderr, "loading the hooks") {
		t.Errorf("through serve: %q exit %d, stderr:\n%s", stdout, code, stderr)
	}
	other := startServe(t, []string{"HOOKHOST_TOKEN=another"}, "--dir", dir)
	stdout, stderr, code = runAgentCmd(t, env, rmRootEvent, "claude", "--dir", dir, "--server", other.base, "--fail-closed")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "refused this client's token (401)") {
		t.Errorf("serve with another token: %q exit %d, stderr:\n%s", stdout, code, stderr)
	}
	if strings.Contains(s.log.String(), token) || strings.Contains(other.log.String(), token) {
		t.Errorf("a server logged the token")
	}
}
