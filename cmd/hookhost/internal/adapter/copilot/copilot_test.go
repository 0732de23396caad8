package copilot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/copilot"
	"github.com/hookhost/hookhost/host"
)

// decided folds to d with the messages given.
func decided(d host.Decision, msgs ...string) func(adapter.Call) host.Result {
	return func(call adapter.Call) host.Result {
		r := host.Result{Event: call.Event, Decision: d, Payload: call.Payload}
		for _, m := range msgs {
			r.Messages = append(r.Messages, host.Message{Role: "system", Content: m})
		}
		return r
	}
}

// changed folds to d with the payload's field set to v, as a modify does.
func changed(d host.Decision, field string, v any) func(adapter.Call) host.Result {
	return func(call adapter.Call) host.Result {
		p := maps.Clone(call.Payload)
		p[field] = v
		return host.Result{Event: call.Event, Decision: d, Payload: p}
	}
}

// event is Copilot's input for the event named, as the command line
// names it (Copilot's own input does not).
func event(name string, fields map[string]any) map[string]any {
	in := map[string]any{"sessionId": "s1", "timestamp": 1767225600000.0, "cwd": "/w"}
	maps.Copy(in, fields)
	in["hook_event_name"] = name
	return in
}

var (
	bash  = event("preToolUse", map[string]any{"toolName": "bash", "toolArgs": `{"command":"npm i","description":"install"}`})
	patch = event("preToolUse", map[string]any{"toolName": "apply_patch", "toolArgs": "*** Begin Patch\n*** Update File: a.go\n"})
	perm  = event("permissionRequest", map[string]any{"hookName": "permissionRequest", "toolName": "bash", "toolInput": map[string]any{"command": "rm -rf /"}})
	post  = event("postToolUse", map[string]any{"toolName": "bash", "toolArgs": `{"command":"cat .env"}`,
		"toolResult": map[string]any{"resultType": "success", "textResultForLlm": "API_KEY=sk-1"}})
	prompt = event("userPromptSubmitted", map[string]any{"prompt": "hello"})
	stop   = event("agentStop", map[string]any{"transcriptPath": "/t", "stopReason": "end_turn"})
	ci     = map[string]any{"command": "npm ci"}
)

