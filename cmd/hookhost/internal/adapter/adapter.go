package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/hookhost/hookhost/host/wire"
	"maps"
	"strings"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/stdlib"
)

// A Firer fires events: a *host.Host in this process, or a Remote serve.
type Firer interface {
	Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error)
	Close() error
}

var _ Firer = (*host.Host)(nil)

// A Call is one agent request mapped to a hookhost fire.
type Call struct {
	// AgentEvent is the agent's own name for the event ("PreToolUse").
	AgentEvent string
	// Event is the hookhost event to fire; empty when the dialect does not
	// map AgentEvent (the agent gets no answer).
	Event string
	// Payload is what the hooks see.
	Payload map[string]any
	// Input is the agent's request as decoded, for dialects that echo it.
	Input map[string]any
	// Guard reports whether the event is a guard event (Mapping.Guard).
	Guard bool
}

// A Mapping is how a dialect maps one of the agent's events (or
// methods): the hookhost event it fires, and whether it is a guard event.
// Each dialect keeps them in one table, the one home of both facts.
type Mapping struct {
	// Event is the hookhost event.
	Event string
	// Guard marks the events where the agent can be stopped (exit status
	// 2 blocks, or the answer can deny): there, hookhost's own failures
	// block the agent unless the operator chose to fail open. It is false
	// where blocking means something else (keep working, retry) or where
	// nothing can be stopped.
	Guard bool
}

// Map is the call for the agent event (or method) name in a dialect's
// table: Event empty when the table does not have it.
func Map(table map[string]Mapping, name string) Call {
	m := table[name]
	return Call{AgentEvent: name, Event: m.Event, Guard: m.Guard}
}

// An Answer is what to tell the agent.
type Answer struct {
	// Output is the JSON value to print; nil prints nothing.
	Output any
	// Notes are things worth logging: a decision the agent cannot express
	// and what was sent instead.
	Notes []string
}

// A CommandDialect is an agent whose hooks are commands: one event JSON on
// stdin, at most one JSON object on stdout.
type CommandDialect interface {
	// Name is the dialect's command name ("claude").
	Name() string
	// Agent is what hookhost knows of the agent besides its wire.
	Agent() Agent
	// Table is the dialect's events: the agent's names, mapped.
	Table() map[string]Mapping
	// Request maps the agent's event. Call.Event is empty for events the
	// dialect does not map; Call.Guard comes from the dialect's table
	// whether or not the input is otherwise complete.
	Request(input map[string]any) Call
	// Answer maps the fire's result to the agent's answer.
	Answer(call Call, res host.Result) Answer
	// QuietStderr reports whether the agent reads stderr as an answer when
	// stdout is empty, so that nothing may go there on success.
	QuietStderr() bool
	// Settings is the agent's configuration block that runs command for
	// every event the dialect maps.
	Settings(command string) any
}

// An HTTPDialect is a command dialect whose agent can also post its
// events to a URL (Claude Code's "type": "http" hooks), which serve
// answers at POST /v1/agents/{name}.
type HTTPDialect interface {
	CommandDialect
	// HTTPSettings is the agent's configuration block that posts every
	// event the dialect maps to url; with tokenEnv, the requests carry
	// that environment variable as a bearer token, named, never its
	// value.
	HTTPSettings(url, tokenEnv string) any
}

// EventName reads the agent's event name (hook_event_name).
func EventName(input map[string]any) string {
	s, _ := input["hook_event_name"].(string)
	return s
}

// WithNames copies input and adds, for each pair {to, from} whose from
// field is present, the field to with the same value: the names hooks
// know (params) besides the agent's own (tool_input). A to field the
// agent sent itself is kept.
func WithNames(input map[string]any, pairs ...[2]string) map[string]any {
	p := maps.Clone(input)
	if p == nil {
		p = map[string]any{}
	}
	for _, pair := range pairs {
		to, from := pair[0], pair[1]
		if _, taken := input[to]; taken {
			continue
		}
		if v, ok := input[from]; ok {
			p[to] = v
		}
	}
	return p
}

// Changed reports whether field differs between the payload a fire was
// given and the one it folded to.
func Changed(call Call, res host.Result, field string) bool {
	before, had := call.Payload[field]
	after, has := res.Payload[field]
	return had != has || !stdlib.Equal(before, after)
}

// Context joins the messages hooks added into one text, for the agents'
// additionalContext.
func Context(msgs []host.Message) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Content != "" {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// Reason is the decision's reason, or what names the hook that decided
// when it gave none ("denied by a.lua:guard"), so an agent never shows an
// empty reason.
func Reason(d host.Decision, verb string) string {
	if d.Reason != "" {
		return d.Reason
	}
	if d.Hook == "" {
		return verb + " by hookhost"
	}
	return verb + " by " + d.Hook
}

// KeepWorkingPrompt is what an agent that takes the reason as its next
// prompt (Gemini CLI, Cursor, Copilot CLI) is sent when a hook asked it to
// keep working without saying why.
const KeepWorkingPrompt = "A hook asked to keep working: continue with the task."

// KeepWorking reports whether a loop.continue decision keeps the agent
// working (allow), and the prompt to send it: the reason, or
// KeepWorkingPrompt.
func KeepWorking(d host.Decision) (string, bool) {
	if d.Action != host.Allow {
		return "", false
	}
	if d.Reason == "" {
		return KeepWorkingPrompt, true
	}
	return d.Reason, true
}

// Object is a tool input as hooks see it, when it is an object: the
// object itself, or text holding a JSON object decoded (Cursor's MCP
// events and Copilot CLI's toolArgs send one as text). ok is false for
// anything else.
func Object(v any) (map[string]any, bool) {
	switch v := v.(type) {
	case map[string]any:
		return v, true
	case string:
		if m, err := wire.DecodePayload([]byte(v)); err == nil {
			return m, true
		}
	}
	return nil, false
}

// Text is a value as an agent shows it: a string as it is, anything else
// as its JSON text.
func Text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Bool is a pointer to b, for the agents' optional booleans.
func Bool(b bool) *bool { return &b }
