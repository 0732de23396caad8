package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
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
// shipped guards through that server, call after call.
func TestServerAutoWithToken(t *testing.T) {
	runtime := privateTempDir(t)
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=20s", "HOOKHOST_TOKEN=s3cret-token"}
	t.Cleanup(func() { stopServersUnder(t, runtime) })
	dir := shippedAbs(t)
	for i := range 2 {
		stdout, stderr, code := runAgentCmd(t, env, rmRootEvent, "claude", "--dir", dir, "--server", "auto")
		if code != 0 || !denied(stdout) || strings.Contains(stderr, "loading the hooks in this process") {
			t.Fatalf("call %d: %q exit %d, stderr:\n%s\nwant a deny through the auto server", i, stdout, code, stderr)
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
