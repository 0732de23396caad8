package adapter_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/picoclaw"
	"github.com/hookhost/hookhost/host"
)

// failingFirer fails every fire.
type failingFirer struct{}

func (failingFirer) Fire(context.Context, string, map[string]any) (host.Result, error) {
	return host.Result{}, errors.New("boom")
}

func (failingFirer) Close() error { return nil }

func nested(n int) string {
	return strings.Repeat(`{"x":`, n) + "1" + strings.Repeat("}", n)
}

// TestRunCommandFailures: which of hookhost's own failures block (exit 2)
// and which let the agent proceed (exit 1), by dialect, event and
// --fail-open.
func TestRunCommandFailures(t *testing.T) {
	connectErr := func(context.Context, adapter.Call) (adapter.Firer, error) {
		return nil, errors.New("no hooks directory")
	}
	fireErr := func(context.Context, adapter.Call) (adapter.Firer, error) { return failingFirer{}, nil }
	for _, tc := range []struct {
		name    string
		dialect adapter.CommandDialect
		stdin   string
		connect adapter.Connector
		block   bool   // without --fail-open
		err     string // part of the error
	}{
		{"empty stdin", claude.Dialect{}, "", fireErr, true, "stdin is empty"},
		{"blank stdin", gemini.Dialect{}, " \n\t", fireErr, true, "stdin is empty"},
		{"not JSON", codex.Dialect{}, "rm -rf /", fireErr, true, "stdin is not a codex hook event"},
		{"not an object", claude.Dialect{}, "[]", fireErr, true, "want a JSON object"},
		{"nested too deep at PreToolUse", claude.Dialect{},
			`{"hook_event_name":"PreToolUse","tool_input":` + nested(600) + `}`, fireErr, true, "PreToolUse: stdin is not a claude hook event"},
		{"nested too deep at Stop", claude.Dialect{},
			`{"hook_event_name":"Stop","extra":` + nested(600) + `}`, fireErr, false, "Stop: stdin is not"},
		{"nested too deep at AfterAgent", gemini.Dialect{},
			`{"hook_event_name":"AfterAgent","extra":` + nested(600) + `}`, fireErr, false, "AfterAgent: "},
		{"nested too deep, the event named after", gemini.Dialect{},
			`{"extra":` + nested(600) + `,"hook_event_name":"AfterAgent"}`, fireErr, false, "AfterAgent: "},
		{"nested too deep, the event named twice", claude.Dialect{},
			`{"hook_event_name":"Stop","extra":` + nested(600) + `,"hook_event_name":"PreToolUse"}`, fireErr, true, "stdin is not"},
		{"cut short at PreToolUse", claude.Dialect{}, `{"hook_event_name":"PreToolUse","tool_input":{"command":"rm -rf /`, fireErr, true, "PreToolUse: "},
		{"cut short before the event", claude.Dialect{}, `{"tool_input":{"command":"rm`, fireErr, true, "stdin is not"},
		{"too long at PreToolUse", claude.Dialect{},
			`{"hook_event_name":"PreToolUse","pad":"` + strings.Repeat("a", adapter.MaxEvent) + `"}`, fireErr, true, "longer than"},
		{"connect fails at PreToolUse", claude.Dialect{}, `{"hook_event_name":"PreToolUse"}`, connectErr, true, "PreToolUse: no hooks directory"},
		{"connect fails at PermissionRequest", codex.Dialect{}, `{"hook_event_name":"PermissionRequest"}`, connectErr, true, "no hooks"},
		{"connect fails at UserPromptSubmit", claude.Dialect{}, `{"hook_event_name":"UserPromptSubmit"}`, connectErr, true, "no hooks"},
		{"connect fails at BeforeModel", gemini.Dialect{}, `{"hook_event_name":"BeforeModel"}`, connectErr, true, "no hooks"},
		{"connect fails at AfterModel", gemini.Dialect{}, `{"hook_event_name":"AfterModel"}`, connectErr, true, "no hooks"},
		{"connect fails at Stop", claude.Dialect{}, `{"hook_event_name":"Stop"}`, connectErr, false, "no hooks"},
		{"connect fails at SubagentStop", claude.Dialect{}, `{"hook_event_name":"SubagentStop"}`, connectErr, false, "no hooks"},
		{"connect fails at PostToolUse", claude.Dialect{}, `{"hook_event_name":"PostToolUse"}`, connectErr, false, "no hooks"},
		{"connect fails at AfterAgent", gemini.Dialect{}, `{"hook_event_name":"AfterAgent"}`, connectErr, false, "no hooks"},
		{"fire fails at BeforeTool", gemini.Dialect{}, `{"hook_event_name":"BeforeTool"}`, fireErr, true, "BeforeTool: boom"},
		{"fire fails at SessionStart", claude.Dialect{}, `{"hook_event_name":"SessionStart"}`, fireErr, false, "boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, failOpen := range []bool{false, true} {
				var out bytes.Buffer
				opts := adapter.CommandOptions{Dialect: tc.dialect, Connect: tc.connect, FailOpen: failOpen}
				err := adapter.RunCommand(context.Background(), opts, strings.NewReader(tc.stdin), &out)
				var f *adapter.Failure
				if !errors.As(err, &f) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("fail-open %v: %v, want a failure with %q", failOpen, err, tc.err)
				}
				if want := tc.block && !failOpen; f.Block != want {
					t.Errorf("fail-open %v: block %v, want %v (%v)", failOpen, f.Block, want, err)
				}
				if out.Len() > 0 {
					t.Errorf("fail-open %v: stdout %q", failOpen, out.String())
				}
			}
		})
	}
}

