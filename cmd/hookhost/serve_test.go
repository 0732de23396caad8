package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// guards deny "rm -rf /" in both languages, on two events.
var guards = map[string]string{
	"guard.lua": `hook.on("tool.execute.pre", function(tool_name, params)
  if tool_name == "bash" and params.command:find("rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  end
end, { name = "no-rm-root", priority = 50, timeout = "1s" })
`,
	"guard.star": `def no_sudo(tool_name, params):
    if tool_name == "bash" and params.get("command", "").startswith("sudo "):
        return hook.deny("no sudo")

hook.on("tool.execute.pre", no_sudo, priority = 40, timeout = "1s")
`,
}

// zeroed sets every duration_ms of a fire --json object to 0.
func zeroed(s string) string { return durationField.ReplaceAllString(s, `"duration_ms":0`) }

// runCLI runs a one-shot command in-process and returns its stdout.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runMain(context.Background(), append([]string{"hookhost"}, args...), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("hookhost %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// The served answers are the one-shot commands' JSON, byte for byte.
func TestServeAnswersAsTheCLI(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	s := startServe(t, nil, "--dir", dir)
	for _, payload := range []string{
		`{"tool_name":"bash","params":{"command":"rm -rf /"}}`,
		`{"tool_name":"bash","params":{"command":"sudo ls"}}`,
		`{"tool_name":"bash","params":{"command":"ls"}}`,
	} {
		code, got := s.fire("tool.execute.pre", payload)
		want := runCLI(t, "fire", "--dir", dir, "--json", "tool.execute.pre", payload)
		if code != 200 || zeroed(got) != zeroed(want) {
			t.Errorf("POST /v1/fire/tool.execute.pre %s:\n%d %s\nwant (fire --json)\n%s", payload, code, got, want)
		}
	}
	code, got := s.get("/v1/hooks")
	if want := runCLI(t, "list", "--dir", dir, "--json"); code != 200 || got != want {
		t.Errorf("GET /v1/hooks:\n%d %s\nwant (list --json)\n%s", code, got, want)
	}
	var st struct {
		Generation uint64 `json:"generation"`
		Files      []struct {
			Path, LiveVersion string
			Hooks             int
			Error             *string
		} `json:"files"`
	}
	code, got = s.get("/v1/status")
	if err := json.Unmarshal([]byte(got), &st); err != nil || code != 200 {
		t.Fatalf("GET /v1/status: %d %s (%v)", code, got, err)
	}
	if st.Generation < 1 || len(st.Files) != 2 || st.Files[0].Path != "guard.lua" || st.Files[0].Hooks != 1 || st.Files[0].Error != nil {
		t.Errorf("GET /v1/status = %s", got)
	}
	if code, got := s.get("/healthz"); code != 200 || got != "ok\n" {
		t.Errorf("GET /healthz: %d %q", code, got)
	}
	s.stop()
}

func TestServeRefusals(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	tokenFile := filepath.Join(t.TempDir(), "token")
	writeFiles(t, filepath.Dir(tokenFile), map[string]string{"token": "s3cret-token\n"})
	s := startServe(t, nil, "--dir", dir, "--max-body", "100", "--token-file", tokenFile)
	auth := []string{"Authorization", "Bearer s3cret-token"}
	for _, tc := range []struct {
		name                      string
		method, path, ctype, body string
		header                    []string
		code                      int
		want                      string
	}{
		{"bad JSON", "POST", "/v1/fire/tool.execute.pre", "application/json", `{"tool_name":`, auth, 400, `"error":"payload: invalid JSON`},
		{"unknown event", "POST", "/v1/fire/no.such.event", "application/json", `{}`, auth, 404, `unknown event \"no.such.event\"`},
		{"wrong method", "DELETE", "/v1/fire/tool.execute.pre", "", "", auth, 405, `method not allowed`},
		{"too large", "POST", "/v1/fire/tool.execute.pre", "application/json", `{"x":"` + strings.Repeat("a", 100) + `"}`, auth, 413, `over the limit of 100`},
		{"not JSON", "POST", "/v1/fire/tool.execute.pre", "text/plain", `{}`, auth, 415, `want Content-Type: application/json`},
		{"rebinding", "GET", "/v1/status", "", "", append([]string{"Host", "attacker.example:7878"}, auth...), 421, `not a loopback name`},
		{"no token", "GET", "/v1/status", "", "", nil, 401, `missing or wrong bearer token`},
		{"wrong token", "POST", "/v1/fire/tool.execute.pre", "application/json", `{}`, []string{"Authorization", "Bearer guess"}, 401, `bearer token`},
		{"metrics need the token", "GET", "/metrics", "", "", nil, 401, `bearer token`},
		{"health needs no token", "GET", "/healthz", "", "", nil, 200, "ok"},
		{"with the token", "POST", "/v1/fire/tool.execute.pre", "application/json; charset=utf-8", `{"tool_name":"bash","params":{"command":"rm -rf /"}}`, auth, 200, `"action":"deny"`},
	} {
		code, got := s.call(tc.method, tc.path, tc.ctype, tc.body, tc.header...)
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %s %s: %d %s, want %d with %q", tc.name, tc.method, tc.path, code, got, tc.code, tc.want)
		}
	}
	s.stop()
	if strings.Contains(s.log.String(), "s3cret-token") {
		t.Errorf("the token is in the log:\n%s", s.log)
	}
	if !strings.Contains(s.log.String(), "the token file can be read by other users") {
		t.Errorf("no warning about the token file's mode 0644:\n%s", s.log)
	}
}

func TestServeTokenFromTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, []string{"HOOKHOST_TOKEN=from-env"}, "--dir", dir)
	if code, _ := s.get("/v1/hooks"); code != 401 {
		t.Errorf("GET /v1/hooks without the token: %d, want 401", code)
	}
	if code, _ := s.call("GET", "/v1/hooks", "", "", "Authorization", "Bearer from-env"); code != 200 {
		t.Errorf("GET /v1/hooks with the token: %d, want 200", code)
	}
	s.stop()
}

// Usage errors are refused before anything listens.
func TestServeRefusesAtStartup(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(t.TempDir(), "empty")
	writeFiles(t, filepath.Dir(empty), map[string]string{"empty": "\n"})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "0.0.0.0:0"}, "--http 0.0.0.0:0 is not a loopback address"},
		{[]string{"--http", ":0"}, "give a token (--token-file or $HOOKHOST_TOKEN), or --insecure-listen"},
		{[]string{"--http", "[::]:0"}, "is not a loopback address"},
		{[]string{"--token-file", empty}, "the file is empty"},
		{[]string{"--token-file", filepath.Join(dir, "missing")}, "--token-file: open"},
		{[]string{"--log-format", "xml"}, `--log-format "xml": want text or json`},
		{[]string{"--max-body", "0"}, "--max-body 0: want a positive number"},
		{[]string{"--max-request-memory", "1000"}, "--max-request-memory 1000: want at least --max-body (8388608 bytes)"},
		{[]string{"--max-connections", "0"}, "--max-connections 0: want a positive number"},
		{[]string{"--max-fires", "-1"}, "--max-fires -1: want a positive number"},
		{[]string{"--fire-queue", "-1"}, "--fire-queue -1: cannot be negative"},
		{[]string{"--request-timeout", "0s"}, "--request-timeout 0s: want a positive duration"},
		{[]string{"--idle-timeout", "-1s"}, "--idle-timeout -1s: want a positive duration"},
		{[]string{"--shutdown-timeout", "0s"}, "--shutdown-timeout 0s: want a positive duration"},
		{[]string{"--decision-log-payload"}, "--decision-log-payload needs --decision-log"},
		{[]string{"one", "two"}, `serve: want at most one directory, got 2 arguments`},
		{[]string{"--dir", filepath.Join(dir, "nope")}, "reading the hooks directory"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"hookhost", "serve", "--dir", dir}, tc.args...)
		code := runMain(context.Background(), args, nil, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("serve %s: exit %d, stderr %q; want 2 with %q", strings.Join(tc.args, " "), code, stderr.String(), tc.want)
		}
		if strings.Contains(stderr.String(), "listening on") {
			t.Errorf("serve %s listened before refusing", strings.Join(tc.args, " "))
		}
	}
}

