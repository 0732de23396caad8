package cursor

import (
	"path/filepath"
	"strings"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// Dialect is the Cursor dialect.
type Dialect struct{}

var _ adapter.CommandDialect = Dialect{}

// Output is a command hook's answer as Cursor reads it: flat, snake_case
// (a hookSpecificOutput wrapper is not read).
type Output struct {
	Continue          *bool  `json:"continue,omitempty"`
	Permission        string `json:"permission,omitempty"`
	UserMessage       string `json:"user_message,omitempty"`
	AgentMessage      string `json:"agent_message,omitempty"`
	UpdatedInput      any    `json:"updated_input,omitempty"`
	FollowupMessage   string `json:"followup_message,omitempty"`
	AdditionalContext string `json:"additional_context,omitempty"`
	// UpdatedMCPToolOutput replaces an MCP tool's result at postToolUse.
	UpdatedMCPToolOutput any `json:"updated_mcp_tool_output,omitempty"`
}

// Names are the hookhost names of Cursor's fields. Cursor's session_id
// is its conversation_id, which every event carries.
var Names = [][2]string{
	{"params", "tool_input"}, {"result", "tool_output"}, {"workspace", "cwd"},
	{"session_id", "conversation_id"},
}

// Fields are the payload fields Cursor's events carry, as hooks see
// them: its own and the hookhost names Request adds.
var Fields = []string{
	"conversation_id", "generation_id", "model", "hook_event_name", "cursor_version", "workspace_roots",
	"user_email", "transcript_path", "tool_name", "tool_input", "tool_output", "tool_use_id", "command", "cwd",
	"file_path", "content", "attachments", "prompt", "status", "loop_count", "edits", "text",
	"params", "result", "workspace", "session_id", "path", "response",
}

// Fields lists the payload fields hooks may read (see Fields).
func (Dialect) Fields() []string { return Fields }

// How an event blocks: the answer's shape, by Cursor event.
const (
	// askDenied: permission allow|deny; ask is not enforced and is sent
	// as a deny (preToolUse, beforeReadFile).
	askDenied = iota + 1
	// askAllowed: permission allow|deny|ask (beforeShellExecution,
	// beforeMCPExecution).
	askAllowed
)

// Events maps Cursor's events to hookhost's. The guard events are those
// whose answer can stop something: a tool call, a file read, a prompt.
// At stop and subagentStop an answer means "keep working", so they are
// not. afterShellExecution and afterMCPExecution are left out: postToolUse
// reports the same calls.
var Events = map[string]adapter.Mapping{
	"preToolUse":           {Event: host.EventToolExecutePre, Guard: true},
	"beforeShellExecution": {Event: host.EventToolExecutePre, Guard: true},
	"beforeMCPExecution":   {Event: host.EventToolExecutePre, Guard: true},
	"beforeReadFile":       {Event: host.EventToolExecutePre, Guard: true},
	"beforeSubmitPrompt":   {Event: host.EventTurnPre, Guard: true},
	"postToolUse":          {Event: host.EventToolExecutePost},
	"stop":                 {Event: host.EventLoopContinue},
	"subagentStop":         {Event: host.EventLoopContinue},
	"sessionStart":         {Event: host.EventSessionStart},
	"sessionEnd":           {Event: host.EventSessionEnd},
	"afterFileEdit":        {Event: host.EventFileSavePost},
	"afterAgentResponse":   {Event: host.EventTurnPost},
}

// permissions says how each tool event's permission answer may ask.
var permissions = map[string]int{
	"preToolUse":           askDenied,
	"beforeReadFile":       askDenied,
	"beforeShellExecution": askAllowed,
	"beforeMCPExecution":   askAllowed,
}

// Wired are the events the printed hooks.json runs hookhost for: the
// generic preToolUse and not the granular events, which Cursor fires for
// the same call (a rate limit would count it twice).
var Wired = []string{"beforeSubmitPrompt", "postToolUse", "preToolUse", "sessionEnd", "sessionStart", "stop", "subagentStop"}

// Agent implements adapter.CommandDialect.
func (Dialect) Agent() adapter.Agent {
	return adapter.Agent{
		Title: "Cursor", SettingsFile: ".cursor/hooks.json",
		SettingsFiles: func(home, project string) []string {
			return []string{filepath.Join(home, ".cursor", "hooks.json"), filepath.Join(project, ".cursor", "hooks.json")}
		},
	}
}

// Name implements adapter.CommandDialect.
func (Dialect) Name() string { return "cursor" }

// QuietStderr implements adapter.CommandDialect: Cursor reads stdout.
func (Dialect) QuietStderr() bool { return false }

// Table implements adapter.CommandDialect.
func (Dialect) Table() map[string]adapter.Mapping { return Events }

// Request implements adapter.CommandDialect.
func (Dialect) Request(input map[string]any) adapter.Call {
	call := adapter.Map(Events, adapter.EventName(input))
	if call.Event == "" {
		return call
	}
	p := adapter.WithNames(input, Names...)
	if _, ok := p["workspace"]; !ok {
		if roots, ok := input["workspace_roots"].([]any); ok && len(roots) > 0 {
			p["workspace"] = roots[0]
		}
	}
	switch call.AgentEvent {
	case "beforeShellExecution":
		p["tool_name"] = "Shell"
		params := map[string]any{}
		for _, k := range []string{"command", "cwd"} {
			if v, ok := input[k]; ok {
				params[k] = v
			}
		}
		p["params"] = params
	case "beforeMCPExecution":
		name, _ := input["tool_name"].(string)
		p["tool_name"] = "MCP:" + name
		p["params"] = object(input["tool_input"])
	case "beforeReadFile":
		p["tool_name"] = "Read"
		params := map[string]any{}
		if v, ok := input["file_path"]; ok {
			params["file_path"] = v
		}
		p["params"] = params
	case "afterFileEdit":
		if _, ok := p["path"]; !ok {
			p["path"] = input["file_path"]
		}
	case "afterAgentResponse":
		if _, ok := p["response"]; !ok {
			p["response"] = input["text"]
		}
	default:
		if call.Event == host.EventToolExecutePre || call.Event == host.EventToolExecutePost {
			p["params"] = object(p["params"])
		}
	}
	call.Payload = p
	return call
}

// object is a tool input as hooks see it: an object as it is, a string
// holding a JSON object decoded (Cursor's MCP events send one), anything
// else an empty object.
func object(v any) map[string]any {
	if m, ok := adapter.Object(v); ok {
		return m
	}
	return map[string]any{}
}

// Answer implements adapter.CommandDialect.
func (Dialect) Answer(call adapter.Call, res host.Result) adapter.Answer {
	switch call.Event {
	case host.EventToolExecutePre:
		return toolCall(call, res)
	case host.EventTurnPre:
		return beforeSubmitPrompt(call, res)
	case host.EventToolExecutePost:
		return postToolUse(call, res)
	case host.EventLoopContinue:
		return stop(res)
	case host.EventSessionStart:
		return withContext(res, adapter.Answer{})
	}
	return adapter.Answer{}
}

// deny is Cursor's refusal: user_message is what reaches the model (as
// the tool's error); agent_message is sent too, for the builds that read
// it.
func deny(reason string) Output {
	return Output{Permission: "deny", UserMessage: reason, AgentMessage: reason}
}

// toolCall answers preToolUse and the granular tool events.
func toolCall(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	var a adapter.Answer
	modified := adapter.Changed(call, res, "params")
	generic := call.AgentEvent == "preToolUse"
	switch d.Action {
	case host.Deny:
		a.Output = deny(adapter.Reason(d, "denied"))
	case host.Respond:
		a.Output = deny(adapter.Text(d.Result))
	case host.AbortTurn, host.HardAbort:
		a.Output = deny(adapter.Reason(d, "stopped"))
		a.Notes = append(a.Notes, "Cursor cannot stop the agent at "+call.AgentEvent+": sent deny")
	case host.Ask:
		reason := adapter.Reason(d, "approval requested")
		if permissions[call.AgentEvent] == askAllowed {
			a.Output = Output{Permission: "ask", UserMessage: reason, AgentMessage: reason}
		} else {
			a.Output = deny("approval required: " + reason)
			a.Notes = append(a.Notes, "Cursor does not enforce ask at "+call.AgentEvent+": sent deny")
		}
	case host.Allow, host.Modify:
		switch {
		case modified && generic:
			a.Output = Output{Permission: "allow", UpdatedInput: res.Payload["params"]}
		case d.Action == host.Allow:
			a.Output = Output{Permission: "allow"}
		}
	}
	if modified && !generic && d.Action != host.Deny && d.Action != host.Respond {
		a.Notes = append(a.Notes, "a hook rewrote the tool input ("+d.Hook+"); "+call.AgentEvent+" cannot rewrite it: ignored")
	}
	if len(res.Messages) > 0 {
		a.Notes = append(a.Notes, "Cursor takes no context at "+call.AgentEvent+": messages dropped")
	}
	return a
}

func beforeSubmitPrompt(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	var a adapter.Answer
	switch d.Action {
	case host.Deny, host.AbortTurn, host.HardAbort:
		a.Output = Output{Continue: adapter.Bool(false), UserMessage: adapter.Reason(d, "blocked")}
	case host.Respond:
		// Cursor takes no answer in the model's place: blocking with it as
		// the message keeps the prompt from the model and shows the answer.
		a.Output = Output{Continue: adapter.Bool(false), UserMessage: adapter.Text(d.Result)}
		a.Notes = append(a.Notes, "Cursor cannot answer a prompt in the model's place: blocked it with the result as the message")
	}
	if d.Action == host.Modify || adapter.Changed(call, res, "prompt") {
		a.Notes = append(a.Notes, "a hook modified the prompt ("+d.Hook+"); "+call.AgentEvent+" cannot rewrite it: ignored")
	}
	if len(res.Messages) > 0 {
		a.Notes = append(a.Notes, "Cursor takes no context at "+call.AgentEvent+": messages dropped")
	}
	return a
}

func postToolUse(call adapter.Call, res host.Result) adapter.Answer {
	var a adapter.Answer
	var out Output
	if adapter.Changed(call, res, "result") {
		if name, _ := call.Payload["tool_name"].(string); strings.HasPrefix(name, "MCP:") {
			out.UpdatedMCPToolOutput = res.Payload["result"]
		} else {
			a.Notes = append(a.Notes, "a hook rewrote the tool result ("+res.Decision.Hook+"); Cursor can rewrite only an MCP tool's: ignored")
		}
	}
	if res.Decision.Action == host.AbortTurn || res.Decision.Action == host.HardAbort {
		a.Notes = append(a.Notes, "Cursor cannot stop the agent at "+call.AgentEvent+": ignored")
	}
	if out.UpdatedMCPToolOutput != nil {
		a.Output = out
	}
	return withContext(res, a)
}

// stop answers loop.continue: allow keeps the agent working, as a
// follow-up message; anything else lets it stop.
func stop(res host.Result) adapter.Answer {
	reason, ok := adapter.KeepWorking(res.Decision)
	if !ok {
		return adapter.Answer{}
	}
	return adapter.Answer{Output: Output{FollowupMessage: reason}}
}

// withContext adds the hooks' messages to a's output as
// additional_context.
func withContext(res host.Result, a adapter.Answer) adapter.Answer {
	text := adapter.Context(res.Messages)
	if text == "" {
		return a
	}
	out, _ := a.Output.(Output)
	out.AdditionalContext = text
	a.Output = out
	return a
}

// SettingsTimeout is the printed hooks.json's timeout, in seconds (the
// unit Cursor's examples use): far above hookhost's own deadlines.
const SettingsTimeout = 10

// Settings implements adapter.CommandDialect: a .cursor/hooks.json that
// runs command for the Wired events. failClosed is never set: with it,
// Cursor blocks every call the hooks had no opinion on (an empty
// answer).
func (Dialect) Settings(command string) any {
	hooks := make(map[string]any, len(Wired))
	for _, e := range Wired {
		hooks[e] = []any{map[string]any{"command": command, "timeout": SettingsTimeout}}
	}
	return map[string]any{"version": 1, "hooks": hooks}
}
