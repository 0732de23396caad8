package codex

import (
	"maps"
	"os"
	"path/filepath"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/host"
)

// Dialect is the Codex CLI dialect.
type Dialect struct{}

var _ adapter.CommandDialect = Dialect{}

// Events maps Codex's events to hookhost's: Claude Code's table. Codex's
// other events (Interrupt, PreCompact, …) get no answer. The guard events
// are Claude Code's too: Codex blocks at exit status 2 with a reason on
// stderr at PreToolUse, PermissionRequest and UserPromptSubmit.
var Events = claude.Events

// Fields are the payload fields Codex's events carry, as hooks see them:
// Claude Code's, and the turn it belongs to.
var Fields = append([]string{"turn_id"}, claude.Fields...)

// Fields lists the payload fields hooks may read (see claude.Fields).
func (Dialect) Fields() []string { return Fields }

// Agent implements adapter.CommandDialect.
func (Dialect) Agent() adapter.Agent {
	return adapter.Agent{
		Title: "Codex CLI", SettingsFile: "~/.codex/hooks.json",
		SettingsFiles: func(home, project string) []string {
			codexHome := os.Getenv("CODEX_HOME")
			if codexHome == "" {
				codexHome = filepath.Join(home, ".codex")
			}
			// Each config layer keeps hooks in hooks.json and in the
			// [hooks] tables of its config.toml; Codex runs them all.
			return []string{filepath.Join(codexHome, "hooks.json"), filepath.Join(codexHome, "config.toml"),
				filepath.Join(project, ".codex", "hooks.json"), filepath.Join(project, ".codex", "config.toml")}
		},
	}
}

// Name implements adapter.CommandDialect.
func (Dialect) Name() string { return "codex" }

// QuietStderr implements adapter.CommandDialect.
func (Dialect) QuietStderr() bool { return false }

// Table implements adapter.CommandDialect.
func (Dialect) Table() map[string]adapter.Mapping { return Events }

// Request implements adapter.CommandDialect.
func (Dialect) Request(input map[string]any) adapter.Call { return claude.Request(input, Events) }

// Answer implements adapter.CommandDialect.
func (Dialect) Answer(call adapter.Call, res host.Result) adapter.Answer {
	switch call.Event {
	case host.EventToolExecutePre:
		return preToolUse(call, res)
	case host.EventToolApprove:
		return claude.PermissionRequest(call, res)
	}
	if a, ok := claude.Abort(res); ok {
		return a
	}
	return claude.Common(call, res)
}

// preToolUse answers through hookSpecificOutput only.
func preToolUse(call adapter.Call, res host.Result) adapter.Answer {
	d := res.Decision
	spec := &claude.Specific{HookEventName: call.AgentEvent, AdditionalContext: adapter.Context(res.Messages)}
	var a adapter.Answer
	modified := adapter.Changed(call, res, "params")
	deny := func(reason string) { spec.PermissionDecision, spec.PermissionDecisionReason = "deny", reason }
	switch d.Action {
	case host.Deny:
		deny(adapter.Reason(d, "denied"))
	case host.Ask:
		deny("approval required: " + adapter.Reason(d, "asked"))
		a.Notes = append(a.Notes, "Codex cannot ask at "+call.AgentEvent+": sent deny")
	case host.Respond:
		deny(adapter.Text(d.Result))
	case host.AbortTurn, host.HardAbort:
		deny(adapter.Reason(d, "stopped"))
	case host.Allow, host.Modify:
		if modified {
			spec.PermissionDecision, spec.PermissionDecisionReason, spec.UpdatedInput = "allow", d.Reason, res.Payload["params"]
		}
	}
	if spec.PermissionDecision == "" && spec.AdditionalContext == "" {
		return a
	}
	a.Output = claude.Output{HookSpecificOutput: spec}
	return a
}

// Settings implements adapter.CommandDialect: the "hooks" block of
// hooks.json. SessionEnd and Notification are mapped should Codex send
// them, but left out of the block: Codex's hook configuration has no such
// events.
func (Dialect) Settings(command string) any {
	events := maps.Clone(Events)
	delete(events, "SessionEnd")
	delete(events, "Notification")
	return adapter.CommandSettings(adapter.SortedKeys(events), command, claude.SettingsTimeout)
}
