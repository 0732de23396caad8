package copilot

import (
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
	"path/filepath"
)

// Dialect is the GitHub Copilot CLI dialect.
type Dialect struct{}

var _ adapter.FailingDialect = Dialect{}

// Output is a command hook's answer as Copilot reads it: top-level
// fields only (hookSpecificOutput is read only from Claude-style
// PascalCase entries, which the printed file never uses).
type Output struct {
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	// ModifiedArgs replaces the tool's arguments whole: an object, or the
	// raw text of a tool whose input is not JSON. Copilot ignores it
	// with ask or deny, so it is never sent with them.
	ModifiedArgs      any    `json:"modifiedArgs,omitempty"`
	AdditionalContext string `json:"additionalContext,omitempty"`
	Decision          string `json:"decision,omitempty"`
	Reason            string `json:"reason,omitempty"`
	ModifiedPrompt    string `json:"modifiedPrompt,omitempty"`
	// ModifiedResult is merged into the tool result (an object).
	ModifiedResult  map[string]any `json:"modifiedResult,omitempty"`
	Handled         bool           `json:"handled,omitempty"`
	ResponseContent string         `json:"responseContent,omitempty"`
	Behavior        string         `json:"behavior,omitempty"`
	Message         string         `json:"message,omitempty"`
}

// Names are the hookhost names of Copilot's camelCase fields, so that
// hooks written for the other agents read the same names here.
var Names = [][2]string{
	{"session_id", "sessionId"}, {"tool_name", "toolName"}, {"workspace", "cwd"},
	{"transcript_path", "transcriptPath"}, {"initial_prompt", "initialPrompt"},
	{"stop_reason", "stopReason"}, {"agent_name", "agentName"}, {"stage", "errorContext"},
	{"kind", "notification_type"},
}

// Fields are the payload fields Copilot's events carry, as hooks see
// them: its own camelCase ones and the hookhost names Request adds.
var Fields = []string{
	"sessionId", "timestamp", "cwd", "hook_event_name", "toolName", "toolArgs", "toolInput", "toolResult",
	"transcriptPath", "initialPrompt", "prompt", "stopReason", "agentName", "errorContext", "error",
	"source", "reason", "message", "notification_type",
	"session_id", "tool_name", "workspace", "transcript_path", "initial_prompt", "stop_reason",
	"agent_name", "stage", "kind", "params", "result",
}

// Fields lists the payload fields hooks may read (see Fields).
func (Dialect) Fields() []string { return Fields }

// Known are all of Copilot's hook events: the names --event accepts.
// Those not in Events get no answer.
var Known = []string{
	"agentStop", "errorOccurred", "notification", "permissionRequest", "postToolUse",
	"postToolUseFailure", "preCompact", "preMcpToolCall", "preToolUse", "sessionEnd",
	"sessionStart", "subagentStart", "subagentStop", "userPromptSubmitted",
}

// Events maps Copilot's events to hookhost's. The guard events are those
// whose answer can stop something: a tool call, a permission, a prompt.
// At agentStop and subagentStop "block" means "keep working", so they
// are not.
var Events = map[string]adapter.Mapping{
	"preToolUse":          {Event: host.EventToolExecutePre, Guard: true},
	"permissionRequest":   {Event: host.EventToolApprove, Guard: true},
	"userPromptSubmitted": {Event: host.EventTurnPre, Guard: true},
	"postToolUse":         {Event: host.EventToolExecutePost},
	"agentStop":           {Event: host.EventLoopContinue},
	"subagentStop":        {Event: host.EventLoopContinue},
	"sessionStart":        {Event: host.EventSessionStart},
	"sessionEnd":          {Event: host.EventSessionEnd},
	"errorOccurred":       {Event: host.EventError},
	"notification":        {Event: host.EventNotification},
}

// Agent implements adapter.CommandDialect.
func (Dialect) Agent() adapter.Agent {
	return adapter.Agent{
		Title: "Copilot CLI", SettingsFile: ".github/hooks/hookhost.json",
		SettingsFiles: func(home, project string) []string {
			return []string{filepath.Join(project, ".github", "hooks", "*.json"), filepath.Join(home, ".copilot", "hooks", "*.json")}
		},
		EventFlag: Known,
	}
}

// Name implements adapter.CommandDialect.
func (Dialect) Name() string { return "copilot" }

// QuietStderr implements adapter.CommandDialect: Copilot shows stderr
// only with exit status 2, as a warning.
func (Dialect) QuietStderr() bool { return false }

