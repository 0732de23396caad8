package picoclaw

import (
	"maps"
	"strings"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// Methods maps PicoClaw's methods to hookhost's events. The guard
// methods are those whose answer can stop a tool: before_tool (deny_tool)
// and approve_tool (approved: false).
var Methods = map[string]adapter.Mapping{
	"hook.before_tool":   {Event: host.EventToolExecutePre, Guard: true},
	"hook.approve_tool":  {Event: host.EventToolApprove, Guard: true},
	"hook.after_tool":    {Event: host.EventToolExecutePost},
	"hook.before_llm":    {Event: host.EventGenerationPre},
	"hook.after_llm":     {Event: host.EventGenerationPost},
	"hook.runtime_event": {Event: host.EventRuntimeEvent},
}

// Fields are the payload fields PicoClaw's methods carry, as hooks see
// them: the params as sent, and the hookhost names Request adds from
// them (meta's and context.inbound's among them).
var Fields = []string{
	"tool", "arguments", "meta", "context", "duration", "model", "messages", "tools", "options", "response",
	"kind", "source", "scope", "payload",
	"tool_name", "params", "result", "error", "duration_ms", "session_id", "turn_id", "agent_id",
	"channel", "chat_id", "sender_id",
}

// Hello is the method of the handshake.
const Hello = "hook.hello"

// ProtocolVersion is the protocol version hookhost speaks.
const ProtocolVersion = 1

// HelloResult is the handshake's answer.
type HelloResult struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
}

// CheckHello validates a hello's params: the version (or
// protocol_version), when given, must be 1. It returns what is wrong.
func CheckHello(params map[string]any) (HelloResult, string) {
	for _, key := range []string{"version", "protocol_version"} {
		v, ok := params[key]
		if !ok {
			continue
		}
		if n, isInt := v.(int64); !isInt || n != ProtocolVersion {
			return HelloResult{}, "unsupported protocol " + key + " " + adapter.Text(v) + ": hookhost speaks version 1"
		}
	}
	return HelloResult{Name: "hookhost", Version: ProtocolVersion}, ""
}

// Request maps a method's params to a fire. Call.Event is empty for a
// method hookhost does not know.
func Request(method string, params map[string]any) adapter.Call {
	call := adapter.Map(Methods, method)
	if call.Event == "" {
		return call
	}
	p := maps.Clone(params)
	if p == nil {
		p = map[string]any{}
	}
	addMeta(p, params)
	switch method {
	case "hook.before_tool", "hook.approve_tool", "hook.after_tool":
		p["tool_name"] = params["tool"]
		args, ok := params["arguments"].(map[string]any)
		if !ok {
			args = map[string]any{}
		}
		p["params"] = args
	}
	if method == "hook.after_tool" {
		addOutcome(p, params)
	}
	call.Payload, call.Input = p, params
	return call
}

// addMeta adds the hookhost names of meta's and context.inbound's fields.
func addMeta(p, params map[string]any) {
	meta, _ := params["meta"].(map[string]any)
	for to, from := range map[string]string{"session_id": "SessionKey", "turn_id": "TurnID", "agent_id": "AgentID"} {
		if v, ok := meta[from]; ok {
			p[to] = v
		}
	}
	ctx, _ := params["context"].(map[string]any)
	inbound, _ := ctx["inbound"].(map[string]any)
	for _, k := range []string{"channel", "chat_id", "sender_id"} {
		if v, ok := inbound[k]; ok {
			p[k] = v
		}
	}
}

// addOutcome adds after_tool's error and duration_ms (PicoClaw sends the
// duration in nanoseconds).
func addOutcome(p, params map[string]any) {
	p["error"] = nil
	if r, ok := params["result"].(map[string]any); ok && r["is_error"] == true {
		p["error"] = r["for_llm"]
	}
	switch d := params["duration"].(type) {
	case int64:
		p["duration_ms"] = float64(d) / 1e6
	case float64:
		p["duration_ms"] = d / 1e6
	}
}

// An Action is a decision as PicoClaw names it.
type Action string

// PicoClaw's actions. Five are hookhost's own actions under the same
// names, so they are taken from host rather than spelled again; only
// deny_tool is PicoClaw's (hookhost's deny and ask map to it).
const (
	Continue  = Action(host.Continue)
	Modify    = Action(host.Modify)
	Respond   = Action(host.Respond)
	AbortTurn = Action(host.AbortTurn)
	HardAbort = Action(host.HardAbort)
	DenyTool  = Action("deny_tool")
)

// Decision is an interceptor's answer: the action, its reason, and for
// modify the whole replacement envelope under the stage's key (call,
// request, response, result), or for respond the tool's result.
type Decision struct {
	Action   Action         `json:"action"`
	Reason   string         `json:"reason,omitempty"`
	Call     map[string]any `json:"call,omitempty"`
	Request  map[string]any `json:"request,omitempty"`
	Response map[string]any `json:"response,omitempty"`
	Result   map[string]any `json:"result,omitempty"`
}