func TestServeUnixSocket(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	sock := filepath.Join(t.TempDir(), "hookhost.sock")
	s := startServe(t, nil, "--dir", dir, "--http", "unix:"+sock)
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("socket: %v, %v; want a socket with mode 0600", fi, err)
	}
	code, got := s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"sudo rm x"}}`)
	if code != 200 || !strings.Contains(got, `"hook":"guard.star:no_sudo"`) {
		t.Errorf("fire over the socket: %d %s", code, got)
	}
	s.stop()
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("the socket is still there after SIGTERM: %v", err)
	}
}

// SIGTERM with a fire in flight: the fire is answered, then serve exits 0.
func TestServeSIGTERMFinishesFiresInFlight(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"slow.lua": `hook.on("turn.pre", function()
  print("slow hook started")
  local t = os.clock()
  while os.clock() - t < 0.05 do end
  return hook.modify({ prompt = "slowly" })
end, { name = "slow", timeout = "10s" })
`,
		"slow.star": `def slow(prompt):
    return hook.modify({"prompt": prompt + " and surely"})

hook.on("turn.pre", slow, priority = -1)
`,
	})
	s := startServe(t, nil, "--dir", dir)
	var wg sync.WaitGroup
	var code int
	var got string
	wg.Go(func() { code, got = s.fire("turn.pre", `{"prompt":"go"}`) })
	s.waitLog("slow hook started")
	s.signal(syscall.SIGTERM)
	wg.Wait()
	if code != 200 || !strings.Contains(got, `"prompt":"slowly and surely"`) {
		t.Errorf("the fire in flight at SIGTERM: %d %s", code, got)
	}
	if exit := s.wait(); exit != 0 {
		t.Errorf("exit %d after SIGTERM, want 0:\n%s", exit, s.log)
	}
	if !strings.Contains(s.log.String(), "stopping: finishing the requests in flight") {
		t.Errorf("no shutdown line in the log:\n%s", s.log)
	}
}

// TestServeIdleExit: serve with --idle-exit answers, then leaves by
// itself once idle. The idle time is long enough that a busy machine still
// sends the request before it (which is what the test needs), short
// enough that the test does not wait long.
func TestServeIdleExit(t *testing.T) {
	s := startServe(t, nil, "--dir", t.TempDir(), "--idle-exit", "1s")
	if code, _ := s.get("/healthz"); code != 200 {
		t.Errorf("GET /healthz: %d", code)
	}
	if exit := s.wait(); exit != 0 { // nobody stops it: it leaves by itself
		t.Errorf("exit %d after the idle exit, want 0:\n%s", exit, s.log)
	}
	if !strings.Contains(s.log.String(), "stopping: idle") {
		t.Errorf("no idle line in the log:\n%s", s.log)
	}
}

func TestServeJSONLog(t *testing.T) {
	s := startServe(t, nil, "--dir", t.TempDir(), "--log-format", "json")
	s.stop()
	for _, line := range s.log.Lines() {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["msg"] == nil || rec["time"] == nil {
			t.Errorf("log line %q is not a JSON record (%v)", line, err)
		}
	}
}

// The shipped hooks.d is what serve runs by default.
func TestServeShippedHooks(t *testing.T) {
	s := startServe(t, nil, "--dir", filepath.Join("..", "..", "hooks.d"))
	code, got := s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -rf /"}}`)
	if code != 200 || !strings.Contains(got, `"action":"deny"`) {
		t.Errorf("the shipped guardrails: %d %s", code, got)
	}
	s.stop()
}

func TestServeMetrics(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	writeFiles(t, dir, map[string]string{"boom.lua": `hook.on("turn.pre", function() error("boom") end, { name = "boom" })` + "\n"})
	s := startServe(t, nil, "--dir", dir)
	for range 3 {
		s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -rf /"}}`)
	}
	s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"ls"}}`)
	s.fire("turn.pre", `{"prompt":"hi"}`)
	code, text := s.get("/metrics")
	if code != 200 {
		t.Fatalf("GET /metrics: %d", code)
	}
	for _, want := range []string{
		`hookhost_fires_total{action="deny",event="tool.execute.pre"} 3`,
		`hookhost_fires_total{action="continue",event="tool.execute.pre"} 1`,
		`hookhost_fires_total{action="continue",event="turn.pre"} 1`,
		`hookhost_hook_duration_seconds_count{hook="guard.lua:no-rm-root"} 4`,
		`hookhost_hook_duration_seconds_count{hook="guard.star:no_sudo"} 1`,
		`hookhost_hook_errors_total{hook="boom.lua:boom"} 1`,
		`hookhost_fire_duration_seconds_count{event="tool.execute.pre"} 4`,
		`hookhost_decision_log_dropped_total 0`,
		`hookhost_reloads_total{trigger="start"} 1`,
		`hookhost_last_reload_successful 1`,
		`hookhost_load_problems 0`,
		`# TYPE hookhost_hook_duration_seconds histogram`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("no %q in /metrics", want)
		}
	}
	s.stop()
}

