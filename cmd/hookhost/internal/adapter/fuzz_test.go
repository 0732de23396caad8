package adapter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/copilot"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/cursor"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/picoclaw"
	"github.com/hookhost/hookhost/host"
)

// echoFirer answers every fire with the decision named by the payload's
// "_action" field and the payload changed as "_change" says, so that
// fuzzed inputs reach every branch of the dialects.
type echoFirer struct{}

func (echoFirer) Fire(_ context.Context, event string, p map[string]any) (host.Result, error) {
	a, _ := p["_action"].(string)
	res := host.Result{Event: event, Decision: host.Decision{Action: host.Action(a), Result: p["_result"]}, Payload: p}
	if field, ok := p["_change"].(string); ok {
		q := map[string]any{}
		for k, v := range p {
			q[k] = v
		}
		q[field] = p["_to"]
		res.Payload = q
	}
	if m, ok := p["_message"].(string); ok {
		res.Messages = []host.Message{{Role: "system", Content: m}}
	}
	return res, nil
}

func (echoFirer) Close() error { return nil }

// FuzzCommandDialects: any stdin, any decision, any change: each command
// dialect answers with nothing or one JSON object, never a panic.
func FuzzCommandDialects(f *testing.F) {
	for _, seed := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"_action":"deny"}`,
		`{"hook_event_name":"BeforeTool","tool_input":5,"_action":"allow","_change":"params","_to":[1]}`,
		`{"hook_event_name":"PostToolUse","tool_name":"mcp__x","_change":"result","_to":null}`,
		`{"hook_event_name":"AfterModel","_action":"respond","_result":{"a":1}}`,
		`{"hook_event_name":"Stop","_action":"allow","_message":"m"}`, `{}`, `[]`, `nonsense`,
		`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"},"_action":"ask"}`,
		`{"hook_event_name":"beforeMCPExecution","tool_input":"{\"a\":1}","_change":"params","_to":{}}`,
		`{"toolName":"apply_patch","toolArgs":"*** Begin Patch","_change":"params","_to":{"input":"x"}}`,
		`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}","_action":"modify","_change":"params","_to":{"command":"pwd"}}`,
	} {
		f.Add(seed)
	}
	// Copilot's input names no event: its command line does, one per run.
	type run struct {
		d     adapter.CommandDialect
		event string
	}
	runs := []run{{claude.Dialect{}, ""}, {gemini.Dialect{}, ""}, {codex.Dialect{}, ""}, {cursor.Dialect{}, ""}}
	for _, e := range copilot.Known {
		runs = append(runs, run{copilot.Dialect{}, e})
	}
	f.Fuzz(func(t *testing.T, stdin string) {
		for _, r := range runs {
			d := r.d
			var out bytes.Buffer
			opts := adapter.CommandOptions{Dialect: d, Event: r.event,
				Connect: func(context.Context, adapter.Call) (adapter.Firer, error) { return echoFirer{}, nil }}
			if err := adapter.RunCommand(context.Background(), opts, strings.NewReader(stdin), &out); err != nil {
				if out.Len() > 0 && (!json.Valid(out.Bytes()) || bytes.Count(out.Bytes(), []byte("\n")) != 1) {
					t.Fatalf("%s %s answered a failure with %q", d.Name(), r.event, out.Bytes())
				}
				continue
			}
			if out.Len() == 0 {
				continue
			}
			if !json.Valid(out.Bytes()) || bytes.Count(out.Bytes(), []byte("\n")) != 1 {
				t.Fatalf("%s answered %q", d.Name(), out.Bytes())
			}
		}
	})
}

// FuzzRPCLines: any lines on stdin: every line on stdout is a JSON-RPC
// response, never a panic, and Serve returns.
func FuzzRPCLines(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"hook.hello","params":{"version":1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":{"tool":"bash","arguments":{"_action":"modify","_change":"params","_to":{}}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"hook.after_llm","params":{"_change":"response","_to":1}}`,
		`{"jsonrpc":"2.0","method":"hook.runtime_event","params":[]}` + "\n" + `{"id":3}`,
		`{"id":1e400,"method":"hook.approve_tool"}`, "garbage\n\n{", `{"jsonrpc":"2.0","id":null,"method":"x"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		w := &lockedWriter{b: &out}
		opts := adapter.RPCOptions{Dialect: picoclaw.Dialect{}, Connect: func(context.Context, adapter.Call) (adapter.Firer, error) { return echoFirer{}, nil }}
		if err := adapter.Serve(context.Background(), opts, strings.NewReader(in), w); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.JSONRPC != "2.0" || resp.ID == nil {
				t.Fatalf("not a response: %q (%v)", line, err)
			}
		}
	})
}
