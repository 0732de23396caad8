package adapter_test

import (
	"encoding/json"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
	"github.com/hookhost/hookhost/host"
)

// A dialectCase is one agent event and one folded result, and the answer
// the agent must get ("" for none).
type dialectCase struct {
	name   string
	input  map[string]any
	result func(call adapter.Call) host.Result
	want   string
}

func decided(d host.Decision, msgs ...string) func(adapter.Call) host.Result {
	return func(call adapter.Call) host.Result {
		r := host.Result{Event: call.Event, Decision: d, Payload: call.Payload}
		for _, m := range msgs {
			r.Messages = append(r.Messages, host.Message{Role: "system", Content: m})
		}
		return r
	}
}

// withParams is d with the call's params replaced, as a modify folds.
func withParams(d host.Decision, params map[string]any) func(adapter.Call) host.Result {
	return func(call adapter.Call) host.Result {
		p := map[string]any{}
		for k, v := range call.Payload {
			p[k] = v
		}
		p["params"] = params
		return host.Result{Event: call.Event, Decision: d, Payload: p}
	}
}

func runDialect(t *testing.T, d adapter.CommandDialect, cases []dialectCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			call := d.Request(tc.input)
			ans := d.Answer(call, tc.result(call))
			got := ""
			if ans.Output != nil {
				b, err := json.Marshal(ans.Output)
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
			}
			if got != tc.want {
				t.Errorf("%s answer\n got %s\nwant %s", d.Name(), got, tc.want)
			}
		})
	}
}

var (
	bash = map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "npm i"}}
	ci   = map[string]any{"command": "npm ci"}
)

func TestClaude(t *testing.T) {
	runDialect(t, claude.Dialect{}, []dialectCase{
		{"continue", bash, decided(host.Decision{Action: host.Continue}), ""},
		{"deny without a reason names the hook", bash, decided(host.Decision{Action: host.Deny, Hook: "a.lua:g"}),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by a.lua:g"}}`},
		{"allow with new input", bash, withParams(host.Decision{Action: host.Allow, Reason: "ok"}, ci),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok","updatedInput":{"command":"npm ci"}}}`},
		{"ask with new input", bash, withParams(host.Decision{Action: host.Ask, Reason: "r"}, ci),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r","updatedInput":{"command":"npm ci"}}}`},
		{"respond with an object", bash, decided(host.Decision{Action: host.Respond, Result: map[string]any{"out": "x"}}),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"{\"out\":\"x\"}"}}`},
		{"hard abort", bash, decided(host.Decision{Action: host.HardAbort, Reason: "stop"}), `{"continue":false,"stopReason":"stop"}`},
		{"deny with messages", bash, decided(host.Decision{Action: host.Deny, Reason: "no"}, "a", "b"),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"a\nb"}}`},
		{"permission deny without a reason", map[string]any{"hook_event_name": "PermissionRequest", "tool_name": "Bash"},
			decided(host.Decision{Action: host.Deny}), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"denied by hookhost"}}}`},
		{"stop: deny lets it stop", map[string]any{"hook_event_name": "Stop"}, decided(host.Decision{Action: host.Deny}), ""},
		{"session end", map[string]any{"hook_event_name": "SessionEnd"}, decided(host.Decision{Action: host.Continue}), ""},
		{"unknown", map[string]any{"hook_event_name": "PreCompact"}, decided(host.Decision{Action: host.Deny}), ""},
	})
}

func TestCodex(t *testing.T) {
	runDialect(t, codex.Dialect{}, []dialectCase{
		{"plain allow prints nothing", bash, decided(host.Decision{Action: host.Allow, Reason: "ok"}), ""},
		{"allow with new input", bash, withParams(host.Decision{Action: host.Allow}, ci),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"npm ci"}}}`},
		{"ask with new input still denies", bash, withParams(host.Decision{Action: host.Ask, Reason: "r"}, ci),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"approval required: r"}}`},
		{"abort is a deny, never continue", bash, decided(host.Decision{Action: host.AbortTurn, Hook: "x.star:y"}),
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"stopped by x.star:y"}}`},
		{"abort after a tool", map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash"},
			decided(host.Decision{Action: host.AbortTurn, Reason: "r"}), `{"continue":false,"stopReason":"r"}`},
	})
}

func TestGemini(t *testing.T) {
	shell := map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": map[string]any{"command": "npm i"}}
	runDialect(t, gemini.Dialect{}, []dialectCase{
		{"continue", shell, decided(host.Decision{Action: host.Continue}), ""},
		{"allow with new input", shell, withParams(host.Decision{Action: host.Allow, Reason: "ok"}, ci),
			`{"decision":"allow","reason":"ok","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"npm ci"}}}`},
		{"ask with new input", shell, withParams(host.Decision{Action: host.Ask}, ci),
			`{"decision":"ask","reason":"approval requested by hookhost","systemMessage":"approval requested by hookhost","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"npm ci"}}}`},
		{"respond with llmContent", shell, decided(host.Decision{Action: host.Respond, Result: map[string]any{"llmContent": "fake"}}),
			`{"decision":"deny","reason":"fake"}`},
		{"deny with messages", shell, decided(host.Decision{Action: host.Deny, Reason: "no"}, "why"),
			`{"decision":"deny","reason":"no","hookSpecificOutput":{"hookEventName":"BeforeTool","additionalContext":"why"}}`},
		{"after agent deny lets it stop", map[string]any{"hook_event_name": "AfterAgent"}, decided(host.Decision{Action: host.Deny}), ""},
		{"abort at after model", map[string]any{"hook_event_name": "AfterModel"}, decided(host.Decision{Action: host.AbortTurn, Reason: "r"}),
			`{"continue":false,"stopReason":"r"}`},
	})
}

func TestRequestNames(t *testing.T) {
	call := claude.Dialect{}.Request(map[string]any{"hook_event_name": "PostToolUse", "tool_input": map[string]any{"a": int64(1)},
		"tool_response": "out", "cwd": "/w", "workspace": "mine"})
	if call.Event != "tool.execute.post" || call.Payload["result"] != "out" || call.Payload["tool_response"] != "out" ||
		call.Payload["params"].(map[string]any)["a"] != int64(1) {
		t.Errorf("payload %v", call.Payload)
	}
	if call.Payload["workspace"] != "mine" {
		t.Errorf("a field the agent sent itself was replaced: workspace = %v", call.Payload["workspace"])
	}
	call = gemini.Dialect{}.Request(map[string]any{"hook_event_name": "AfterAgent", "prompt_response": "r"})
	if call.Event != "loop.continue" || call.Payload["response"] != "r" {
		t.Errorf("gemini AfterAgent: %+v", call)
	}
}
