package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
)

// The command dialects fail closed at their guard events: every failure
// of hookhost's own while it decides a PreToolUse (Claude Code, Codex) or
// a BeforeTool (Gemini) carrying "rm -rf /" blocks (exit 2, the reason on
// stderr), unless --fail-open; at Stop and AfterAgent, where exit 2 means
// "keep working" or "retry", failures still fail open (exit 1). The
// failure routes run against guardPacks, two small packs shaped like the
// shipped ones: what is tested is hookhost's handling of its own
// failures, which does not depend on what the guards check, and each run
// of the shipped packs compiles their large files again (the shipped
// packs' own denials and fail-closed declarations are tested in
// shipped_test.go and cursor_copilot_test.go).

// agentRun is one run of an agent command.
type agentRun struct {
	stdout, stderr string
	code           int
}

// blocked reports whether the agent is stopped: exit 2, or an answer that
// denies (a failure a fallback turned into the hooks' own answer blocks
// too).
func (r agentRun) blocked() bool {
	return r.code == 2 || (r.code == 0 && strings.Contains(r.stdout, `"deny"`))
}

func (r agentRun) String() string {
	return fmt.Sprintf("exit %d, stdout %q, stderr %.300q", r.code, r.stdout, r.stderr)
}

// runHookhost runs the hookhost of the test (see TestMain) with args and
// stdin, the event cache in the test's own file.
func runHookhost(t *testing.T, cache string, stdin []byte, args ...string) agentRun {
	t.Helper()
	cmd := exec.Command("hookhost", args...)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "HOOKHOST_EVENT_CACHE="+cache, "HOOKHOST_SERVER=")
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	run := agentRun{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		run.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return run
}

