package cursor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/cursor"
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

var (
	shell = map[string]any{"hook_event_name": "preToolUse", "conversation_id": "c1", "tool_name": "Shell",
		"tool_input": map[string]any{"command": "npm i", "cwd": "/w"}, "cwd": "/w"}
	beforeShell = map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": "c1", "command": "npm i", "cwd": "/w"}
	beforeRead  = map[string]any{"hook_event_name": "beforeReadFile", "file_path": "/w/.env", "content": "A=1"}
	beforeMCP   = map[string]any{"hook_event_name": "beforeMCPExecution", "tool_name": "query", "tool_input": `{"sql":"select 1"}`}
	post        = map[string]any{"hook_event_name": "postToolUse", "tool_name": "Shell", "tool_input": map[string]any{"command": "ls"}, "tool_output": `{"output":"a"}`}
	postMCP     = map[string]any{"hook_event_name": "postToolUse", "tool_name": "MCP:query", "tool_input": map[string]any{}, "tool_output": `{"rows":[]}`}
	prompt      = map[string]any{"hook_event_name": "beforeSubmitPrompt", "prompt": "hello"}
	stopEvent   = map[string]any{"hook_event_name": "stop", "status": "completed", "loop_count": 0.0}
	ci          = map[string]any{"command": "npm ci", "cwd": "/w"}
)

