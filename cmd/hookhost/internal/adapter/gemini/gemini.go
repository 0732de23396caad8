package gemini

import (
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
	"path/filepath"
)

// Dialect is the Gemini CLI dialect.
type Dialect struct{}

var _ adapter.CommandDialect = Dialect{}

// Output is a command hook's answer as Gemini CLI reads it.
type Output struct {
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	Continue           *bool     `json:"continue,omitempty"`
	StopReason         string    `json:"stopReason,omitempty"`
	SystemMessage      string    `json:"systemMessage,omitempty"`
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is the hookSpecificOutput object.
type Specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
	// ToolInput is the whole new tool input, never a diff: Gemini's
	// scheduler rebuilds the call from it.
	ToolInput   any `json:"tool_input,omitempty"`
	LLMRequest  any `json:"llm_request,omitempty"`
	LLMResponse any `json:"llm_response,omitempty"`
}

// Names are the hookhost names of Gemini's fields.
var Names = [][2]string{
	{"params", "tool_input"}, {"result", "tool_response"}, {"response", "prompt_response"},
	{"workspace", "cwd"}, {"kind", "notification_type"},
}

// Fields are the payload fields Gemini CLI's events carry, as hooks see
// them: its own and the hookhost names Names adds.
var Fields = []string{
	"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp",
	"tool_name", "tool_input", "tool_response", "mcp_context", "original_request_name",
	"prompt", "prompt_response", "stop_hook_active", "llm_request", "llm_response",
	"source", "reason", "notification_type", "message", "details", "trigger",
	"params", "result", "response", "workspace", "kind",
}

// Fields lists the payload fields hooks may read (see Fields).
func (Dialect) Fields() []string { return Fields }

// Events maps Gemini CLI's events to hookhost's. The guard events are
// those where exit status 2 blocks: a tool call, a prompt, a model
// request and a model response (AfterModel, where hooks redact what the
// model said). At AfterAgent exit 2 means "retry", so it is not one.
var Events = map[string]adapter.Mapping{
	"BeforeTool":   {Event: host.EventToolExecutePre, Guard: true},
	"AfterTool":    {Event: host.EventToolExecutePost},
	"BeforeAgent":  {Event: host.EventTurnPre, Guard: true},
	"AfterAgent":   {Event: host.EventLoopContinue},
	"BeforeModel":  {Event: host.EventGenerationPre, Guard: true},
	"AfterModel":   {Event: host.EventGenerationPost, Guard: true},
	"SessionStart": {Event: host.EventSessionStart},
	"SessionEnd":   {Event: host.EventSessionEnd},
	"Notification": {Event: host.EventNotification},
}

// Agent implements adapter.CommandDialect.
func (Dialect) Agent() adapter.Agent {
	return adapter.Agent{
		Title: "Gemini CLI", SettingsFile: ".gemini/settings.json",
		SettingsFiles: func(home, project string) []string {
			return []string{filepath.Join(home, ".gemini", "settings.json"), filepath.Join(project, ".gemini", "settings.json")}
		},
	}
}

// Name implements adapter.CommandDialect.
func (Dialect) Name() string { return "gemini" }

// QuietStderr implements adapter.CommandDialect: Gemini parses stderr
// when stdout is empty.
func (Dialect) QuietStderr() bool { return true }

// Table implements adapter.CommandDialect.
func (Dialect) Table() map[string]adapter.Mapping { return Events }

// Request implements adapter.CommandDialect.
func (Dialect) Request(input map[string]any) adapter.Call {
	call := adapter.Map(Events, adapter.EventName(input))
	if call.Event == "" {
		return call
	}
	call.Payload = adapter.WithNames(input, Names...)
	if call.Event == host.EventToolExecutePre || call.Event == host.EventToolExecutePost {
		if _, ok := call.Payload["params"].(map[string]any); !ok {
			call.Payload["params"] = map[string]any{}
		}
	}
	return call
}

// Answer implements adapter.CommandDialect.
func (Dialect) Answer(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	if d.Action == host.AbortTurn || d.Action == host.HardAbort {
		return adapter.Answer{Output: Output{Continue: adapter.Bool(false), StopReason: adapter.Reason(d, "stopped")}}
	}
	switch call.Event {
	case host.EventToolExecutePre:
		return beforeTool(call, res)
	case host.EventToolExecutePost:
		return afterTool(call, res)
	case host.EventTurnPre:
		return beforeAgent(call, res)
	case host.EventLoopContinue:
		return afterAgent(res)
	case host.EventGenerationPre, host.EventGenerationPost:
		return model(call, res)
	case host.EventSessionStart:
		return withContext(call, res, Output{})
	}
	return adapter.Answer{}
}

