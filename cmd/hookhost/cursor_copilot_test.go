package main

import (
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"path/filepath"
	"strings"
	"testing"
)

// Cursor's and Copilot CLI's command hooks, end to end through the
// binary with the shipped guardrails: the packs see Cursor's Shell and
// Copilot's bash as shell tools, and hookhost's own failures at the
// guard event block as each agent reads a block.

func cursorPre(toolInput string) string {
	return `{"hook_event_name":"preToolUse","conversation_id":"c1","generation_id":"g1","workspace_roots":["/w"],` +
		`"session_id":"c1","tool_name":"Shell","tool_input":` + toolInput + `,"tool_use_id":"t1","cwd":"/w"}`
}

// cursorStop carries stop_hook_active, which Cursor does not send, only so
// that TestAgentsFailOpenWhereBlockingMeansMore can nest a field after it.
const cursorStop = `{"hook_event_name":"stop","conversation_id":"c1","status":"completed","loop_count":0,"stop_hook_active":false}`

// copilotPre is a preToolUse with toolArgs as an object (as Copilot's SDK
// sends it), so that the failure routes can nest and pad it.
func copilotPre(toolInput string) string {
	return `{"sessionId":"s1","timestamp":1764633600000,"cwd":"/w","toolName":"bash","toolArgs":` + toolInput + `}`
}

// TestShippedGuardsCursorCopilot: the shipped guardrails deny rm -rf / as
// Cursor and Copilot send it, through each way they send it.
func TestShippedGuardsCursorCopilot(t *testing.T) {
	dir := copyShipped(t)
	cache := filepath.Join(t.TempDir(), "events.txt")
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"cursor preToolUse Shell", cursorPre(`{"command":"rm -rf /","cwd":"/w"}`), []string{"cursor"}, `"permission":"deny"`},
		{"cursor beforeShellExecution", `{"hook_event_name":"beforeShellExecution","conversation_id":"c1","command":"rm -rf /","cwd":"/w"}`,
			[]string{"cursor"}, `"permission":"deny"`},
		{"copilot bash, toolArgs as JSON text", `{"sessionId":"s1","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`,
			[]string{"copilot", "--event", "preToolUse"}, `"permissionDecision":"deny"`},
		{"copilot bash, toolArgs as an object", copilotPre(`{"command":"rm -rf /"}`),
			[]string{"copilot", "--event", "preToolUse"}, `"permissionDecision":"deny"`},
		{"copilot permissionRequest", `{"hookName":"permissionRequest","sessionId":"s1","timestamp":1,"cwd":"/w","toolName":"bash","toolInput":{"command":"rm -rf /"}}`,
			[]string{"copilot", "--event", "permissionRequest"}, `"behavior":"deny"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runHookhost(t, cache, []byte(tc.stdin), append(tc.args, "--dir", dir)...)
			if r.code != 0 || !strings.Contains(r.stdout, tc.want) {
				t.Errorf("%v, want exit 0 and %s", r, tc.want)
			}
		})
	}
}

// TestCopilotFailsClosed: every failure route of the other agents, at
// Copilot's preToolUse: blocked means the denial printed (the reason
// reaches the model) with exit 2, which Copilot reads as a warning whose
// stdout is the answer; --fail-open must not exit 1 there, which Copilot
// reads as a denial: 2 with nothing printed, or 0 where the hooks that
// did load answered.
func TestCopilotFailsClosed(t *testing.T) {
	d := agentDialect{name: "copilot", guard: copilotPre}
	for _, route := range failRoutes {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			dir := guardPacks(t)
			stdin, args := route.setup(t, d, dir)
			args = append([]string{"copilot", "--event", "preToolUse", "--dir", dir}, args...)
			cache := filepath.Join(t.TempDir(), "events.txt")
			for range 2 {
				r := runHookhost(t, cache, []byte(stdin), args...)
				if r.code != 2 || !strings.HasPrefix(r.stdout, `{"permissionDecision":"deny","permissionDecisionReason":"hookhost: `) || r.stderr == "" {
					t.Fatalf("%v, want the denial printed, exit 2 and the reason on stderr", r)
				}
			}
			r := runHookhost(t, cache, []byte(stdin), append(args, "--fail-open")...)
			if route.fallback && r.code == 0 {
				return
			}
			want := 2
			if route.failOpen == 0 {
				want = 0
			}
			if r.code != want || strings.Contains(r.stdout, `"deny"`) {
				t.Errorf("--fail-open: %v, want exit %d and no denial", r, want)
			}
		})
	}
}

// TestServerAutoCursorCopilot: --server auto holds state across separate
// hookhost copilot processes (the shipped limit of 10 web fetches a
// minute per session), and hookhost cursor fires through the same
// server.
func TestServerAutoCursorCopilot(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	runtime := privateTempDir(t)
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=20s"}
	t.Cleanup(func() { stopServersUnder(t, runtime) })
	dir, err := filepath.Abs(shippedDir)
	if err != nil {
		t.Fatal(err)
	}
	// The first call starts the server and waits adapter.AutoStartWait for
	// it; on a busy machine (-race, both cores loaded) the server may take
	// longer, and such a call loads the hooks itself, as it should. So the
	// server is started by calls of another session (the limit counts per
	// session) until one of them is served.
	warm := `{"sessionId":"s-warm","timestamp":1,"cwd":"/w","toolName":"web_fetch","toolArgs":"{\"url\":\"https://example.com\"}"}`
	for i := 1; ; i++ {
		_, stderr, code := runAgentCmd(t, env, warm, "copilot", "--event", "preToolUse", "--dir", dir, "--server", "auto")
		slowStart := strings.Contains(stderr, "did not answer on") && strings.Contains(stderr, "within "+adapter.AutoStartWait.String())
		if code == 0 && !strings.Contains(stderr, "loading the hooks in this process") {
			break
		}
		if code != 0 || !slowStart || i == 5 {
			t.Fatalf("warming call %d: exit %d, stderr:\n%s", i, code, stderr)
		}
	}
	fetch := `{"sessionId":"s-fetch","timestamp":1,"cwd":"/w","toolName":"web_fetch","toolArgs":"{\"url\":\"https://example.com\"}"}`
	for i := 1; i <= 11; i++ {
		stdout, stderr, code := runAgentCmd(t, env, fetch, "copilot", "--event", "preToolUse", "--dir", dir, "--server", "auto")
		if code != 0 || strings.Contains(stderr, "loading the hooks in this process") {
			t.Fatalf("copilot call %d: exit %d, stderr:\n%s", i, code, stderr)
		}
		denied := strings.HasPrefix(stdout, `{"permissionDecision":"deny"`)
		if want := i > 10; denied != want || (!denied && stdout != "") {
			t.Errorf("copilot call %d: %q, want denied=%v", i, stdout, want)
		}
	}
	stdout, stderr, code := runAgentCmd(t, env, cursorPre(rmRoot), "cursor", "--dir", dir, "--server", "auto")
	if code != 0 || !strings.Contains(stdout, `"permission":"deny"`) || strings.Contains(stderr, "loading the hooks in this process") {
		t.Errorf("cursor: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if socks, _ := filepath.Glob(filepath.Join(runtime, "hookhost", "serve-*.sock")); len(socks) != 1 {
		t.Errorf("sockets: %v, want one", socks)
	}
}
