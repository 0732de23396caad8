package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// A picoClient speaks PicoClaw's side of the process-hook protocol to a
// running "hookhost picoclaw", as PicoClaw's own client does: JSON-RPC
// 2.0, one object per line, integer ids, meta with capitalised keys.
type picoClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *lockedBuffer
	nextID int
	// early holds answers that arrived while another was awaited.
	early map[int]picoAnswer
	exit  chan error
}

type picoAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result map[string]any  `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// hang bounds every wait for the process, so that a broken build fails
// instead of hanging; it is not a timing assertion.
const hang = 2 * time.Minute

// startPicoclaw runs "hookhost picoclaw" (the test binary doubles as
// hookhost; see TestMain) on the test hooks directory dir.
func startPicoclaw(t *testing.T, dir string, args ...string) *picoClient {
	t.Helper()
	path, err := exec.LookPath("hookhost")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, append([]string{"picoclaw", "--dir", dir}, args...)...)
	cmd.Env = append(cmd.Environ(), "GORACE=atexit_sleep_ms=0")
	c := &picoClient{t: t, cmd: cmd, lines: make(chan []byte, 100), stderr: &lockedBuffer{}, early: map[int]picoAnswer{},
		exit: make(chan error, 1)}
	cmd.Stderr = c.stderr
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.readLines(stdout)
	t.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-c.exit:
		case <-time.After(hang):
			cmd.Process.Kill()
		}
	})
	return c
}

func (c *picoClient) readLines(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			c.lines <- line
		}
		if err != nil {
			close(c.lines)
			c.exit <- c.cmd.Wait()
			return
		}
	}
}

// send writes one line: v as JSON, or v itself when it is a string.
func (c *picoClient) send(v any) {
	c.t.Helper()
	line, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			c.t.Fatal(err)
		}
		line = string(b)
	}
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("writing to hookhost: %v", err)
	}
}

// request sends a request with the next id and returns the id.
func (c *picoClient) request(method string, params any) int {
	c.t.Helper()
	c.nextID++
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	return c.nextID
}

// call sends a request and waits for its answer.
func (c *picoClient) call(method string, params any) picoAnswer {
	c.t.Helper()
	return c.await(c.request(method, params))
}

// next reads the next answer line, checking it is a JSON-RPC 2.0
// response whose id is a JSON integer.
func (c *picoClient) next() picoAnswer {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("hookhost closed stdout; stderr:\n%s", c.stderr)
		}
		if len(line) >= 1<<20 {
			c.t.Fatalf("an answer line of %d bytes: PicoClaw reads at most 1 MiB", len(line))
		}
		var a picoAnswer
		var env struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(line, &a); err != nil || json.Unmarshal(line, &env) != nil || env.JSONRPC != "2.0" {
			c.t.Fatalf("stdout line is not a JSON-RPC 2.0 response: %.300s", line)
		}
		if !regexp.MustCompile(`^[1-9][0-9]*$`).Match(a.ID) {
			c.t.Fatalf("answer id %s is not a JSON integer: %.300s", a.ID, line)
		}
		a.raw = strings.TrimSpace(string(line))
		return a
	case <-time.After(hang):
		c.t.Fatalf("no answer; stderr:\n%s", c.stderr)
	}
	return picoAnswer{}
}

// await returns the answer to id, keeping others that come first.
func (c *picoClient) await(id int) picoAnswer {
	c.t.Helper()
	for {
		if a, ok := c.early[id]; ok {
			delete(c.early, id)
			return a
		}
		a := c.next()
		var got int
		json.Unmarshal(a.ID, &got)
		c.early[got] = a
	}
}

// hello shakes hands as PicoClaw does at start.
func (c *picoClient) hello() picoAnswer {
	c.t.Helper()
	return c.call("hook.hello", map[string]any{"name": "hookhost", "version": 1, "modes": []string{"observe", "llm", "tool", "approve"}})
}

// closeAndWait closes stdin and returns the exit error.
func (c *picoClient) closeAndWait() error {
	c.t.Helper()
	c.stdin.Close()
	for range c.lines {
	}
	select {
	case err := <-c.exit:
		c.exit <- err
		return err
	case <-time.After(hang):
		c.t.Fatal("hookhost did not exit after stdin ended")
	}
	return nil
}

// meta and context are what PicoClaw sends with every call.
var (
	picoMeta = map[string]any{"AgentID": "main", "TurnID": "turn-7", "ParentTurnID": "", "SessionKey": "agent:main:telegram:42",
		"Iteration": 1, "TracePath": "runTurn", "Source": "turn.tool"}
	picoContext = map[string]any{"inbound": map[string]any{"channel": "telegram", "chat_id": "42", "sender_id": "u-1"}}
)

func toolCall(tool string, args map[string]any) map[string]any {
	return map[string]any{"meta": picoMeta, "context": picoContext, "tool": tool, "arguments": args}
}

func testdataDir(t *testing.T, name string) string {
	dir, err := filepath.Abs(filepath.Join("testdata", "picoclaw", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestPicoclawHello(t *testing.T) {
	c := startPicoclaw(t, testdataDir(t, "lua"))
	a := c.hello()
	if a.raw != `{"jsonrpc":"2.0","id":1,"result":{"name":"hookhost","version":1}}` {
		t.Errorf("hello answer %s", a.raw)
	}
	a = c.call("hook.hello", map[string]any{"name": "x", "version": 2})
	if a.Error == nil || a.Error.Code != -32602 {
		t.Errorf("hello with version 2: %s, want error -32602", a.raw)
	}
	a = c.call("hook.hello", map[string]any{"name": "x", "protocol_version": 1})
	if a.Result["version"] != 1.0 {
		t.Errorf("hello with protocol_version 1: %s", a.raw)
	}
	if err := c.closeAndWait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestPicoclawActions drives every decision through every stage, with
// the hooks in Lua and in Starlark.
func TestPicoclawActions(t *testing.T) {
	for _, lang := range []string{"lua", "star"} {
		t.Run(lang, func(t *testing.T) {
			c := startPicoclaw(t, testdataDir(t, lang))
			c.hello()
			for _, tc := range picoCases(lang) {
				a := c.call(tc.method, tc.params)
				if got := jsonOf(a.Result); a.Error != nil || got != tc.want {
					t.Errorf("%s %s:\n got %s\nwant %s", tc.method, jsonOf(tc.params), a.raw, tc.want)
				}
			}
			if err := c.closeAndWait(); err != nil {
				t.Errorf("exit: %v", err)
			}
			if lang == "lua" && !strings.Contains(c.stderr.String(), "cannot add messages") {
				t.Errorf("dropped messages were not logged; stderr:\n%s", c.stderr)
			}
		})
	}
}

type picoCase struct {
	method string
	params map[string]any
	want   string
}

func picoCases(lang string) []picoCase {
	arg := func(action string) map[string]any { return map[string]any{"action": action, "path": "/tmp/x"} }
	envelope := func(tool string, args map[string]any) string { return jsonOf(toolCall(tool, args)) }
	modified := arg("modify")
	modified["checked"] = true
	result := map[string]any{"for_llm": "secret", "for_user": "", "silent": false, "is_error": true, "async": false}
	after := toolCall("bash", arg("redact"))
	after["result"], after["duration"] = result, 1500000
	redacted := toolCall("bash", arg("redact"))
	redacted["result"], redacted["duration"] = map[string]any{"for_llm": "[redacted] error=secret ms=1.5", "for_user": "",
		"silent": false, "is_error": true, "async": false}, 1500000
	if lang == "star" {
		redacted["result"].(map[string]any)["for_llm"] = "[redacted] error=secret ms=1.5"
	}
	llm := func(model string) map[string]any {
		return map[string]any{"meta": picoMeta, "context": picoContext, "model": model,
			"messages": []any{map[string]any{"role": "user", "content": "hi"}}, "tools": []any{}, "options": map[string]any{"temperature": 0.5}}
	}
	llmModified := llm("modify")
	llmModified["messages"] = []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "user", "content": "added by a hook"}}
	out := map[string]any{"meta": picoMeta, "model": "modify", "response": map[string]any{"content": "secret", "tool_calls": []any{}}}
	outModified := map[string]any{"meta": picoMeta, "model": "modify", "response": map[string]any{"content": "[rewritten]", "tool_calls": []any{}}}
	return []picoCase{
		{"hook.before_tool", toolCall("bash", arg("none")), `{"action":"continue"}`},
		{"hook.before_tool", toolCall("bash", arg("deny")), `{"action":"deny_tool","reason":"denied bash in agent:main:telegram:42/turn-7 from telegram:u-1"}`},
		{"hook.before_tool", toolCall("bash", arg("ask")), `{"action":"deny_tool","reason":"approval required: a human must look"}`},
		{"hook.before_tool", toolCall("bash", arg("respond")), `{"action":"respond","result":{"for_llm":"canned output","is_error":false}}`},
		{"hook.before_tool", toolCall("bash", arg("respond_object")), `{"action":"respond","result":{"for_llm":"from the hook","for_user":"shown","is_error":true}}`},
		{"hook.before_tool", toolCall("bash", arg("abort")), `{"action":"abort_turn","reason":"stop the turn"}`},
		{"hook.before_tool", toolCall("bash", arg("hard_abort")), `{"action":"hard_abort","reason":"stop everything"}`},
		{"hook.before_tool", toolCall("bash", arg("modify")), `{"action":"modify","call":` + envelope("bash", modified) + `}`},
		{"hook.before_tool", toolCall("bash", arg("rename")), `{"action":"modify","call":` + envelope("safe_bash", arg("rename")) + `}`},
		{"hook.before_tool", toolCall("bash", arg("allow")), `{"action":"continue","reason":"fine"}`},
		{"hook.before_tool", toolCall("bash", arg("message")), `{"action":"continue"}`},
		{"hook.before_tool", map[string]any{"meta": picoMeta, "tool": "list"}, `{"action":"continue"}`},
		{"hook.approve_tool", toolCall("bash", arg("allow")), `{"approved":true}`},
		{"hook.approve_tool", toolCall("bash", arg("none")), `{"approved":true}`},
		{"hook.approve_tool", toolCall("bash", arg("deny")), `{"approved":false,"reason":"no"}`},
		{"hook.approve_tool", toolCall("bash", arg("ask")), `{"approved":false,"reason":"approval required: a human decides"}`},
		{"hook.after_tool", after, `{"action":"modify","result":` + jsonOf(redacted) + `}`},
		{"hook.after_tool", toolCall("bash", arg("none")), `{"action":"continue"}`},
		{"hook.before_llm", llm("modify"), `{"action":"modify","request":` + jsonOf(llmModified) + `}`},
		{"hook.before_llm", llm("respond"), `{"action":"continue"}`},
		{"hook.before_llm", llm("abort"), `{"action":"abort_turn","reason":"no more model calls"}`},
		{"hook.before_llm", llm("none"), `{"action":"continue"}`},
		{"hook.after_llm", out, `{"action":"modify","response":` + jsonOf(outModified) + `}`},
	}
}

// TestPicoclawRobustness: notifications, malformed lines, unknown
// methods, a 2 MiB request line and an answer that would pass 1 MiB, and
// nothing but protocol on stdout.
func TestPicoclawRobustness(t *testing.T) {
	c := startPicoclaw(t, testdataDir(t, "lua"))
	c.hello()
	c.send(map[string]any{"jsonrpc": "2.0", "method": "hook.runtime_event", "params": map[string]any{
		"id": "evt-1", "kind": "agent.tool.exec_start", "time": "2026-12-01T09:00:00Z",
		"source": map[string]any{"component": "agent", "name": "main"}, "payload": map[string]any{"tool": "bash"}}})
	for _, line := range []string{"not json", `{"jsonrpc":"2.0"`, `[1,2]`, `{"jsonrpc":"2.0","method":"hook.unknown_notification"}`} {
		c.send(line)
	}
	if a := c.call("hook.no_such_method", map[string]any{}); a.Error == nil || a.Error.Code != -32601 {
		t.Errorf("unknown method: %s, want error -32601", a.raw)
	}
	// The notification is fired (an observe hook records its kind) on its
	// own goroutine, and never answered: every answer is a request's.
	for i := 0; ; i++ {
		a := c.call("hook.before_tool", toolCall("bash", map[string]any{"action": "seen"}))
		if jsonOf(a.Result) == `{"action":"deny_tool","reason":"runtime event seen: agent.tool.exec_start"}` {
			break
		}
		if i == 2000 {
			t.Fatalf("the runtime event never reached its hook: %s", a.raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
	blob := strings.Repeat("x", 2<<20)
	if a := c.call("hook.before_tool", toolCall("write_file", map[string]any{"action": "deny", "content": blob})); a.Result["action"] != "deny_tool" {
		t.Errorf("2 MiB request: %.200s", a.raw)
	}
	if a := c.call("hook.before_tool", toolCall("write_file", map[string]any{"action": "big", "content": blob})); jsonOf(a.Result) != `{"action":"continue"}` {
		t.Errorf("a modify past 1 MiB: %.200s, want continue", a.raw)
	}
	if a := c.call("hook.before_tool", toolCall("bash", map[string]any{"action": "print"})); jsonOf(a.Result) != `{"action":"continue"}` {
		t.Errorf("print: %s", a.raw)
	}
	if err := c.closeAndWait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	stderr := c.stderr.String()
	for _, want := range []string{"skipping a malformed line", "line=3", "line=4", "line=5",
		"skipping an unknown notification", "answer too long for the agent"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not mention %q:\n%s", want, stderr)
		}
	}
	if len(c.early) > 0 {
		t.Errorf("unexpected answers: %v", c.early)
	}
}

// TestPicoclawConcurrency: a request whose hook waits is overtaken by a
// later one, and answered when a third sets the flag it waits for.
func TestPicoclawConcurrency(t *testing.T) {
	c := startPicoclaw(t, testdataDir(t, "slow"))
	c.hello()
	waiting := c.request("hook.before_tool", toolCall("bash", map[string]any{"action": "wait"}))
	fast := c.request("hook.before_tool", toolCall("bash", map[string]any{"action": "fast"}))
	first := c.next()
	if string(first.ID) != fmt.Sprint(fast) || first.Result["reason"] != "fast" {
		t.Fatalf("first answer %s, want the fast request's (id %d)", first.raw, fast)
	}
	c.request("hook.before_tool", toolCall("bash", map[string]any{"action": "go"}))
	if a := c.await(waiting); a.Result["reason"] != "waited" {
		t.Errorf("waiting request: %s", a.raw)
	}
	if err := c.closeAndWait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestPicoclawTimeouts: a hook past its own deadline is skipped at
// before_tool and denies at approve_tool; a chain that outlasts PicoClaw's
// timeout is ended by hookhost, which answers first — with a denial at
// these guard methods, since the hooks that did not run may have denied.
//
// The spinning hook's deadline (300ms) and PicoClaw's (3s) are far apart,
// so that on a loaded machine the second cannot come first. The spinning
// hooks are called one at a time (a call in flight holds one of the
// GOMAXPROCS run slots until PicoClaw's deadline, and a call waiting for a
// slot would meet that deadline first); the two chains that outlast
// PicoClaw's deadline are in flight at once, so the test waits for it
// once, not twice (a second call that waits for a slot is answered the
// same way at the same deadline).
func TestPicoclawTimeouts(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	c := startPicoclaw(t, testdataDir(t, "slow"), "--interceptor-timeout", "3s", "--approval-timeout", "3s")
	c.hello()
	cases := []struct{ method, action, want string }{
		{"hook.before_tool", "spin", `{"action":"continue"}`},
		{"hook.approve_tool", "spin", `{"approved":false,"reason":"hook slow.lua:approve-spin timed out after 300ms"}`},
		{"hook.before_tool", "slow", `{"action":"deny_tool","reason":"hookhost: fire tool.execute.pre: context deadline exceeded"}`},
		{"hook.approve_tool", "slow", `{"approved":false`},
	}
	answers := make([]picoAnswer, len(cases))
	ids := map[int]int{} // the chains in flight: case → request id
	for i, tc := range cases {
		id := c.request(tc.method, toolCall("bash", map[string]any{"action": tc.action}))
		if tc.action == "spin" {
			answers[i] = c.await(id)
		} else {
			ids[i] = id
		}
	}
	for i, id := range ids {
		answers[i] = c.await(id)
	}
	for i, tc := range cases {
		a := answers[i]
		if got := jsonOf(a.Result); !strings.HasPrefix(got, strings.TrimSuffix(tc.want, "}")) {
			t.Errorf("%s %s: %s, want %s", tc.method, tc.action, a.raw, tc.want)
		}
	}
	if err := c.closeAndWait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if !strings.Contains(c.stderr.String(), "context deadline exceeded") {
		t.Errorf("the deadline was not logged:\n%s", c.stderr)
	}
}

// TestPicoclawEOF: at the end of stdin, in-flight requests are answered
// when they finish in time, abandoned when they do not, and the process
// exits 0.
func TestPicoclawEOF(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	c := startPicoclaw(t, testdataDir(t, "slow"))
	c.hello()
	c.request("hook.before_tool", toolCall("bash", map[string]any{"action": "wait"}))
	fast := c.request("hook.before_tool", toolCall("bash", map[string]any{"action": "fast"}))
	if a := c.await(fast); a.Result["reason"] != "fast" {
		t.Errorf("fast: %s", a.raw)
	}
	if err := c.closeAndWait(); err != nil {
		t.Errorf("exit with a request still waiting: %v, want 0", err)
	}
	if !strings.Contains(c.stderr.String(), "abandoned") {
		t.Errorf("the abandoned request was not logged:\n%s", c.stderr)
	}
}

// TestPicoclawBrokenDir: hello is answered whatever the hooks' state;
// calls then fail closed at the guard methods (before_tool denies,
// approve_tool denies) and as their events do elsewhere; with --fail-open
// before_tool continues, and approve_tool still denies, as PicoClaw
// itself does when its approval hook fails.
func TestPicoclawBrokenDir(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		beforeTool string
	}{
		{nil, `"action":"deny_tool","reason":"hookhost: reading the hooks directory: `},
		{[]string{"--fail-open"}, `{"action":"continue"}`},
	} {
		c := startPicoclaw(t, filepath.Join(t.TempDir(), "missing"), tc.args...)
		if a := c.hello(); a.Result["name"] != "hookhost" {
			t.Fatalf("hello: %s", a.raw)
		}
		if a := c.call("hook.before_tool", toolCall("bash", nil)); !strings.Contains(jsonOf(a.Result), tc.beforeTool) {
			t.Errorf("%v before_tool: %s, want %s", tc.args, a.raw, tc.beforeTool)
		}
		if a := c.call("hook.approve_tool", toolCall("bash", nil)); a.Result["approved"] != false {
			t.Errorf("%v approve_tool: %s, want approved false", tc.args, a.raw)
		}
		if a := c.call("hook.after_tool", toolCall("bash", nil)); jsonOf(a.Result) != `{"action":"continue"}` {
			t.Errorf("%v after_tool: %s, want continue", tc.args, a.raw)
		}
		if err := c.closeAndWait(); err != nil {
			t.Errorf("exit: %v", err)
		}
		if !strings.Contains(c.stderr.String(), "cannot load the hooks") {
			t.Errorf("stderr:\n%s", c.stderr)
		}
	}
}

// TestPicoclawReload: a hook file changed while the process runs serves
// the next calls.
func TestPicoclawReload(t *testing.T) {
	dir := t.TempDir()
	write := func(reason string) {
		t.Helper()
		src := `hook.on("tool.execute.pre", function() return hook.deny("` + reason + `") end, { name = "g" })`
		if err := writeFile(filepath.Join(dir, "g.lua"), src); err != nil {
			t.Fatal(err)
		}
	}
	write("first")
	c := startPicoclaw(t, dir)
	c.hello()
	if a := c.call("hook.before_tool", toolCall("bash", nil)); a.Result["reason"] != "first" {
		t.Fatalf("before the edit: %s", a.raw)
	}
	write("second")
	for i := 0; ; i++ { // the watcher reloads within a debounce; poll until it has
		a := c.call("hook.before_tool", toolCall("bash", nil))
		if a.Result["reason"] == "second" {
			break
		}
		if i == 2000 {
			t.Fatalf("the edit never took effect: %s", a.raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := c.closeAndWait(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