// copyShipped copies the shipped guardrails into a directory of the
// test's, to be broken there: the packs named, or all of them.
func copyShipped(t *testing.T, packs ...string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "hooks.d")
	err := filepath.WalkDir(shippedDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(shippedDir, path)
		if pack, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); len(packs) > 0 && rel != "." && !slices.Contains(packs, pack) {
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// guardPacks writes, into a directory of the test's, two packs shaped
// like the shipped ones (a directory with a HOOK.md declaring that its
// guards fail closed, and a Lua file): destructive denies rm -rf / and
// mkfs, settings denies rm -rf / only (as the shipped protect-settings
// stops deleting /, which holds agent settings). The failure routes break
// them.
func guardPacks(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hooks.d")
	pack := func(name, description, lua string) map[string]string {
		return map[string]string{
			name + "/HOOK.md": "---\nname: " + name + "\ndescription: " + description + "\nversion: 1.0.0\n" +
				"error_behavior: deny\ntimeout_behavior: deny\n---\n# " + name + "\n",
			name + "/" + name + ".lua": lua,
		}
	}
	denyIf := func(name, reason string, needles ...string) string {
		return `hook.on("tool.execute.pre", function(params)
  local line = tostring(params.command or "")
  for _, needle in ipairs({"` + strings.Join(needles, `", "`) + `"}) do
    if line:find(needle, 1, true) then return hook.deny("` + reason + `") end
  end
end, { name = "` + name + `" })
`
	}
	writeFiles(t, dir, pack("destructive", "Deny rm -rf / and mkfs.", denyIf("no-destructive-commands", "refusing a destructive command", "rm -rf /", "mkfs")))
	writeFiles(t, dir, pack("settings", "Deny deleting /, which holds agent settings.", denyIf("protect-settings", "refusing to delete the settings", "rm -rf /")))
	return dir
}

// nest is n levels of {"x": …} around the string "rm -rf /".
func nest(n int) string {
	return strings.Repeat(`{"x":`, n) + `"rm -rf /"` + strings.Repeat("}", n)
}

// An agentDialect is one command dialect's guard event and the event
// where exit 2 does not block.
type agentDialect struct {
	name  string
	guard func(toolInput string) string // the guard event, with tool_input
	open  string                        // an event that fails open
}

var agentDialects = []agentDialect{
	{"claude", claudePre, `{"session_id":"s","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"x"}`},
	{"codex", claudePre, `{"session_id":"s","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"x"}`},
	{"gemini", geminiPre, `{"session_id":"s","cwd":"/w","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r","stop_hook_active":false}`},
	{"cursor", cursorPre, cursorStop},
}

func claudePre(toolInput string) string {
	return `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse",` +
		`"tool_name":"Bash","tool_input":` + toolInput + `,"tool_use_id":"toolu_1"}`
}

func geminiPre(toolInput string) string {
	return `{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-02T00:00:00Z",` +
		`"tool_name":"run_shell_command","tool_input":` + toolInput + `}`
}

const rmRoot = `{"command":"rm -rf /"}`

// wipeDisk is a command only the destructive pack stops: the routes that
// break that pack's file use it, so that with --fail-open no other guard
// (settings stops rm -rf /) decides in its place.
const wipeDisk = `{"command":"mkfs.ext4 /dev/sda1"}`

// A failRoute is one way hookhost fails while deciding the guard event.
type failRoute struct {
	name string
	// setup breaks dir (guardPacks) and returns the
	// stdin and the extra arguments of the run.
	setup func(t *testing.T, d agentDialect, dir string) (stdin string, args []string)
	// failOpen is what --fail-open gives: exit 1, or (for a file whose
	// guards are missing) exit 0 without a denial: the agent proceeds.
	failOpen int
	// fallback accepts, with --fail-open, the answer of the hooks loaded
	// in this process: a server that fails to answer may count as one
	// that is down, which falls back to them.
	fallback bool
}

var failRoutes = []failRoute{
	{"empty stdin", func(*testing.T, agentDialect, string) (string, []string) { return "", nil }, 1, false},
	{"not JSON", func(*testing.T, agentDialect, string) (string, []string) { return "rm -rf /", nil }, 1, false},
	{"tool_input nested 600 levels", func(_ *testing.T, d agentDialect, _ string) (string, []string) {
		return d.guard(`{"command":"rm -rf /","args":` + nest(600) + `}`), nil
	}, 1, false},
	{"stdin past the limit", func(_ *testing.T, d agentDialect, _ string) (string, []string) {
		return d.guard(`{"command":"rm -rf /","pad":"` + strings.Repeat("a", adapter.MaxEvent) + `"}`), nil
	}, 1, false},
	{"hooks directory moved away", func(t *testing.T, d agentDialect, dir string) (string, []string) {
		if err := os.Rename(dir, dir+".moved"); err != nil {
			t.Fatal(err)
		}
		return d.guard(rmRoot), nil
	}, 1, false},
	{"config missing", func(_ *testing.T, d agentDialect, dir string) (string, []string) {
		return d.guard(rmRoot), []string{"--config", filepath.Join(dir, "no-such.yaml")}
	}, 1, false},
	{"guard file emptied", func(t *testing.T, d agentDialect, dir string) (string, []string) {
		writeOrFail(t, filepath.Join(dir, "destructive", "destructive.lua"), "")
		return d.guard(wipeDisk), nil
	}, 0, false},
	{"syntax error in the guard file", func(t *testing.T, d agentDialect, dir string) (string, []string) {
		writeOrFail(t, filepath.Join(dir, "destructive", "destructive.lua"), "hook.on(\"tool.execute.pre\", function(\n")
		return d.guard(wipeDisk), nil
	}, 0, false},
	{"server down, directory moved", func(t *testing.T, d agentDialect, dir string) (string, []string) {
		if err := os.Rename(dir, dir+".moved"); err != nil {
			t.Fatal(err)
		}
		return d.guard(rmRoot), []string{"--server", "http://" + closedAddr(t)}
	}, 1, false},
	{"server answers 401", func(t *testing.T, d agentDialect, dir string) (string, []string) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
		}))
		t.Cleanup(srv.Close)
		return d.guard(rmRoot), []string{"--server", srv.URL}
	}, 1, true},
}

func writeOrFail(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestAgentsFailClosed runs every failure route in every dialect; each
// route has its own packs and event cache, so the routes and the dialects
// run in parallel (each run is a process of its own).
func TestAgentsFailClosed(t *testing.T) {
	for _, d := range agentDialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			dir := guardPacks(t)
			cache := filepath.Join(t.TempDir(), "events.txt")
			if r := runHookhost(t, cache, []byte(d.guard(rmRoot)), d.name, "--dir", dir); r.code != 0 || !strings.Contains(r.stdout, `"deny"`) {
				t.Fatalf("the guards, intact: %v, want a denial", r)
			}
			for _, route := range failRoutes {
				t.Run(route.name, func(t *testing.T) {
					t.Parallel()
					dir := guardPacks(t)
					stdin, args := route.setup(t, d, dir)
					args = append([]string{d.name, "--dir", dir}, args...)
					cache := filepath.Join(t.TempDir(), "events.txt")
					// Twice: what the first run teaches the event cache must
					// not open the second.
					for range 2 {
						if r := runHookhost(t, cache, []byte(stdin), args...); !r.blocked() || r.stderr == "" && r.code == 2 {
							t.Fatalf("%v, want blocked with the reason on stderr", r)
						}
					}
					if r := runHookhost(t, cache, []byte(stdin), append(args, "--fail-closed")...); !r.blocked() {
						t.Errorf("--fail-closed: %v, want blocked", r)
					}
					r := runHookhost(t, cache, []byte(stdin), append(args, "--fail-open")...)
					if route.fallback && r.code == 0 {
						return
					}
					if r.code != route.failOpen || strings.Contains(r.stdout, `"deny"`) {
						t.Errorf("--fail-open: %v, want exit %d and no denial", r, route.failOpen)
					}
				})
			}
		})
	}
}

