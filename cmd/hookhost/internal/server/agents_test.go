package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
	"github.com/hookhost/hookhost/host"
)

// testAgents are the dialects the agent tests serve.
var testAgents = []adapter.CommandDialect{claude.Dialect{}, gemini.Dialect{}, codex.Dialect{}}

// guardBackend denies a tool call whose command holds "rm -rf", asks for
// one holding "sudo", fails a fire whose payload has "fail", and has no
// opinion on anything else. started/release, when set, hold each fire.
type guardBackend struct {
	fakeBackend
}

func (g *guardBackend) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	if g.started != nil {
		g.started <- struct{}{}
		<-g.release
	}
	res := host.Result{Event: event, Decision: host.Decision{Action: host.Continue}, Payload: payload}
	if _, ok := payload["fail"]; ok {
		return host.Result{}, errors.New("the hooks are on fire")
	}
	params, _ := payload["params"].(map[string]any)
	cmd, _ := params["command"].(string)
	switch {
	case strings.Contains(cmd, "rm -rf"):
		res.Decision = host.Decision{Action: host.Deny, Reason: "no rm -rf", Hook: "guard.lua:rm"}
	case strings.Contains(cmd, "sudo"):
		res.Decision = host.Decision{Action: host.Ask, Reason: "sudo?", Hook: "guard.lua:sudo"}
	}
	return res, nil
}

// claudeEvent is a Claude Code event as its command hooks get it.
func claudeEvent(event string, extra string) string {
	return `{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":"/work","permission_mode":"default",` +
		`"hook_event_name":"` + event + `"` + extra + `}`
}

func bash(cmd string) string {
	return `,"tool_name":"Bash","tool_input":{"command":"` + cmd + `"}`
}

func TestAgentEndpoints(t *testing.T) {
	base := serve(t, Options{Backend: &guardBackend{}, Agents: testAgents, MaxBody: 1024})
	big := `,"pad":"` + strings.Repeat("x", 2048) + `"`
	for _, tc := range []struct {
		name, path, body string
		code             int
		want             string // the whole body, but for the trailing newline
	}{
		{"claude denies", "/v1/agents/claude", claudeEvent("PreToolUse", bash("rm -rf /")), 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}`},
		{"claude asks", "/v1/agents/claude", claudeEvent("PreToolUse", bash("sudo ls")), 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sudo?"}}`},
		{"claude, no opinion", "/v1/agents/claude", claudeEvent("PreToolUse", bash("ls")), 200, ``},
		{"claude, an event hookhost does not map", "/v1/agents/claude", claudeEvent("PreCompact", ""), 200, ``},
		{"codex cannot ask", "/v1/agents/codex", claudeEvent("PreToolUse", bash("sudo ls")), 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"approval required: sudo?"}}`},
		{"gemini denies", "/v1/agents/gemini",
			`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`, 200,
			`{"decision":"deny","reason":"no rm -rf"}`},
		{"the event in the path", "/v1/agents/claude/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`, 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}`},
		{"the path and the body disagree", "/v1/agents/claude/Stop", claudeEvent("PreToolUse", bash("rm -rf /")), 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookhost: PreToolUse: not a claude Stop event: it names itself \"PreToolUse\""}}`},
		{"the path names a guard the body does not", "/v1/agents/claude/UserPromptSubmit", claudeEvent("Stop", ""), 200,
			`{"decision":"block","reason":"hookhost: UserPromptSubmit: not a claude UserPromptSubmit event: it names itself \"Stop\""}`},
		{"neither is a guard", "/v1/agents/claude/SessionStart", claudeEvent("Stop", ""), 400,
			`{"error":"Stop: not a claude SessionStart event: it names itself \"Stop\""}`},
		{"unknown agent", "/v1/agents/vim", claudeEvent("PreToolUse", bash("rm -rf /")), 404,
			`{"error":"unknown agent \"vim\" (want one of claude, gemini, codex)"}`},
		{"not JSON", "/v1/agents/claude", `PreToolUse rm -rf /`, 400,
			`{"error":"not a claude hook event: payload: invalid JSON at byte 1: invalid character 'P' looking for beginning of value"}`},
		{"an array", "/v1/agents/claude", `[1]`, 400,
			`{"error":"not a claude hook event: payload: want a JSON object, got an array"}`},
		{"empty", "/v1/agents/claude", ``, 400, `{"error":"not a claude hook event: empty"}`},
		// Where hookhost cannot decide a guard event, it blocks, with 200.
		{"cut short at a guard event", "/v1/agents/claude", `{"hook_event_name":"PreToolUse","tool_input":{"command":"rm -rf /"`, 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookhost: PreToolUse: not a claude hook event: payload: invalid JSON: unexpected end after 66 bytes"}}`},
		{"a fire that fails at a guard event", "/v1/agents/claude", claudeEvent("UserPromptSubmit", `,"prompt":"hi","fail":1`), 200,
			`{"decision":"block","reason":"hookhost: UserPromptSubmit: the fire failed: the hooks are on fire"}`},
		{"a fire that fails elsewhere", "/v1/agents/claude", claudeEvent("PostToolUse", `,"fail":1`), 503,
			`{"error":"PostToolUse: the fire failed: the hooks are on fire"}`},
		{"over the body limit at a guard event", "/v1/agents/claude", claudeEvent("PreToolUse", bash("rm -rf /")+big), 200,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookhost: PreToolUse: the body is 2237 bytes, over the limit of 1024"}}`},
		{"over the body limit elsewhere", "/v1/agents/claude", claudeEvent("Stop", big), 413,
			`{"error":"Stop: the body is 2176 bytes, over the limit of 1024"}`},
		{"gemini cannot deny a model request: it stops", "/v1/agents/gemini", `{"hook_event_name":"BeforeModel","fail":1}`, 200,
			`{"continue":false,"stopReason":"hookhost: BeforeModel: the fire failed: the hooks are on fire"}`},
		{"codex, over the limit", "/v1/agents/codex", claudeEvent("PermissionRequest", bash("rm -rf /")+big), 200,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"hookhost: PermissionRequest: the body is 2244 bytes, over the limit of 1024"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, hdr, body := request{method: "POST", path: tc.path, contentType: jsonCT, body: tc.body}.do(t, base)
			if code != tc.code || strings.TrimSuffix(body, "\n") != tc.want {
				t.Errorf("POST %s\n got %d %s\nwant %d %s", tc.path, code, body, tc.code, tc.want)
			}
			if body != "" && (!json.Valid([]byte(body)) || hdr.Get("Content-Type") != jsonCT) {
				t.Errorf("answer %q with Content-Type %q: want one JSON object", body, hdr.Get("Content-Type"))
			}
			if body == "" && hdr.Get("Content-Length") != "0" {
				t.Errorf("an empty answer with Content-Length %q", hdr.Get("Content-Length"))
			}
			// The refusals, and only they, are marked (hookhost-hook hands
			// those calls to hookhost, which decides them itself).
			refused := code == 200 && strings.Contains(tc.want, `"hookhost: `)
			if marked := hdr.Get(RefusalHeader) != ""; marked != refused {
				t.Errorf("%s: %q, want it there: %v", RefusalHeader, hdr.Get(RefusalHeader), refused)
			}
		})
	}
}