// Table implements adapter.CommandDialect.
func (Dialect) Table() map[string]adapter.Mapping { return Events }

// rawArgs is the params key that holds toolArgs text that is not a JSON
// object (apply_patch's patch): Copilot's own name for it.
const rawArgs = "input"

// Request implements adapter.CommandDialect. The event's name is in
// hook_event_name, put there by the transport.
func (Dialect) Request(input map[string]any) adapter.Call {
	call := adapter.Map(Events, adapter.EventName(input))
	if call.Event == "" {
		return call
	}
	p := adapter.WithNames(input, Names...)
	switch call.Event {
	case host.EventToolExecutePre, host.EventToolExecutePost:
		p["params"] = Args(input["toolArgs"])
		if r, ok := input["toolResult"]; ok {
			p["result"] = r
		}
	case host.EventToolApprove:
		params, _ := input["toolInput"].(map[string]any)
		if params == nil {
			params = map[string]any{}
		}
		p["params"] = params
	}
	call.Payload = p
	return call
}

// Args is toolArgs as hooks see it, always an object: an object as it
// is (Copilot's SDK), JSON text holding an object decoded (the model's
// arguments), other text under "input" (a tool whose input is not JSON,
// such as apply_patch), anything else empty.
func Args(v any) map[string]any {
	if m, ok := adapter.Object(v); ok {
		return m
	}
	if text, ok := v.(string); ok && text != "" {
		return map[string]any{rawArgs: text}
	}
	return map[string]any{}
}

// Answer implements adapter.CommandDialect.
func (Dialect) Answer(call adapter.Call, res host.Result) adapter.Answer {
	switch call.Event {
	case host.EventToolExecutePre:
		return preToolUse(call, res)
	case host.EventToolApprove:
		return permissionRequest(res)
	case host.EventTurnPre:
		return userPromptSubmitted(call, res)
	case host.EventToolExecutePost:
		return postToolUse(call, res)
	case host.EventLoopContinue:
		return agentStop(res)
	case host.EventSessionStart:
		return answer(Output{AdditionalContext: adapter.Context(res.Messages)}, nil)
	}
	return adapter.Answer{}
}

// answer is out as the agent's answer: none when it says nothing.
func answer(out Output, notes []string) adapter.Answer {
	if out.empty() {
		return adapter.Answer{Notes: notes}
	}
	return adapter.Answer{Output: out, Notes: notes}
}

// empty reports whether o holds nothing (Output is not comparable with
// == once ModifiedArgs holds an object).
func (o Output) empty() bool {
	return o.ModifiedArgs == nil && o.ModifiedResult == nil && !o.Handled &&
		o.PermissionDecision+o.PermissionDecisionReason+o.AdditionalContext+o.Decision+o.Reason+
			o.ModifiedPrompt+o.ResponseContent+o.Behavior+o.Message == ""
}

func preToolUse(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	out := Output{AdditionalContext: adapter.Context(res.Messages)}
	var notes []string
	deny := func(reason string) { out.PermissionDecision, out.PermissionDecisionReason = "deny", reason }
	modified := adapter.Changed(call, res, "params")
	switch d.Action {
	case host.Deny:
		deny(adapter.Reason(d, "denied"))
	case host.Respond:
		deny(adapter.Text(d.Result))
	case host.AbortTurn, host.HardAbort:
		deny(adapter.Reason(d, "stopped"))
		notes = append(notes, "Copilot cannot stop the agent at "+call.AgentEvent+": sent deny")
	case host.Ask:
		out.PermissionDecision, out.PermissionDecisionReason = "ask", adapter.Reason(d, "approval requested")
		if modified {
			notes = append(notes, "Copilot ignores modifiedArgs with ask: the user is asked about the original arguments")
		}
	case host.Allow:
		out.PermissionDecision, out.PermissionDecisionReason = "allow", d.Reason
	}
	if modified && (d.Action == host.Allow || d.Action == host.Modify || d.Action == host.Continue) {
		out.ModifiedArgs = modifiedArgs(call, res.Payload["params"])
	}
	return answer(out, notes)
}

// modifiedArgs is the new params as Copilot takes them: the raw text
// again for a tool whose input was not JSON and still is only text,
// else the object (Copilot writes it out as JSON).
func modifiedArgs(call adapter.Call, params any) any {
	if m, ok := params.(map[string]any); ok && len(m) == 1 {
		if s, ok := m[rawArgs].(string); ok {
			if text, ok := call.Payload["toolArgs"].(string); ok && !isObjectText(text) {
				return s
			}
		}
	}
	return params
}