// TestAnswers: every mapped event, every decision, and the exact answer
// ("" for none).
func TestAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		input  map[string]any
		result func(adapter.Call) host.Result
		want   string
	}{
		{"preToolUse continue", bash, decided(host.Decision{Action: host.Continue}), ""},
		{"preToolUse deny", bash, decided(host.Decision{Action: host.Deny, Reason: "no"}),
			`{"permissionDecision":"deny","permissionDecisionReason":"no"}`},
		{"preToolUse deny without a reason names the hook", bash, decided(host.Decision{Action: host.Deny, Hook: "a.lua:g"}),
			`{"permissionDecision":"deny","permissionDecisionReason":"denied by a.lua:g"}`},
		{"preToolUse deny with messages", bash, decided(host.Decision{Action: host.Deny, Reason: "no"}, "why"),
			`{"permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"why"}`},
		{"preToolUse ask", bash, decided(host.Decision{Action: host.Ask, Reason: "sudo"}),
			`{"permissionDecision":"ask","permissionDecisionReason":"sudo"}`},
		{"preToolUse ask never carries modifiedArgs", bash, changed(host.Decision{Action: host.Ask, Reason: "r"}, "params", ci),
			`{"permissionDecision":"ask","permissionDecisionReason":"r"}`},
		{"preToolUse deny never carries modifiedArgs", bash, changed(host.Decision{Action: host.Deny, Reason: "r"}, "params", ci),
			`{"permissionDecision":"deny","permissionDecisionReason":"r"}`},
		{"preToolUse modify", bash, changed(host.Decision{Action: host.Modify}, "params", ci), `{"modifiedArgs":{"command":"npm ci"}}`},
		{"preToolUse allow with new input", bash, changed(host.Decision{Action: host.Allow, Reason: "ok"}, "params", ci),
			`{"permissionDecision":"allow","permissionDecisionReason":"ok","modifiedArgs":{"command":"npm ci"}}`},
		{"preToolUse allow", bash, decided(host.Decision{Action: host.Allow}), `{"permissionDecision":"allow"}`},
		{"preToolUse respond", bash, decided(host.Decision{Action: host.Respond, Result: "fake"}),
			`{"permissionDecision":"deny","permissionDecisionReason":"fake"}`},
		{"preToolUse abort_turn", bash, decided(host.Decision{Action: host.AbortTurn, Reason: "stop"}),
			`{"permissionDecision":"deny","permissionDecisionReason":"stop"}`},
		{"preToolUse hard_abort", bash, decided(host.Decision{Action: host.HardAbort}),
			`{"permissionDecision":"deny","permissionDecisionReason":"stopped by hookhost"}`},
		{"preToolUse messages", bash, decided(host.Decision{Action: host.Continue}, "a", "b"), `{"additionalContext":"a\nb"}`},
		{"preToolUse modify of a raw-text tool gives text back", patch,
			changed(host.Decision{Action: host.Modify}, "params", map[string]any{"input": "*** Begin Patch\n"}),
			`{"modifiedArgs":"*** Begin Patch\n"}`},
		{"preToolUse modify of a raw-text tool to an object", patch,
			changed(host.Decision{Action: host.Modify}, "params", map[string]any{"input": "x", "more": 1.0}),
			`{"modifiedArgs":{"input":"x","more":1}}`},

		{"permissionRequest allow", perm, decided(host.Decision{Action: host.Allow}), `{"behavior":"allow"}`},
		{"permissionRequest deny", perm, decided(host.Decision{Action: host.Deny, Reason: "never"}), `{"behavior":"deny","message":"never"}`},
		{"permissionRequest ask leaves the dialog", perm, decided(host.Decision{Action: host.Ask}), ""},
		{"permissionRequest nothing", perm, decided(host.Decision{Action: host.Continue}), ""},

		{"userPromptSubmitted deny", prompt, decided(host.Decision{Action: host.Deny, Reason: "no"}), `{"decision":"block","reason":"no"}`},
		{"userPromptSubmitted abort", prompt, decided(host.Decision{Action: host.AbortTurn}), `{"decision":"block","reason":"blocked by hookhost"}`},
		{"userPromptSubmitted respond", prompt, decided(host.Decision{Action: host.Respond, Result: "hi"}), `{"handled":true,"responseContent":"hi"}`},
		{"userPromptSubmitted respond with nothing", prompt, decided(host.Decision{Action: host.Respond, Result: "", Hook: "p.lua:h"}), `{"decision":"block","reason":"answered by p.lua:h"}`},
		{"userPromptSubmitted messages", prompt, decided(host.Decision{Action: host.Continue}, "short"), `{"additionalContext":"short"}`},
		{"userPromptSubmitted modify", prompt, changed(host.Decision{Action: host.Modify}, "prompt", "rewritten"), `{"modifiedPrompt":"rewritten"}`},
		{"userPromptSubmitted modify to not text", prompt, changed(host.Decision{Action: host.Modify}, "prompt", 5.0), ""},
		{"userPromptSubmitted nothing", prompt, decided(host.Decision{Action: host.Continue}), ""},

		{"postToolUse a changed result object", post,
			changed(host.Decision{Action: host.Modify}, "result", map[string]any{"textResultForLlm": "[redacted]"}),
			`{"modifiedResult":{"textResultForLlm":"[redacted]"}}`},
		{"postToolUse a changed result text", post, changed(host.Decision{Action: host.Modify}, "result", "[redacted]"),
			`{"modifiedResult":{"textResultForLlm":"[redacted]"}}`},
		{"postToolUse messages", post, decided(host.Decision{Action: host.Continue}, "ran"), `{"additionalContext":"ran"}`},
		{"postToolUse abort blocks the result", post, decided(host.Decision{Action: host.AbortTurn, Reason: "enough"}),
			`{"decision":"block","reason":"enough"}`},
		{"postToolUse nothing", post, decided(host.Decision{Action: host.Continue}), ""},

		{"agentStop allow keeps working", stop, decided(host.Decision{Action: host.Allow, Reason: "tests"}), `{"decision":"block","reason":"tests"}`},
		{"agentStop allow without a reason", stop, decided(host.Decision{Action: host.Allow}),
			`{"decision":"block","reason":"` + adapter.KeepWorkingPrompt + `"}`},
		{"agentStop deny lets it stop", stop, decided(host.Decision{Action: host.Deny}), ""},
		{"subagentStop allow", event("subagentStop", nil), decided(host.Decision{Action: host.Allow, Reason: "r"}), `{"decision":"block","reason":"r"}`},

		{"sessionStart messages", event("sessionStart", map[string]any{"source": "new"}), decided(host.Decision{Action: host.Continue}, "rules"),
			`{"additionalContext":"rules"}`},
		{"sessionStart nothing", event("sessionStart", nil), decided(host.Decision{Action: host.Continue}), ""},
		{"sessionEnd", event("sessionEnd", map[string]any{"reason": "complete"}), decided(host.Decision{Action: host.Continue}), ""},
		{"errorOccurred", event("errorOccurred", nil), decided(host.Decision{Action: host.Continue}), ""},
		{"notification", event("notification", map[string]any{"hook_event_name": "Notification"}), decided(host.Decision{Action: host.Continue}), ""},
		{"unmapped", event("preCompact", nil), decided(host.Decision{Action: host.Deny}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := copilot.Dialect{}
			call := d.Request(tc.input)
			got := ""
			if call.Event != "" {
				if ans := d.Answer(call, tc.result(call)); ans.Output != nil {
					b, err := json.Marshal(ans.Output)
					if err != nil {
						t.Fatal(err)
					}
					got = string(b)
				}
			}
			if got != tc.want {
				t.Errorf("answer\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestArgs: toolArgs as Copilot's command hooks send it (JSON text), as
// its SDK does (an object), as raw text (apply_patch), and broken.
func TestArgs(t *testing.T) {
	for _, tc := range []struct {
		args any
		want string
	}{
		{`{"command":"ls"}`, `{"command":"ls"}`},
		{map[string]any{"command": "ls"}, `{"command":"ls"}`},
		{" {\"path\": \"/a\"} ", `{"path":"/a"}`},
		{"*** Begin Patch", `{"input":"*** Begin Patch"}`},
		{`["a"]`, `{"input":"[\"a\"]"}`},
		{`{"cut`, `{"input":"{\"cut"}`},
		{"", `{}`},
		{5.0, `{}`},
		{nil, `{}`},
	} {
		b, _ := json.Marshal(copilot.Args(tc.args))
		if string(b) != tc.want {
			t.Errorf("Args(%#v) = %s, want %s", tc.args, b, tc.want)
		}
	}
}

// TestRequest: what hooks see — the names the other agents' hooks know.
func TestRequest(t *testing.T) {
	d := copilot.Dialect{}
	for _, tc := range []struct {
		input map[string]any
		event string
		want  map[string]any
	}{
		{bash, "tool.execute.pre", map[string]any{"hook_event_name": "preToolUse", "tool_name": "bash", "session_id": "s1", "cwd": "/w",
			"workspace": "/w", "params": map[string]any{"command": "npm i", "description": "install"}, "toolArgs": `{"command":"npm i","description":"install"}`}},
		{perm, "tool.approve", map[string]any{"tool_name": "bash", "params": map[string]any{"command": "rm -rf /"}}},
		{event("permissionRequest", nil), "tool.approve", map[string]any{"params": map[string]any{}}},
		{post, "tool.execute.post", map[string]any{"params": map[string]any{"command": "cat .env"},
			"result": map[string]any{"resultType": "success", "textResultForLlm": "API_KEY=sk-1"}}},
		{stop, "loop.continue", map[string]any{"transcript_path": "/t", "stop_reason": "end_turn"}},
		{event("sessionStart", map[string]any{"source": "new", "initialPrompt": "p"}), "session.start",
			map[string]any{"source": "new", "initial_prompt": "p"}},
		{event("errorOccurred", map[string]any{"errorContext": "model_call"}), "error", map[string]any{"stage": "model_call"}},
		{map[string]any{"toolName": "bash"}, "", nil},
	} {
		call := d.Request(tc.input)
		if call.Event != tc.event {
			t.Errorf("%v: event %q, want %q", tc.input["hook_event_name"], call.Event, tc.event)
		}
		for k, v := range tc.want {
			got, _ := json.Marshal(call.Payload[k])
			want, _ := json.Marshal(v)
			if string(got) != string(want) {
				t.Errorf("%v: %s = %s, want %s", tc.input["hook_event_name"], k, got, want)
			}
		}
	}
}

// TestGuards: the guard events are those whose answer can stop a tool
// call, a permission or a prompt.
func TestGuards(t *testing.T) {
	var got []string
	for _, name := range adapter.SortedKeys(copilot.Events) {
		if copilot.Events[name].Guard {
			got = append(got, name)
		}
	}
	if want := "permissionRequest preToolUse userPromptSubmitted"; strings.Join(got, " ") != want {
		t.Errorf("guards %v, want %s", got, want)
	}
	for name := range copilot.Events {
		found := false
		for _, k := range copilot.Known {
			found = found || k == name
		}
		if !found {
			t.Errorf("mapped event %s is not in Known", name)
		}
	}
}

type failingFirer struct{}

func (failingFirer) Fire(context.Context, string, map[string]any) (host.Result, error) {
	return host.Result{}, errors.New("boom")
}

func (failingFirer) Close() error { return nil }

// TestFailures: hookhost's own failures as Copilot must read them. At
// the guard events the denial is printed and the status is 2 (a warning
// whose stdout is the answer); failing open never exits 1 at preToolUse,
// where 1 denies; elsewhere a failure exits 1 and prints nothing.
func TestFailures(t *testing.T) {
	down := func(context.Context, adapter.Call) (adapter.Firer, error) { return nil, errors.New("no hooks") }
	fails := func(context.Context, adapter.Call) (adapter.Firer, error) { return failingFirer{}, nil }
	for _, tc := range []struct {
		name      string
		event     string
		stdin     string
		connect   adapter.Connector
		status    int    // without --fail-open
		out       string // printed without --fail-open
		openState int    // with --fail-open
	}{
		{"preToolUse, no hooks", "preToolUse", `{"toolName":"bash","toolArgs":"{}"}`, down, 2,
			`{"permissionDecision":"deny","permissionDecisionReason":"hookhost: preToolUse: no hooks"}`, 2},
		{"preToolUse, fire fails", "preToolUse", `{"toolName":"bash"}`, fails, 2,
			`{"permissionDecision":"deny","permissionDecisionReason":"hookhost: preToolUse: boom"}`, 2},
		{"preToolUse, stdin not JSON", "preToolUse", `rm -rf /`, fails, 2, `{"permissionDecision":"deny","permissionDecisionReason":"hookhost: preToolUse: stdin is not a copilot hook event`, 2},
		{"preToolUse, stdin empty", "preToolUse", ``, fails, 2, `{"permissionDecision":"deny","permissionDecisionReason":"hookhost: preToolUse: stdin is empty`, 2},
		{"preToolUse, stdin cut short", "preToolUse", `{"toolArgs":"{\"command\":\"rm -rf /`, fails, 2, `{"permissionDecision":"deny"`, 2},
		{"permissionRequest, no hooks", "permissionRequest", `{}`, down, 2, `{"behavior":"deny","message":"hookhost: permissionRequest: no hooks"}`, 1},
		{"userPromptSubmitted, no hooks", "userPromptSubmitted", `{"prompt":"x"}`, down, 2,
			`{"decision":"block","reason":"hookhost: userPromptSubmitted: no hooks"}`, 1},
		{"agentStop, no hooks", "agentStop", `{}`, down, 1, ``, 1},
		{"postToolUse, fire fails", "postToolUse", `{}`, fails, 1, ``, 1},
		{"sessionStart, stdin not JSON", "sessionStart", `nope`, fails, 1, ``, 1},
		{"an unmapped event, stdin not JSON", "postToolUseFailure", `nope`, fails, 1, ``, 1},
		{"no event named, stdin not JSON", "", `nope`, fails, 1, ``, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, failOpen := range []bool{false, true} {
				var out bytes.Buffer
				opts := adapter.CommandOptions{Dialect: copilot.Dialect{}, Connect: tc.connect, FailOpen: failOpen, Event: tc.event}
				err := adapter.RunCommand(context.Background(), opts, strings.NewReader(tc.stdin), &out)
				var f *adapter.Failure
				if !errors.As(err, &f) {
					t.Fatalf("fail-open %v: %v, want a failure", failOpen, err)
				}
				status, printed := tc.status, tc.out
				if failOpen {
					status, printed = tc.openState, ""
				}
				if f.Status != status {
					t.Errorf("fail-open %v: status %d, want %d (%v)", failOpen, f.Status, status, err)
				}
				if printed == "" && out.Len() > 0 || !strings.HasPrefix(out.String(), printed) {
					t.Errorf("fail-open %v: stdout %q, want %q", failOpen, out.String(), printed)
				}
				if out.Len() > 0 && (!json.Valid(out.Bytes()) || bytes.Count(out.Bytes(), []byte("\n")) != 1) {
					t.Errorf("fail-open %v: stdout is not one JSON line: %q", failOpen, out.String())
				}
			}
		})
	}
}

// TestEventFromCommandLine: the event named by the transport wins over
// a name the input gives itself (Copilot's notification input says
// "Notification").
func TestEventFromCommandLine(t *testing.T) {
	var got string
	connect := func(_ context.Context, call adapter.Call) (adapter.Firer, error) {
		got = call.AgentEvent
		return failingFirer{}, nil
	}
	opts := adapter.CommandOptions{Dialect: copilot.Dialect{}, Connect: connect, Event: "notification"}
	_ = adapter.RunCommand(context.Background(), opts, strings.NewReader(`{"hook_event_name":"Notification","message":"m"}`), &bytes.Buffer{})
	if got != "notification" {
		t.Errorf("event %q, want notification", got)
	}
}

// TestSettings: one entry per mapped event, each naming its event;
// camelCase keys, timeoutSec, version 1.
func TestSettings(t *testing.T) {
	b, err := json.Marshal(copilot.Dialect{}.Settings("hookhost copilot --dir /h"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Version int                         `json:"version"`
		Hooks   map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || len(s.Hooks) != len(copilot.Events) {
		t.Fatalf("settings %s", b)
	}
	for e, entries := range s.Hooks {
		want := map[string]any{"type": "command", "bash": "hookhost copilot --dir /h --event " + e, "timeoutSec": 10.0}
		if len(entries) != 1 || !maps.Equal(entries[0], want) {
			t.Errorf("%s: %v, want %v", e, entries, want)
		}
	}
}