// The door's rules hold at the agent endpoints: the token, the content
// type, the Host, the method.
func TestAgentDoor(t *testing.T) {
	base := serve(t, Options{Backend: &guardBackend{}, Agents: testAgents, Token: "s3cret"})
	deny := claudeEvent("PreToolUse", bash("rm -rf /"))
	for _, tc := range []struct {
		name string
		req  request
		code int
	}{
		{"no token", request{method: "POST", contentType: jsonCT, body: deny}, 401},
		{"wrong token", request{method: "POST", contentType: jsonCT, body: deny, auth: "Bearer s3cre"}, 401},
		{"text/plain", request{method: "POST", contentType: "text/plain", body: deny, auth: "Bearer s3cret"}, 415},
		{"rebinding", request{method: "POST", contentType: jsonCT, body: deny, auth: "Bearer s3cret", host: "evil.example"}, 421},
		{"GET", request{method: "GET", auth: "Bearer s3cret"}, 405},
		{"the token", request{method: "POST", contentType: jsonCT, body: deny, auth: "Bearer s3cret"}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.path = "/v1/agents/claude"
			code, _, body := tc.req.do(t, base)
			if code != tc.code {
				t.Errorf("%d %s, want %d", code, body, tc.code)
			}
			if code == 200 && !strings.Contains(body, `"permissionDecision":"deny"`) {
				t.Errorf("answer %s, want a deny", body)
			}
		})
	}
	if code, _, body := (request{method: "POST", path: "/v1/agents/claude", contentType: jsonCT}).do(t, serve(t, Options{Backend: &guardBackend{}})); code != 404 {
		t.Errorf("a server with no agents: %d %s, want 404", code, body)
	}
}