func TestServeDecisionLog(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	for _, withPayload := range []bool{false, true} {
		t.Run(fmt.Sprint("payload=", withPayload), func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "decisions.jsonl")
			args := []string{"--dir", dir, "--decision-log", logPath}
			if withPayload {
				args = append(args, "--decision-log-payload")
			}
			s := startServe(t, nil, args...)
			s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -rf /"},"secret":"hunter2"}`)
			s.fire("turn.pre", `{"prompt":"hello"}`)
			s.stop() // flushes
			data, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d lines, want 2:\n%s", len(lines), data)
			}
			var first struct {
				Event    string
				Decision struct{ Action, Reason, Hook string }
				Hooks    []struct{ Hook, Outcome string }
				Payload  map[string]any
			}
			if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
				t.Fatal(err)
			}
			if first.Event != "tool.execute.pre" || first.Decision.Action != "deny" || first.Decision.Hook != "guard.lua:no-rm-root" ||
				len(first.Hooks) != 1 || first.Hooks[0].Outcome != "decision" {
				t.Errorf("first line: %s", lines[0])
			}
			if hasSecret := strings.Contains(string(data), "hunter2"); hasSecret != withPayload || (first.Payload != nil) != withPayload {
				t.Errorf("payload in the log: %v, want %v:\n%s", hasSecret, withPayload, data)
			}
		})
	}
}

// --decision-log - writes the lines on stdout.
func TestServeDecisionLogOnStdout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	w := &watchedWriter{w: &stderr, seen: make(chan struct{}), text: "listening on http://"}
	go func() {
		done <- runMain(ctx, []string{"hookhost", "serve", "--dir", dir, "--http", "127.0.0.1:0", "--decision-log", "-"}, nil, &stdout, w)
	}()
	<-w.seen
	addr := listeningLine.FindStringSubmatch(w.String())[1]
	s := &served{t: t}
	s.connect(addr)
	s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"sudo ls"}}`)
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, w.String())
	}
	if !strings.Contains(stdout.String(), `"decision":{"action":"deny","reason":"no sudo","hook":"guard.star:no_sudo"}`) {
		t.Errorf("stdout = %q", stdout.String())
	}
}

// watchedWriter closes seen once what was written contains text.
type watchedWriter struct {
	w      *bytes.Buffer
	mu     sync.Mutex
	seen   chan struct{}
	text   string
	closed bool
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	if !w.closed && strings.Contains(w.w.String(), w.text) {
		w.closed = true
		close(w.seen)
	}
	return n, err
}

func (w *watchedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.String()
}

// The exposure rule without binding anything: a non-loopback address
// needs a token or --insecure-listen.
func TestCheckExposure(t *testing.T) {
	for _, tc := range []struct {
		http     string
		token    string
		insecure bool
		ok       bool
	}{
		{"127.0.0.1:7878", "", false, true},
		{"localhost:7878", "", false, true},
		{"[::1]:7878", "", false, true},
		{"unix:/tmp/x.sock", "", false, true},
		{"0.0.0.0:7878", "", false, false},
		{"0.0.0.0:7878", "tok", false, true},
		{"0.0.0.0:7878", "", true, true},
		{":7878", "", false, false},
		{"192.0.2.7:7878", "", false, false},
	} {
		o := &serveOptions{HTTP: tc.http, InsecureListen: tc.insecure}
		if err := o.checkExposure(context.Background(), tc.token); (err == nil) != tc.ok {
			t.Errorf("--http %s, token %q, insecure %v: %v, want ok %v", tc.http, tc.token, tc.insecure, err, tc.ok)
		}
	}
}
