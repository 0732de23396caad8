package claude

import (
	"path/filepath"
	"strings"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// Dialect is the Claude Code dialect.
type Dialect struct{}

var _ adapter.CommandDialect = Dialect{}

// Output is a command hook's answer as Claude Code (and Codex) read it.
type Output struct {
	Continue           *bool     `json:"continue,omitempty"`
	StopReason         string    `json:"stopReason,omitempty"`
	Decision           string    `json:"decision,omitempty"`
	Reason             string    `json:"reason,omitempty"`
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is the hookSpecificOutput object. hookEventName is always set:
// an answer without it is dropped (by Codex, at least).
type Specific struct {
	HookEventName            string      `json:"hookEventName"`
	PermissionDecision       string      `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string      `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             any         `json:"updatedInput,omitempty"`
	Decision                 *Permission `json:"decision,omitempty"`
	AdditionalContext        string      `json:"additionalContext,omitempty"`
	UpdatedToolOutput        any         `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput     any         `json:"updatedMCPToolOutput,omitempty"`
}

// Permission is a PermissionRequest's decision.
type Permission struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

// Names are the hookhost names of Claude Code's (and Codex's) fields.
var Names = [][2]string{
	{"params", "tool_input"}, {"result", "tool_response"}, {"response", "last_assistant_message"},
	{"workspace", "cwd"}, {"kind", "notification_type"},
}

// Fields are the payload fields Claude Code's events carry, as hooks see
// them: its own (every event's common fields and each event's) and the
// hookhost names Names adds. hookhost check warns of a hook parameter
// that is neither one of these (nor another agent's) nor a catalog field.
var Fields = []string{
	"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name", "agent_id", "agent_type",
	"tool_name", "tool_input", "tool_use_id", "tool_response", "permission_suggestions",
	"prompt", "stop_hook_active", "last_assistant_message", "agent_transcript_path",
	"source", "model", "reason", "message", "title", "notification_type",
	"params", "result", "response", "workspace", "kind",
}

// Fields lists the payload fields hooks may read (see Fields).
func (Dialect) Fields() []string { return Fields }

// Events maps Claude Code's events to hookhost's. The guard events are
// those where exit status 2 blocks: a tool call, a permission, a prompt.
// At Stop and SubagentStop exit 2 means "keep working", so they are not.
var Events = map[string]adapter.Mapping{
	"PreToolUse":        {Event: host.EventToolExecutePre, Guard: true},
	"PermissionRequest": {Event: host.EventToolApprove, Guard: true},
	"PostToolUse":       {Event: host.EventToolExecutePost},
	"UserPromptSubmit":  {Event: host.EventTurnPre, Guard: true},
	"Stop":              {Event: host.EventLoopContinue},
	"SubagentStop":      {Event: host.EventLoopContinue},
	"SessionStart":      {Event: host.EventSessionStart},
	"SessionEnd":        {Event: host.EventSessionEnd},
	"Notification":      {Event: host.EventNotification},
}

// Agent implements adapter.CommandDialect.
func (Dialect) Agent() adapter.Agent {
	return adapter.Agent{
		Title: "Claude Code", SettingsFile: ".claude/settings.json",
		SettingsFiles: func(home, project string) []string {
			return []string{filepath.Join(home, ".claude", "settings.json"),
				filepath.Join(project, ".claude", "settings.json"), filepath.Join(project, ".claude", "settings.local.json")}
		},
		ManagedDirs: map[string]string{
			"linux": "/etc/claude-code", "darwin": "/Library/Application Support/ClaudeCode",
			"windows": `C:\ProgramData\ClaudeCode`,
		},
		// managed-settings.json first, then the drop-ins in name order
		// (a later file wins a scalar key).
		ManagedFiles: func(dir string) []string {
			return []string{filepath.Join(dir, "managed-settings.json"), filepath.Join(dir, "managed-settings.d", "*.json")}
		},
	}
}

// Name implements adapter.CommandDialect.
func (Dialect) Name() string { return "claude" }

// QuietStderr implements adapter.CommandDialect: Claude reads stdout only.
func (Dialect) QuietStderr() bool { return false }

// Table implements adapter.CommandDialect.
func (Dialect) Table() map[string]adapter.Mapping { return Events }

// Request implements adapter.CommandDialect.
func (Dialect) Request(input map[string]any) adapter.Call {
	return Request(input, Events)
}

// Request maps input with the events table given (Codex shares it).
func Request(input map[string]any, events map[string]adapter.Mapping) adapter.Call {
	call := adapter.Map(events, adapter.EventName(input))
	if call.Event == "" {
		return call
	}
	call.Payload = adapter.WithNames(input, Names...)
	if call.Event == host.EventToolExecutePre || call.Event == host.EventToolApprove || call.Event == host.EventToolExecutePost {
		if _, ok := call.Payload["params"].(map[string]any); !ok {
			call.Payload["params"] = map[string]any{}
		}
	}
	return call
}

// Answer implements adapter.CommandDialect.
func (Dialect) Answer(call adapter.Call, res host.Result) adapter.Answer {
	if a, ok := Abort(res); ok {
		return a
	}
	switch call.Event {
	case host.EventToolExecutePre:
		return preToolUse(call, res)
	case host.EventToolApprove:
		return PermissionRequest(call, res)
	}
	return Common(call, res)
}

// Abort answers abort_turn and hard_abort, on every event: stop the agent.
func Abort(res host.Result) (adapter.Answer, bool) {
	a := res.Decision.Action
	if a != host.AbortTurn && a != host.HardAbort {
		return adapter.Answer{}, false
	}
	return adapter.Answer{Output: Output{Continue: adapter.Bool(false), StopReason: adapter.Reason(res.Decision, "stopped")}}, true
}

func preToolUse(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	spec := &Specific{HookEventName: call.AgentEvent, AdditionalContext: adapter.Context(res.Messages)}
	var input any
	if adapter.Changed(call, res, "params") {
		input = res.Payload["params"]
	}
	switch d.Action {
	case host.Deny:
		spec.PermissionDecision, spec.PermissionDecisionReason = "deny", adapter.Reason(d, "denied")
	case host.Respond:
		spec.PermissionDecision, spec.PermissionDecisionReason = "deny", adapter.Text(d.Result)
	case host.Allow, host.Ask:
		spec.PermissionDecision, spec.PermissionDecisionReason, spec.UpdatedInput = string(d.Action), d.Reason, input
	case host.Modify:
		spec.PermissionDecision, spec.PermissionDecisionReason, spec.UpdatedInput = "ask", d.Reason, input
	}
	if spec.PermissionDecision == "" && spec.AdditionalContext == "" {
		return adapter.Answer{}
	}
	return adapter.Answer{Output: Output{HookSpecificOutput: spec}}
}

// PermissionRequest answers a tool.approve: allow or deny the permission;
// continue and ask leave it to the agent's own dialog.
func PermissionRequest(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	var p *Permission
	switch d.Action {
	case host.Allow:
		p = &Permission{Behavior: "allow"}
	case host.Deny:
		p = &Permission{Behavior: "deny", Message: adapter.Reason(d, "denied")}
	default:
		return adapter.Answer{}
	}
	return adapter.Answer{Output: Output{HookSpecificOutput: &Specific{HookEventName: call.AgentEvent, Decision: p}}}
}

// Common answers the events Claude Code and Codex share: prompts, stops,
// tool results and session starts.
func Common(call adapter.Call, res host.Result) adapter.Answer {
	switch call.Event {
	case host.EventTurnPre:
		return userPromptSubmit(call, res)
	case host.EventLoopContinue:
		return stop(res)
	case host.EventToolExecutePost:
		return postToolUse(call, res)
	case host.EventSessionStart:
		return withContext(call, res, adapter.Answer{})
	}
	return adapter.Answer{}
}

func userPromptSubmit(call adapter.Call, res host.Result) adapter.Answer {
	var a adapter.Answer
	if res.Decision.Action == host.Modify || adapter.Changed(call, res, "prompt") {
		a.Notes = append(a.Notes, "a hook modified the prompt ("+res.Decision.Hook+"); "+call.AgentEvent+" cannot rewrite it: ignored")
	}
	switch res.Decision.Action {
	case host.Deny:
		a.Output = Output{Decision: "block", Reason: adapter.Reason(res.Decision, "blocked")}
		return a
	case host.Respond:
		// The agent cannot take an answer in the model's place; blocking
		// with the answer as the reason keeps the prompt from the model
		// and shows the answer to the user.
		a.Output = Output{Decision: "block", Reason: adapter.Text(res.Decision.Result)}
		a.Notes = append(a.Notes, call.AgentEvent+" cannot answer a prompt in the model's place: blocked it with the result as the reason")
		return a
	}
	return withContext(call, res, a)
}

// withContext answers the hooks' messages as additionalContext.
func withContext(call adapter.Call, res host.Result, a adapter.Answer) adapter.Answer {
	if text := adapter.Context(res.Messages); text != "" {
		a.Output = Output{HookSpecificOutput: &Specific{HookEventName: call.AgentEvent, AdditionalContext: text}}
	}
	return a
}

// KeepWorking is the reason sent when a hook asked the agent to keep
// working without saying why.
const KeepWorking = "a hook asked to keep working"

// stop answers loop.continue: allow keeps the agent working, which Claude
// spells "block" (the stop).
func stop(res host.Result) adapter.Answer {
	if res.Decision.Action != host.Allow {
		return adapter.Answer{}
	}
	reason := res.Decision.Reason
	if reason == "" {
		reason = KeepWorking
		if res.Decision.Hook != "" {
			reason += " (" + res.Decision.Hook + ")"
		}
	}
	return adapter.Answer{Output: Output{Decision: "block", Reason: reason}}
}

func postToolUse(call adapter.Call, res host.Result) adapter.Answer {
	spec := &Specific{HookEventName: call.AgentEvent, AdditionalContext: adapter.Context(res.Messages)}
	if adapter.Changed(call, res, "result") {
		out := res.Payload["result"]
		spec.UpdatedToolOutput = out
		if name, _ := call.Payload["tool_name"].(string); strings.HasPrefix(name, "mcp__") {
			spec.UpdatedMCPToolOutput = out
		}
	}
	if spec.AdditionalContext == "" && spec.UpdatedToolOutput == nil {
		return adapter.Answer{}
	}
	return adapter.Answer{Output: Output{HookSpecificOutput: spec}}
}

// SettingsTimeout is the timeout, in seconds, that the printed settings
// give the command: far above hookhost's own per-hook deadlines.
const SettingsTimeout = 10

// Settings implements adapter.CommandDialect: the "hooks" block of
// .claude/settings.json, with onFailure "block" on the guard events, so
// that a hook that cannot start or times out blocks too.
func (Dialect) Settings(command string) any {
	return settings(map[string]any{"type": "command", "command": command, "timeout": SettingsTimeout})
}