// Approval is approve_tool's answer. Approved is always sent.
type Approval struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// Answer maps a fire's result to the method's answer.
func Answer(call adapter.Call, res host.Result) adapter.Answer {
	var a adapter.Answer
	if len(res.Messages) > 0 {
		a.Notes = append(a.Notes, call.AgentEvent+" cannot add messages: dropped")
	}
	switch call.AgentEvent {
	case "hook.approve_tool":
		a.Output = approval(res.Decision)
	case "hook.before_tool":
		a.Output = beforeTool(call, res, &a)
	case "hook.after_tool":
		a.Output = modified(call, res, []string{"result"}, func(d *Decision, env map[string]any) { d.Result = env })
	case "hook.before_llm":
		if res.Decision.Action == host.Respond {
			a.Notes = append(a.Notes, "respond is not possible before the model: answered continue")
			return adapter.Answer{Output: Decision{Action: Continue}, Notes: a.Notes}
		}
		a.Output = modified(call, res, []string{"model", "messages", "tools", "options"}, func(d *Decision, env map[string]any) { d.Request = env })
	case "hook.after_llm":
		a.Output = modified(call, res, []string{"model", "response"}, func(d *Decision, env map[string]any) { d.Response = env })
	}
	return a
}

func approval(d host.Decision) Approval {
	switch d.Action {
	case host.Deny:
		return Approval{Reason: adapter.Reason(d, "denied")}
	case host.Ask:
		return Approval{Reason: "approval required: " + adapter.Reason(d, "asked")}
	}
	return Approval{Approved: true, Reason: d.Reason}
}

func beforeTool(call adapter.Call, res host.Result, a *adapter.Answer) Decision {
	d := res.Decision
	switch d.Action {
	case host.Deny:
		return Decision{Action: DenyTool, Reason: adapter.Reason(d, "denied")}
	case host.Ask:
		a.Notes = append(a.Notes, "PicoClaw cannot ask at before_tool: sent deny_tool")
		return Decision{Action: DenyTool, Reason: "approval required: " + adapter.Reason(d, "asked")}
	case host.Respond:
		return Decision{Action: Respond, Reason: d.Reason, Result: ToolResult(d.Result)}
	case host.AbortTurn, host.HardAbort:
		return Decision{Action: Action(d.Action), Reason: adapter.Reason(d, "stopped")}
	}
	out := Decision{Action: Continue, Reason: d.Reason}
	if adapter.Changed(call, res, "params") || adapter.Changed(call, res, "tool_name") {
		env := maps.Clone(call.Input)
		env["arguments"] = res.Payload["params"]
		if name, ok := res.Payload["tool_name"].(string); ok {
			env["tool"] = name
		}
		out.Action, out.Call = Modify, env
	}
	return out
}

// modified answers the stages whose modify returns the envelope with
// fields replaced: continue, or modify with the new envelope, or an abort.
func modified(call adapter.Call, res host.Result, fields []string, set func(*Decision, map[string]any)) Decision {
	d := res.Decision
	if d.Action == host.AbortTurn || d.Action == host.HardAbort {
		return Decision{Action: Action(d.Action), Reason: adapter.Reason(d, "stopped")}
	}
	out := Decision{Action: Continue, Reason: d.Reason}
	var env map[string]any
	for _, f := range fields {
		if adapter.Changed(call, res, f) {
			if env == nil {
				env = maps.Clone(call.Input)
			}
			env[f] = res.Payload[f]
		}
	}
	if env != nil {
		out.Action = Modify
		set(&out, env)
	}
	return out
}

// ToolResult is a respond's result as PicoClaw's tool result: a string
// is the text for the model, an object with for_llm passes as it is, and
// anything else becomes its JSON text.
func ToolResult(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		if _, ok := m["for_llm"]; ok {
			return m
		}
	}
	return map[string]any{"for_llm": adapter.Text(v), "is_error": false}
}

// Shrink is the answer to send when ans would make a line PicoClaw cannot
// read (1 MiB): a modify or respond becomes continue; a denial or an
// abort keeps its action with the reason cut short.
func Shrink(call adapter.Call, ans any) any {
	const keep = 4096
	cut := func(s string) string {
		if len(s) <= keep {
			return s
		}
		return strings.ToValidUTF8(s[:keep], "") + "…"
	}
	switch v := ans.(type) {
	case Approval:
		return Approval{Approved: v.Approved, Reason: cut(v.Reason)}
	case Decision:
		if v.Action == Modify || v.Action == Respond || v.Action == Continue {
			return Decision{Action: Continue}
		}
		return Decision{Action: v.Action, Reason: cut(v.Reason)}
	}
	return ans
}