func isObjectText(s string) bool {
	_, err := wire.DecodePayload([]byte(s))
	return err == nil
}

// permissionRequest answers a tool.approve: allow or deny the
// permission; ask and no opinion leave it to Copilot's own dialog.
func permissionRequest(res host.Result) adapter.Answer {
	d := res.Decision
	switch d.Action {
	case host.Allow:
		return answer(Output{Behavior: "allow"}, nil)
	case host.Deny, host.AbortTurn, host.HardAbort:
		return answer(Output{Behavior: "deny", Message: adapter.Reason(d, "denied")}, nil)
	}
	return adapter.Answer{}
}

func userPromptSubmitted(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	switch d.Action {
	case host.Deny, host.AbortTurn, host.HardAbort:
		return answer(Output{Decision: "block", Reason: adapter.Reason(d, "blocked")}, nil)
	case host.Respond:
		// Copilot skips the model only for a non-empty responseContent
		// (handled with an empty one goes on to the model): an empty
		// answer still keeps the prompt from the model, as a block.
		if text := adapter.Text(d.Result); text != "" {
			return answer(Output{Handled: true, ResponseContent: text}, nil)
		}
		return answer(Output{Decision: "block", Reason: adapter.Reason(d, "answered")},
			[]string{"a hook answered the prompt with nothing (" + d.Hook + "), which Copilot would send on to the model: blocked it"})
	}
	out := Output{AdditionalContext: adapter.Context(res.Messages)}
	var notes []string
	if adapter.Changed(call, res, "prompt") {
		if s, ok := res.Payload["prompt"].(string); ok && s != "" {
			out.ModifiedPrompt = s
		} else {
			notes = append(notes, "a hook set the prompt to something that is not text ("+d.Hook+"): ignored")
		}
	}
	return answer(out, notes)
}

func postToolUse(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	out := Output{AdditionalContext: adapter.Context(res.Messages)}
	var notes []string
	if d.Action == host.AbortTurn || d.Action == host.HardAbort {
		out.Decision, out.Reason = "block", adapter.Reason(d, "stopped")
		notes = append(notes, "Copilot cannot stop the agent at "+call.AgentEvent+": blocked the tool result")
		return answer(out, notes)
	}
	if adapter.Changed(call, res, "result") {
		switch r := res.Payload["result"].(type) {
		case map[string]any:
			out.ModifiedResult = r
		default:
			out.ModifiedResult = map[string]any{"textResultForLlm": adapter.Text(r)}
		}
	}
	return answer(out, notes)
}

// agentStop answers loop.continue: allow keeps the agent working, which
// Copilot spells "block" with the reason as the next message.
func agentStop(res host.Result) adapter.Answer {
	reason, ok := adapter.KeepWorking(res.Decision)
	if !ok {
		return adapter.Answer{}
	}
	return answer(Output{Decision: "block", Reason: reason}, nil)
}

// Fail implements adapter.FailingDialect. A failure that must block
// prints the denial the hooks would have answered ("hookhost: …" as the
// reason) and exits 2, which Copilot reads as a warning: it still takes
// stdout as the answer, and shows stderr to the user. A failure that
// must not block exits 1 — Copilot logs it and goes on — except at
// preToolUse, where Copilot denies on every exit status but 0 and 2: 2
// there, with nothing on stdout.
func (d Dialect) Fail(call adapter.Call, err error, block bool) (adapter.Answer, int) {
	if !block {
		if call.AgentEvent == "preToolUse" {
			return adapter.Answer{}, 2
		}
		return adapter.Answer{}, 1
	}
	if call.Event == "" {
		// No event hookhost maps, or none known: exit 1 denies at
		// preToolUse and is ignored elsewhere.
		return adapter.Answer{}, 1
	}
	res := adapter.Failed(call, err, false)
	return d.Answer(call, res), 2
}

// SettingsTimeout is the printed hooks file's timeoutSec: far above
// hookhost's own deadlines (Copilot's default is 30).
const SettingsTimeout = 10

// Settings implements adapter.CommandDialect: a .github/hooks/*.json
// that runs command for every mapped event, one entry per event naming
// it with --event (Copilot's input does not).
func (Dialect) Settings(command string) any {
	events := adapter.SortedKeys(Events)
	hooks := make(map[string]any, len(events))
	for _, e := range events {
		hooks[e] = []any{map[string]any{"type": "command", "bash": command + " --event " + e, "timeoutSec": SettingsTimeout}}
	}
	return map[string]any{"version": 1, "hooks": hooks}
}