func beforeTool(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	var out Output
	var input any
	if adapter.Changed(call, res, "params") {
		input = res.Payload["params"]
	}
	switch d.Action {
	case host.Deny:
		out.Decision, out.Reason = "deny", adapter.Reason(d, "denied")
	case host.Respond:
		out.Decision, out.Reason = "deny", resultText(d.Result)
	case host.Ask:
		r := adapter.Reason(d, "approval requested")
		out.Decision, out.Reason, out.SystemMessage = "ask", r, r
	case host.Allow:
		out.Decision, out.Reason = "allow", d.Reason
	}
	if input != nil && out.Decision != "deny" {
		out.HookSpecificOutput = &Specific{HookEventName: call.AgentEvent, ToolInput: input}
	}
	return withContext(call, res, out)
}

func afterTool(call adapter.Call, res host.Result) adapter.Answer {
	var out Output
	if adapter.Changed(call, res, "result") {
		out.Decision, out.Reason = "deny", resultText(res.Payload["result"])
	}
	return withContext(call, res, out)
}

func beforeAgent(call adapter.Call, res host.Result) adapter.Answer {
	var out Output
	var notes []string
	switch res.Decision.Action {
	case host.Deny:
		out.Decision, out.Reason = "deny", adapter.Reason(res.Decision, "blocked")
	case host.Respond:
		// Gemini CLI takes no answer in the model's place here (BeforeModel
		// does): blocking with it as the reason keeps the prompt from the
		// model and shows the answer.
		out.Decision, out.Reason = "deny", resultText(res.Decision.Result)
		notes = append(notes, call.AgentEvent+" cannot answer a prompt in the model's place: blocked it with the result as the reason")
	}
	a := withContext(call, res, out)
	a.Notes = append(a.Notes, notes...)
	if res.Decision.Action == host.Modify || adapter.Changed(call, res, "prompt") {
		a.Notes = append(a.Notes, "a hook modified the prompt ("+res.Decision.Hook+"); "+call.AgentEvent+" cannot rewrite it: ignored")
	}
	return a
}

// afterAgent answers loop.continue: allow keeps the agent working, which
// Gemini spells "deny" (the stop), retrying with the reason as the prompt.
func afterAgent(res host.Result) adapter.Answer {
	reason, ok := adapter.KeepWorking(res.Decision)
	if !ok {
		return adapter.Answer{}
	}
	return adapter.Answer{Output: Output{Decision: "deny", Reason: reason}}
}

// model answers BeforeModel and AfterModel: a changed llm_request or
// llm_response goes back whole; respond before the model is Gemini's
// synthetic response, which skips the model. After the model there is
// nothing left to skip (generation.post does not allow respond): a hook
// replaces the response by modifying llm_response.
func model(call adapter.Call, res host.Result) adapter.Answer {
	spec := &Specific{HookEventName: call.AgentEvent}
	var a adapter.Answer
	switch {
	case call.Event == host.EventGenerationPre && res.Decision.Action == host.Respond:
		spec.LLMResponse = res.Decision.Result
	case call.Event == host.EventGenerationPre && adapter.Changed(call, res, "llm_request"):
		spec.LLMRequest = res.Payload["llm_request"]
	case call.Event == host.EventGenerationPost && adapter.Changed(call, res, "llm_response"):
		spec.LLMResponse = res.Payload["llm_response"]
	}
	if len(res.Messages) > 0 {
		a.Notes = append(a.Notes, call.AgentEvent+" cannot add messages: dropped")
	}
	if spec.LLMRequest != nil || spec.LLMResponse != nil {
		a.Output = Output{HookSpecificOutput: spec}
	}
	return a
}

// withContext adds the hooks' messages as additionalContext; an output
// with nothing in it is no answer.
func withContext(call adapter.Call, res host.Result, out Output) adapter.Answer {
	if text := adapter.Context(res.Messages); text != "" {
		if out.HookSpecificOutput == nil {
			out.HookSpecificOutput = &Specific{HookEventName: call.AgentEvent}
		}
		out.HookSpecificOutput.AdditionalContext = text
	}
	if out == (Output{}) {
		return adapter.Answer{}
	}
	return adapter.Answer{Output: out}
}

// resultText is a tool result as Gemini shows it: its llmContent when it
// has one, a string as it is, anything else as JSON.
func resultText(v any) string {
	if m, ok := v.(map[string]any); ok {
		if s, ok := m["llmContent"].(string); ok {
			return s
		}
	}
	return adapter.Text(v)
}

// SettingsTimeout is the printed settings' timeout, in milliseconds.
const SettingsTimeout = 10000

// Settings implements adapter.CommandDialect: the "hooks" block of
// .gemini/settings.json.
func (Dialect) Settings(command string) any {
	events := adapter.SortedKeys(Events)
	hooks := make(map[string]any, len(events))
	for _, e := range events {
		hooks[e] = []any{map[string]any{"hooks": []any{map[string]any{
			"name": "hookhost", "type": "command", "command": command, "timeout": SettingsTimeout,
		}}}}
	}
	return map[string]any{"hooks": hooks}
}