// TestAnswers: every event Cursor sends, every decision, and the exact
// answer ("" for none).
func TestAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		input  map[string]any
		result func(adapter.Call) host.Result
		want   string
	}{
		{"preToolUse continue", shell, decided(host.Decision{Action: host.Continue}), ""},
		{"preToolUse deny", shell, decided(host.Decision{Action: host.Deny, Reason: "no"}),
			`{"permission":"deny","user_message":"no","agent_message":"no"}`},
		{"preToolUse deny without a reason names the hook", shell, decided(host.Decision{Action: host.Deny, Hook: "a.lua:g"}),
			`{"permission":"deny","user_message":"denied by a.lua:g","agent_message":"denied by a.lua:g"}`},
		{"preToolUse ask is a deny", shell, decided(host.Decision{Action: host.Ask, Reason: "sudo"}),
			`{"permission":"deny","user_message":"approval required: sudo","agent_message":"approval required: sudo"}`},
		{"preToolUse ask with new input is still a deny", shell, changed(host.Decision{Action: host.Ask, Reason: "r"}, "params", ci),
			`{"permission":"deny","user_message":"approval required: r","agent_message":"approval required: r"}`},
		{"preToolUse modify", shell, changed(host.Decision{Action: host.Modify}, "params", ci),
			`{"permission":"allow","updated_input":{"command":"npm ci","cwd":"/w"}}`},
		{"preToolUse allow with new input", shell, changed(host.Decision{Action: host.Allow, Reason: "ok"}, "params", ci),
			`{"permission":"allow","updated_input":{"command":"npm ci","cwd":"/w"}}`},
		{"preToolUse modify to an empty input", shell, changed(host.Decision{Action: host.Modify}, "params", map[string]any{}),
			`{"permission":"allow","updated_input":{}}`},
		{"preToolUse allow", shell, decided(host.Decision{Action: host.Allow, Reason: "ok"}), `{"permission":"allow"}`},
		{"preToolUse respond", shell, decided(host.Decision{Action: host.Respond, Result: map[string]any{"out": "x"}}),
			`{"permission":"deny","user_message":"{\"out\":\"x\"}","agent_message":"{\"out\":\"x\"}"}`},
		{"preToolUse abort_turn", shell, decided(host.Decision{Action: host.AbortTurn, Reason: "stop"}),
			`{"permission":"deny","user_message":"stop","agent_message":"stop"}`},
		{"preToolUse hard_abort", shell, decided(host.Decision{Action: host.HardAbort, Hook: "x.star:y"}),
			`{"permission":"deny","user_message":"stopped by x.star:y","agent_message":"stopped by x.star:y"}`},
		{"preToolUse messages are dropped", shell, decided(host.Decision{Action: host.Continue}, "m"), ""},

		{"beforeShellExecution deny", beforeShell, decided(host.Decision{Action: host.Deny, Reason: "no"}),
			`{"permission":"deny","user_message":"no","agent_message":"no"}`},
		{"beforeShellExecution ask", beforeShell, decided(host.Decision{Action: host.Ask, Reason: "sudo"}),
			`{"permission":"ask","user_message":"sudo","agent_message":"sudo"}`},
		{"beforeShellExecution modify cannot be expressed", beforeShell, changed(host.Decision{Action: host.Modify}, "params", ci), ""},
		{"beforeShellExecution allow", beforeShell, decided(host.Decision{Action: host.Allow}), `{"permission":"allow"}`},
		{"beforeMCPExecution ask", beforeMCP, decided(host.Decision{Action: host.Ask}),
			`{"permission":"ask","user_message":"approval requested by hookhost","agent_message":"approval requested by hookhost"}`},
		{"beforeReadFile deny", beforeRead, decided(host.Decision{Action: host.Deny, Reason: "secret"}),
			`{"permission":"deny","user_message":"secret","agent_message":"secret"}`},
		{"beforeReadFile ask is a deny", beforeRead, decided(host.Decision{Action: host.Ask, Reason: "r"}),
			`{"permission":"deny","user_message":"approval required: r","agent_message":"approval required: r"}`},

		{"postToolUse messages", post, decided(host.Decision{Action: host.Continue}, "a", "b"), `{"additional_context":"a\nb"}`},
		{"postToolUse a changed result cannot be expressed", post, changed(host.Decision{Action: host.Modify}, "result", "x"), ""},
		{"postToolUse a changed MCP result", postMCP, changed(host.Decision{Action: host.Modify}, "result", "[redacted]"),
			`{"updated_mcp_tool_output":"[redacted]"}`},
		{"postToolUse abort cannot stop", post, decided(host.Decision{Action: host.AbortTurn, Reason: "r"}), ""},
		{"postToolUse nothing", post, decided(host.Decision{Action: host.Continue}), ""},

		{"beforeSubmitPrompt deny", prompt, decided(host.Decision{Action: host.Deny, Reason: "no"}), `{"continue":false,"user_message":"no"}`},
		{"beforeSubmitPrompt abort", prompt, decided(host.Decision{Action: host.AbortTurn}), `{"continue":false,"user_message":"blocked by hookhost"}`},
		{"beforeSubmitPrompt messages are dropped", prompt, decided(host.Decision{Action: host.Continue}, "m"), ""},
		{"beforeSubmitPrompt modify is ignored", prompt, changed(host.Decision{Action: host.Modify}, "prompt", "x"), ""},

		{"stop allow keeps working", stopEvent, decided(host.Decision{Action: host.Allow, Reason: "tests"}), `{"followup_message":"tests"}`},
		{"stop allow without a reason", stopEvent, decided(host.Decision{Action: host.Allow}), `{"followup_message":"` + adapter.KeepWorkingPrompt + `"}`},
		{"stop deny lets it stop", stopEvent, decided(host.Decision{Action: host.Deny}), ""},
		{"subagentStop allow", map[string]any{"hook_event_name": "subagentStop"}, decided(host.Decision{Action: host.Allow, Reason: "r"}), `{"followup_message":"r"}`},

		{"sessionStart messages", map[string]any{"hook_event_name": "sessionStart", "session_id": "s"}, decided(host.Decision{Action: host.Continue}, "rules"),
			`{"additional_context":"rules"}`},
		{"sessionStart nothing", map[string]any{"hook_event_name": "sessionStart"}, decided(host.Decision{Action: host.Continue}), ""},
		{"sessionEnd", map[string]any{"hook_event_name": "sessionEnd"}, decided(host.Decision{Action: host.Continue}), ""},
		{"afterFileEdit", map[string]any{"hook_event_name": "afterFileEdit", "file_path": "/a"}, decided(host.Decision{Action: host.Continue}), ""},
		{"unmapped", map[string]any{"hook_event_name": "afterShellExecution"}, decided(host.Decision{Action: host.Deny}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := cursor.Dialect{}
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

// TestNotes: what Cursor cannot express is said in a note.
func TestNotes(t *testing.T) {
	d := cursor.Dialect{}
	for _, tc := range []struct {
		input  map[string]any
		result func(adapter.Call) host.Result
		note   string
	}{
		{shell, decided(host.Decision{Action: host.Ask}), "Cursor does not enforce ask at preToolUse: sent deny"},
		{shell, decided(host.Decision{Action: host.Continue}, "m"), "Cursor takes no context at preToolUse"},
		{beforeShell, changed(host.Decision{Action: host.Modify, Hook: "p.lua:g"}, "params", ci), "beforeShellExecution cannot rewrite it"},
		{prompt, decided(host.Decision{Action: host.Continue}, "m"), "Cursor takes no context at beforeSubmitPrompt"},
		{post, changed(host.Decision{Action: host.Modify}, "result", "x"), "Cursor can rewrite only an MCP tool's"},
	} {
		call := d.Request(tc.input)
		ans := d.Answer(call, tc.result(call))
		if !strings.Contains(strings.Join(ans.Notes, "\n"), tc.note) {
			t.Errorf("%s: notes %q, want %q", call.AgentEvent, ans.Notes, tc.note)
		}
	}
}

// TestRequest: what hooks see — the names the other agents' hooks know,
// and the granular events as the generic one would show the same call.
func TestRequest(t *testing.T) {
	d := cursor.Dialect{}
	for _, tc := range []struct {
		input map[string]any
		event string
		want  map[string]any // fields of the payload
	}{
		{shell, "tool.execute.pre", map[string]any{"tool_name": "Shell", "session_id": "c1", "workspace": "/w",
			"params": map[string]any{"command": "npm i", "cwd": "/w"}}},
		{beforeShell, "tool.execute.pre", map[string]any{"tool_name": "Shell", "params": map[string]any{"command": "npm i", "cwd": "/w"}}},
		{beforeRead, "tool.execute.pre", map[string]any{"tool_name": "Read", "params": map[string]any{"file_path": "/w/.env"}, "content": "A=1"}},
		{beforeMCP, "tool.execute.pre", map[string]any{"tool_name": "MCP:query", "params": map[string]any{"sql": "select 1"}}},
		{map[string]any{"hook_event_name": "beforeMCPExecution", "tool_name": "q", "tool_input": "not json"}, "tool.execute.pre",
			map[string]any{"params": map[string]any{}}},
		{map[string]any{"hook_event_name": "preToolUse", "tool_input": 5.0}, "tool.execute.pre", map[string]any{"params": map[string]any{}}},
		{post, "tool.execute.post", map[string]any{"result": `{"output":"a"}`, "params": map[string]any{"command": "ls"}}},
		{map[string]any{"hook_event_name": "sessionStart", "session_id": "s", "workspace_roots": []any{"/r"}}, "session.start",
			map[string]any{"session_id": "s", "workspace": "/r"}},
		{map[string]any{"hook_event_name": "afterFileEdit", "file_path": "/a"}, "file.save.post", map[string]any{"path": "/a"}},
		{map[string]any{"hook_event_name": "afterAgentResponse", "text": "done"}, "turn.post", map[string]any{"response": "done"}},
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
// call or a prompt; stop and the rest are not.
func TestGuards(t *testing.T) {
	var got []string
	for _, name := range adapter.SortedKeys(cursor.Events) {
		if cursor.Events[name].Guard {
			got = append(got, name)
		}
	}
	want := "beforeMCPExecution beforeReadFile beforeShellExecution beforeSubmitPrompt preToolUse"
	if strings.Join(got, " ") != want {
		t.Errorf("guards %v, want %s", got, want)
	}
}

type failingFirer struct{}

func (failingFirer) Fire(context.Context, string, map[string]any) (host.Result, error) {
	return host.Result{}, errors.New("boom")
}

func (failingFirer) Close() error { return nil }

// TestFailures: hookhost's own failures exit 2 (Cursor blocks) at the
// guard events and when stdin names no event, 1 (Cursor proceeds)
// elsewhere and with --fail-open; nothing is ever printed.
func TestFailures(t *testing.T) {
	down := func(context.Context, adapter.Call) (adapter.Firer, error) { return nil, errors.New("no hooks") }
	fails := func(context.Context, adapter.Call) (adapter.Firer, error) { return failingFirer{}, nil }
	for _, tc := range []struct {
		name    string
		stdin   string
		connect adapter.Connector
		status  int // without --fail-open
	}{
		{"empty stdin", "", fails, 2},
		{"not JSON", "rm -rf /", fails, 2},
		{"cut short at preToolUse", `{"hook_event_name":"preToolUse","tool_input":{"command":"rm -rf /`, fails, 2},
		{"cut short at stop", `{"hook_event_name":"stop","status":"compl`, fails, 1},
		{"no hooks at preToolUse", `{"hook_event_name":"preToolUse"}`, down, 2},
		{"no hooks at beforeShellExecution", `{"hook_event_name":"beforeShellExecution"}`, down, 2},
		{"no hooks at beforeMCPExecution", `{"hook_event_name":"beforeMCPExecution"}`, down, 2},
		{"no hooks at beforeReadFile", `{"hook_event_name":"beforeReadFile"}`, down, 2},
		{"no hooks at beforeSubmitPrompt", `{"hook_event_name":"beforeSubmitPrompt"}`, down, 2},
		{"no hooks at stop", `{"hook_event_name":"stop"}`, down, 1},
		{"no hooks at subagentStop", `{"hook_event_name":"subagentStop"}`, down, 1},
		{"fire fails at postToolUse", `{"hook_event_name":"postToolUse"}`, fails, 1},
		{"fire fails at sessionStart", `{"hook_event_name":"sessionStart"}`, fails, 1},
		{"fire fails at preToolUse", `{"hook_event_name":"preToolUse"}`, fails, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, failOpen := range []bool{false, true} {
				var out bytes.Buffer
				opts := adapter.CommandOptions{Dialect: cursor.Dialect{}, Connect: tc.connect, FailOpen: failOpen}
				err := adapter.RunCommand(context.Background(), opts, strings.NewReader(tc.stdin), &out)
				var f *adapter.Failure
				if !errors.As(err, &f) {
					t.Fatalf("fail-open %v: %v, want a failure", failOpen, err)
				}
				want := tc.status
				if failOpen {
					want = 1
				}
				if f.Status != want {
					t.Errorf("fail-open %v: status %d, want %d (%v)", failOpen, f.Status, want, err)
				}
				if out.Len() > 0 {
					t.Errorf("fail-open %v: stdout %q", failOpen, out.String())
				}
			}
		})
	}
}

// TestSettings: version 1, the generic preToolUse and never the granular
// events, no failClosed anywhere.
func TestSettings(t *testing.T) {
	b, err := json.Marshal(cursor.Dialect{}.Settings("hookhost cursor --dir /h"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"version":1`, `"preToolUse":[{"command":"hookhost cursor --dir /h","timeout":10}]`, `"stop":`, `"beforeSubmitPrompt":`} {
		if !strings.Contains(s, want) {
			t.Errorf("settings %s: want %s", s, want)
		}
	}
	for _, not := range []string{"failClosed", "beforeShellExecution", "beforeReadFile", "beforeMCPExecution"} {
		if strings.Contains(s, not) {
			t.Errorf("settings %s: has %s", s, not)
		}
	}
	for _, e := range cursor.Wired {
		if cursor.Events[e].Event == "" {
			t.Errorf("wired event %s is not mapped", e)
		}
	}
}