// TestGuardEvents: the guard events of each dialect's table.
func TestGuardEvents(t *testing.T) {
	for _, tc := range []struct {
		table map[string]adapter.Mapping
		want  []string
	}{
		{claude.Events, []string{"PermissionRequest", "PreToolUse", "UserPromptSubmit"}},
		{codex.Events, []string{"PermissionRequest", "PreToolUse", "UserPromptSubmit"}},
		{gemini.Events, []string{"AfterModel", "BeforeAgent", "BeforeModel", "BeforeTool"}},
		{picoclaw.Methods, []string{"hook.approve_tool", "hook.before_tool"}},
	} {
		var got []string
		for _, name := range adapter.SortedKeys(tc.table) {
			if tc.table[name].Guard {
				got = append(got, name)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("guard events %v, want %v", got, tc.want)
		}
	}
}

// TestFailed: a call that cannot fire denies at a guard method unless
// failing open, and where the event itself fails closed (tool.approve)
// whatever the option; it continues elsewhere.
func TestFailed(t *testing.T) {
	for _, tc := range []struct {
		method   string
		failOpen bool
		want     host.Action
	}{
		{"hook.before_tool", false, host.Deny},
		{"hook.before_tool", true, host.Continue},
		{"hook.approve_tool", false, host.Deny},
		{"hook.approve_tool", true, host.Deny},
		{"hook.after_tool", false, host.Continue},
		{"hook.before_llm", false, host.Continue},
	} {
		call := picoclaw.Request(tc.method, nil)
		res := adapter.Failed(call, errors.New("boom"), tc.failOpen)
		if res.Decision.Action != tc.want || tc.want == host.Deny && res.Decision.Reason != "hookhost: boom" {
			t.Errorf("%s fail-open %v: %+v, want %s", tc.method, tc.failOpen, res.Decision, tc.want)
		}
	}
}

// TestServeFailsClosed: PicoClaw requests that cannot fire — hooks that
// cannot be reached, params that do not decode, a line no decoder reads —
// are answered with a denial at the guard methods (never an error, which
// PicoClaw reads as "proceed"), and as before elsewhere or with FailOpen.
func TestServeFailsClosed(t *testing.T) {
	down := func(context.Context, adapter.Call) (adapter.Firer, error) { return nil, errors.New("no hooks") }
	up := func(context.Context, adapter.Call) (adapter.Firer, error) { return echoFirer{}, nil }
	deep := `{"arguments":` + nested(600) + `}`
	undecodable := `{"arguments":` + nested(20000) + `}`
	for _, tc := range []struct {
		name     string
		line     string
		connect  adapter.Connector
		failOpen bool
		want     string // the answer's result or error, as JSON
	}{
		{"before_tool, no hooks", `{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{}}`, down, false,
			`"result":{"action":"deny_tool","reason":"hookhost: no hooks"}`},
		{"before_tool, no hooks, fail open", `{"jsonrpc":"2.0","id":1,"method":"hook.before_tool","params":{}}`, down, true,
			`"result":{"action":"continue"}`},
		{"approve_tool, no hooks, fail open", `{"jsonrpc":"2.0","id":1,"method":"hook.approve_tool","params":{}}`, down, true,
			`"result":{"approved":false,"reason":"hookhost: no hooks"}`},
		{"before_tool, params too deep", `{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":` + deep + `}`, up, false,
			`"result":{"action":"deny_tool","reason":"hookhost: invalid params: payload: nests deeper than`},
		{"approve_tool, params too deep", `{"jsonrpc":"2.0","id":2,"method":"hook.approve_tool","params":` + deep + `}`, up, false,
			`"result":{"approved":false,"reason":"hookhost: invalid params`},
		{"before_tool, params too deep, fail open", `{"jsonrpc":"2.0","id":2,"method":"hook.before_tool","params":` + deep + `}`, up, true,
			`"error":{"code":-32602`},
		{"after_tool, params too deep", `{"jsonrpc":"2.0","id":2,"method":"hook.after_tool","params":` + deep + `}`, up, false,
			`"error":{"code":-32602`},
		{"before_tool, a line no decoder reads", `{"jsonrpc":"2.0","id":"a","method":"hook.before_tool","params":` + undecodable + `}`, up, false,
			`"id":"a","result":{"action":"deny_tool","reason":"hookhost: the request does not decode`},
		{"before_tool, a line no decoder reads, fail open", `{"jsonrpc":"2.0","id":3,"method":"hook.before_tool","params":` + undecodable + `}`, up, true,
			``},
		{"after_tool, a line no decoder reads", `{"jsonrpc":"2.0","id":3,"method":"hook.after_tool","params":` + undecodable + `}`, up, false,
			``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			w := &lockedWriter{b: &out}
			opts := adapter.RPCOptions{Dialect: picoclaw.Dialect{}, Connect: tc.connect, FailOpen: tc.failOpen}
			if err := adapter.Serve(context.Background(), opts, strings.NewReader(tc.line+"\n"), w); err != nil {
				t.Fatal(err)
			}
			got := w.String()
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("answer %q, want %q", got, tc.want)
			}
		})
	}
}
