package host

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// Typed helpers for the agent catalog's most used events, so an embedder
// never handles raw payload maps for them.

// A ToolCall is a tool call an agent is about to make.
type ToolCall struct {
	// Name is the tool's name (payload field tool_name).
	Name string
	// Params are the tool's arguments (payload field params).
	Params map[string]any
	// SessionID and Cwd fill the fields of the same names when set.
	SessionID string
	Cwd       string
	// Extra holds more payload fields (turn_id, agent_id, …); they do not
	// override the fields above.
	Extra map[string]any
}

// A ToolDecision is what the hooks decided about a tool call.
type ToolDecision struct {
	Decision
	// Name is the tool to run: the call's, or the one a hook renamed it to.
	Name string
	// Params are the arguments to run the tool with, after modifications.
	Params   map[string]any
	Messages []Message
	Trace    []TraceEntry
}

// Proceed reports whether the tool should run as the decision stands:
// continue, allow or modify. Ask needs a human first; deny, respond and
// the aborts do not run it.
func (d ToolDecision) Proceed() bool {
	return d.Action == Continue || d.Action == Allow || d.Action == Modify
}

// BeforeTool fires tool.execute.pre for a tool call.
func (h *Host) BeforeTool(ctx context.Context, call ToolCall) (ToolDecision, error) {
	payload := toolPayload(call.Name, call.Params, call.SessionID, call.Extra)
	if call.Cwd != "" {
		payload["cwd"] = call.Cwd
	}
	r, err := h.Fire(ctx, EventToolExecutePre, payload)
	d := ToolDecision{Decision: r.Decision, Name: call.Name, Params: call.Params, Messages: r.Messages, Trace: r.Trace}
	if err != nil {
		return d, err
	}
	return d, readTool(r.Payload, &d.Name, &d.Params)
}

// ApproveTool fires tool.approve for a tool call: allow (or continue)
// approves, deny refuses, ask wants a human. The event fails closed: a
// hook that errs or times out denies.
func (h *Host) ApproveTool(ctx context.Context, call ToolCall) (Decision, error) {
	r, err := h.Fire(ctx, EventToolApprove, toolPayload(call.Name, call.Params, call.SessionID, call.Extra))
	return r.Decision, err
}

// A ToolOutcome is a tool call that ran.
type ToolOutcome struct {
	Name   string
	Params map[string]any
	// Result is what the tool returned (neutral values).
	Result any
	// Error is the tool's error text, empty when it succeeded.
	Error     string
	Duration  time.Duration
	SessionID string
	Extra     map[string]any
}

// A ToolResultDecision is what the hooks decided about a tool's result.
type ToolResultDecision struct {
	Decision
	// Result is the result to hand to the model: the tool's, or what a
	// hook replaced it with (redacted output, say).
	Result   any
	Messages []Message
	Trace    []TraceEntry
}

// AfterTool fires tool.execute.post for a tool's result.
func (h *Host) AfterTool(ctx context.Context, o ToolOutcome) (ToolResultDecision, error) {
	payload := toolPayload(o.Name, o.Params, o.SessionID, o.Extra)
	payload["result"] = o.Result
	payload["error"] = nil
	if o.Error != "" {
		payload["error"] = o.Error
	}
	payload["duration_ms"] = float64(o.Duration) / float64(time.Millisecond)
	r, err := h.Fire(ctx, EventToolExecutePost, payload)
	return ToolResultDecision{Decision: r.Decision, Result: r.Payload["result"], Messages: r.Messages, Trace: r.Trace}, err
}

func toolPayload(name string, params map[string]any, session string, extra map[string]any) map[string]any {
	p := make(map[string]any, len(extra)+4)
	maps.Copy(p, extra)
	if params == nil {
		params = map[string]any{}
	}
	p["tool_name"], p["params"] = name, params
	if session != "" {
		p["session_id"] = session
	}
	return p
}

// readTool reads the possibly modified tool name and params back.
func readTool(payload map[string]any, name *string, params *map[string]any) error {
	switch v := payload["tool_name"].(type) {
	case string:
		*name = v
	default:
		return fmt.Errorf("a hook set tool_name to a %s, want a string", stdlib.TypeName(v))
	}
	switch v := payload["params"].(type) {
	case map[string]any:
		*params = v
	default:
		return fmt.Errorf("a hook set params to a %s, want a table of arguments", stdlib.TypeName(v))
	}
	return nil
}