// TestAgentsFailOpenWhereBlockingMeansMore: at Stop and AfterAgent exit 2
// would keep the agent working, so hookhost's failures there exit 1.
func TestAgentsFailOpenWhereBlockingMeansMore(t *testing.T) {
	for _, d := range agentDialects {
		dir := guardPacks(t)
		cache := filepath.Join(t.TempDir(), "events.txt")
		moved := dir + ".moved"
		if err := os.Rename(dir, moved); err != nil {
			t.Fatal(err)
		}
		if r := runHookhost(t, cache, []byte(d.open), d.name, "--dir", dir); r.code != 1 {
			t.Errorf("%s, directory moved: %v, want exit 1", d.name, r)
		}
		deep := strings.Replace(d.open, `"stop_hook_active":false`, `"stop_hook_active":false,"extra":`+nest(600), 1)
		if r := runHookhost(t, cache, []byte(deep), d.name, "--dir", moved); r.code != 1 || !strings.Contains(r.stderr, "nests deeper") {
			t.Errorf("%s, nested 600 levels: %v, want exit 1", d.name, r)
		}
	}
}

// TestGeminiSilentUnderAddressSpaceLimit: under an address space of
// 1 GiB, go.starlark.net cannot reserve its 4 GiB at package
// initialisation and logs it; hookhost gemini keeps that off stderr
// (where Gemini would read it as an answer) and routes it to --log. The
// binary is built as documented (static), without the race detector,
// whose runtime does not fit.
func TestGeminiSilentUnderAddressSpaceLimit(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Fatalf("prlimit: %v (util-linux)", err)
	}
	bin := builtHookhost(t)
	dir := copyShipped(t)
	logPath := filepath.Join(t.TempDir(), "gemini.log")
	for _, tc := range []struct {
		name, stdin, stdout string
		args                []string
	}{
		{"no opinion", geminiPre(`{"command":"ls"}`), "", nil},
		{"deny", geminiPre(rmRoot), `{"decision":"deny"`, nil},
		{"no opinion, --log", geminiPre(`{"command":"ls"}`), "", []string{"--log", logPath}},
	} {
		cmd := exec.Command(prlimit, append([]string{"--as=1073741824", "--cpu=60", bin, "gemini", "--dir", dir}, tc.args...)...)
		cmd.Env = append(os.Environ(), "HOOKHOST_EVENT_CACHE=off")
		cmd.Stdin = strings.NewReader(tc.stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 || !strings.HasPrefix(stdout.String(), tc.stdout) || (tc.stdout == "") != (stdout.Len() == 0) {
			t.Errorf("%s: %v, stdout %q, stderr %q; want exit 0, stdout %q…, nothing on stderr", tc.name, err, stdout.String(), stderr.String(), tc.stdout)
		}
	}
	logged, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(logged), "Starlark failed to allocate 4GB address space") {
		t.Errorf("--log: %q (%v), want go.starlark.net's note", logged, err)
	}

	// Other commands still show it, on stderr, as before.
	cmd := exec.Command(prlimit, "--as=1073741824", "--cpu=60", bin, "fire", "--dir", dir, "tool.execute.pre", `{"tool_name":"bash","params":{"command":"ls"}}`)
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), "Starlark failed to allocate") {
		t.Errorf("hookhost fire under the limit: %s, want go.starlark.net's note (nothing held)", out)
	}
}