// Over the fire slots, a guard event is denied with 200 while other
// events get 503 with Retry-After; the fire admitted is answered.
func TestAgentBusy(t *testing.T) {
	gb := &guardBackend{fakeBackend{started: make(chan struct{}), release: make(chan struct{})}}
	_, addr := startServer(t, Options{Backend: gb, Agents: testAgents, MaxFires: 1, FireQueue: -1, RequestTimeout: time.Hour})
	base := "http://" + addr
	done := make(chan string, 1)
	go func() {
		_, _, body := request{method: "POST", path: "/v1/agents/claude", contentType: jsonCT,
			body: claudeEvent("PreToolUse", bash("rm -rf /"))}.do(t, base)
		done <- body
	}()
	<-gb.started // the slot is taken
	code, _, body := request{method: "POST", path: "/v1/agents/claude", contentType: jsonCT,
		body: claudeEvent("PreToolUse", bash("ls"))}.do(t, base)
	if code != 200 || !strings.Contains(body, `"permissionDecision":"deny"`) || !strings.Contains(body, "busy: every fire slot is taken") {
		t.Errorf("a guard event over the cap: %d %s, want 200 with a deny saying busy", code, body)
	}
	code, hdr, body := request{method: "POST", path: "/v1/agents/claude", contentType: jsonCT,
		body: claudeEvent("PostToolUse", bash("ls"))}.do(t, base)
	if code != 503 || hdr.Get("Retry-After") == "" {
		t.Errorf("another event over the cap: %d %s, want 503 with Retry-After", code, body)
	}
	gb.release <- struct{}{}
	if body := <-done; !strings.Contains(body, `"permissionDecisionReason":"no rm -rf"`) {
		t.Errorf("the admitted event: %s", body)
	}
}

// A body that would take more than the request memory once decoded
// cannot be fired; at a guard event it is denied.
func TestAgentRequestMemory(t *testing.T) {
	_, addr := startServer(t, Options{Backend: &guardBackend{}, Agents: testAgents, MaxBody: 4096, RequestMemory: 4096})
	many := `,"x":[` + strings.Repeat("1,", 500) + `1]`
	code, _, body := request{method: "POST", path: "/v1/agents/claude", contentType: jsonCT,
		body: claudeEvent("PreToolUse", bash("ls")+many)}.do(t, "http://"+addr)
	if code != 200 || !strings.Contains(body, `"permissionDecision":"deny"`) || !strings.Contains(body, "request memory") {
		t.Errorf("%d %s, want a 200 deny naming the request memory", code, body)
	}
}

// The body of an http hook is what the command hook prints, byte for
// byte: one mapping, two transports.
func TestAgentAnswerIsTheCommandAnswer(t *testing.T) {
	base := serve(t, Options{Backend: &guardBackend{}, Agents: testAgents})
	for _, d := range testAgents {
		for _, event := range []string{claudeEvent("PreToolUse", bash("rm -rf /")),
			`{"hook_event_name":"BeforeTool","tool_input":{"command":"sudo x"}}`, claudeEvent("PostToolUse", "")} {
			var stdout strings.Builder
			err := adapter.RunCommand(context.Background(), adapter.CommandOptions{Dialect: d,
				Connect: func(context.Context, adapter.Call) (adapter.Firer, error) { return nopCloser{&guardBackend{}}, nil }},
				strings.NewReader(event), &stdout)
			if err != nil {
				t.Fatalf("%s: %v", d.Name(), err)
			}
			code, _, body := request{method: "POST", path: "/v1/agents/" + d.Name(), contentType: jsonCT, body: event}.do(t, base)
			if code != http.StatusOK || body != stdout.String() {
				t.Errorf("%s %s\nhttp    %d %q\ncommand %q", d.Name(), event, code, body, stdout.String())
			}
		}
	}
}

// A body of unknown length (chunked) over the limit is judged by what
// arrived of it: its start names a guard event, so it is denied.
func TestAgentChunkedOverTheLimit(t *testing.T) {
	base := serve(t, Options{Backend: &guardBackend{}, Agents: testAgents, MaxBody: 1024})
	start := strings.TrimSuffix(claudeEvent("PreToolUse", bash("ls")), "}") + `,"pad":"`
	body := io.MultiReader(strings.NewReader(start), strings.NewReader(strings.Repeat("x", 4096)+`"}`))
	resp, err := http.Post(base+"/v1/agents/claude", jsonCT, body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(got), `"permissionDecision":"deny"`) || !strings.Contains(string(got), "over the limit of 1024") {
		t.Errorf("%d %s, want a 200 deny naming the limit", resp.StatusCode, got)
	}
}

type nopCloser struct{ Backend }

func (nopCloser) Close() error { return nil }