// TestPicoclawFailsClosed: hookhost's own failures answer before_tool
// with deny_tool and approve_tool with a denial — never a JSON-RPC error
// or silence, which PicoClaw reads as "proceed" — unless --fail-open,
// where before_tool continues. The intact cases run the shipped
// guardrails (which guard tool.approve too); the broken files are
// guardPacks'.
func TestPicoclawFailsClosed(t *testing.T) {
	rm := toolCall("exec", map[string]any{"command": "rm -rf /"})
	// wipe is stopped by the destructive pack alone (see wipeDisk).
	wipe := toolCall("exec", map[string]any{"command": "mkfs.ext4 /dev/sda1"})
	deep := toolCall("exec", map[string]any{"command": "rm -rf /"})
	var nested any = "rm -rf /"
	for range 600 {
		nested = map[string]any{"x": nested}
	}
	deep["arguments"].(map[string]any)["args"] = nested

	intact := startPicoclaw(t, copyShipped(t))
	intact.hello()
	if a := intact.call("hook.before_tool", rm); a.Result["action"] != "deny_tool" {
		t.Fatalf("the shipped guardrails, intact: %s, want deny_tool", a.raw)
	}
	// The shipped packs guard tool.approve too: with no tool.approve hook
	// approve_tool would approve everything (picoclaw.md says so loudly).
	if a := intact.call("hook.approve_tool", rm); a.Result["approved"] != false {
		t.Errorf("approve_tool through the shipped packs: %s, want approved false", a.raw)
	}
	bare := t.TempDir()
	writeOrFail(t, filepath.Join(bare, "pre.lua"), `hook.on("tool.execute.pre", function() end)`)
	preOnly := startPicoclaw(t, bare)
	preOnly.hello()
	if a := preOnly.call("hook.approve_tool", rm); a.Result["approved"] != true {
		t.Errorf("approve_tool, no tool.approve hook: %s, want approved (no decision approves)", a.raw)
	}
	for _, tc := range []struct {
		name   string
		params any
		method string
	}{
		{"arguments nested 600 levels", deep, "hook.before_tool"},
		{"arguments nested 600 levels", deep, "hook.approve_tool"},
	} {
		a := intact.call(tc.method, tc.params)
		if a.Error != nil || a.Result["action"] != "deny_tool" && a.Result["approved"] != false {
			t.Errorf("%s at %s: %s, want a denial", tc.name, tc.method, a.raw)
		}
	}
	// A line no decoder reads (params nested past encoding/json's own
	// limit) still names its id and method: answered with a denial.
	intact.send(`{"jsonrpc":"2.0","id":77,"method":"hook.before_tool","params":{"tool":"exec","arguments":` +
		strings.Repeat(`{"x":`, 20000) + `1` + strings.Repeat("}", 20000) + `}}`)
	if a := intact.next(); string(a.ID) != "77" || a.Result["action"] != "deny_tool" {
		t.Errorf("an undecodable before_tool line: %s, want deny_tool", a.raw)
	}
	if err := intact.closeAndWait(); err != nil {
		t.Errorf("exit: %v", err)
	}

	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the --dir
	}{
		{"hooks directory moved away", func(t *testing.T, dir string) string {
			if err := os.Rename(dir, dir+".moved"); err != nil {
				t.Fatal(err)
			}
			return dir
		}},
		{"guard file emptied", func(t *testing.T, dir string) string {
			writeOrFail(t, filepath.Join(dir, "destructive", "destructive.lua"), "")
			return dir
		}},
		{"syntax error in the guard file", func(t *testing.T, dir string) string {
			writeOrFail(t, filepath.Join(dir, "destructive", "destructive.lua"), "hook.on(\"tool.execute.pre\", function(\n")
			return dir
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own packs and process
			// The guard packs: what is tested is how a broken file fails.
			dir := tc.setup(t, guardPacks(t))
			c := startPicoclaw(t, dir)
			c.hello()
			if a := c.call("hook.before_tool", wipe); a.Result["action"] != "deny_tool" {
				t.Errorf("before_tool: %s, want deny_tool", a.raw)
			}
			if a := c.call("hook.approve_tool", wipe); a.Result["approved"] != false {
				t.Errorf("approve_tool: %s, want a denial", a.raw)
			}
			if err := c.closeAndWait(); err != nil {
				t.Errorf("exit: %v", err)
			}
			c = startPicoclaw(t, dir, "--fail-open")
			c.hello()
			if a := c.call("hook.before_tool", wipe); a.Result["action"] != "continue" {
				t.Errorf("--fail-open before_tool: %s, want continue", a.raw)
			}
			if err := c.closeAndWait(); err != nil {
				t.Errorf("exit: %v", err)
			}
		})
	}
}

// TestServerAutoIsStrict: the server --server auto starts denies the guard
// events while a file has no good version, as the hooks loaded in the
// agent's process fail closed.
func TestServerAutoIsStrict(t *testing.T) {
	runtime := privateTempDir(t)
	t.Cleanup(func() { stopServersUnder(t, runtime) })
	dir := guardPacks(t)
	writeOrFail(t, filepath.Join(dir, "destructive", "destructive.lua"), "hook.on(\"tool.execute.pre\", function(\n")
	env := []string{"XDG_RUNTIME_DIR=" + runtime, "HOOKHOST_AUTO_IDLE_EXIT=20s"}
	for i := range 2 { // the first call starts the server, the second finds it
		// wipeDisk: the settings pack, which loads, has no opinion on it.
		stdout, stderr, code := runAgentCmd(t, env, claudePre(wipeDisk), "claude", "--dir", dir, "--server", "auto")
		if r := (agentRun{stdout, stderr, code}); !r.blocked() || strings.Contains(stderr, "loading the hooks in this process") {
			t.Errorf("call %d: %v, want blocked by the server", i+1, r)
		}
	}
}
