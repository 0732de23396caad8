package doctor

import (
	"encoding/json"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	claudedialect "github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	codexdialect "github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	copilotdialect "github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/copilot"
	cursordialect "github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/cursor"
	geminidialect "github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
)

// An Agent is how one agent configures and runs its hooks.
type Agent struct {
	// Name is the agent's hookhost command ("claude"), and Title and
	// Settings are the dialect's (adapter.Agent): fromDialect fills them.
	Name  string
	Title string
	// GuardEvent is the agent's event before a tool call, where a
	// guard must hold.
	GuardEvent string
	// ShellTool is the agent's name for its shell tool, which the canary
	// calls and matchers are matched against.
	ShellTool string
	// Settings lists the files the agent reads hooks from, for the user's
	// home directory and the project's (in the order the agent reads
	// them).
	Settings func(home, project string) []string
	// ManagedDirs and ManagedFiles are the dialect's (adapter.Agent):
	// where an administrator puts managed settings; nil for none.
	ManagedDirs  map[string]string
	ManagedFiles func(dir string) []string
	// Entries reads the hook entries on event from a settings document.
	Entries func(doc map[string]any, event string) ([]Entry, error)
	// Switches reads the settings of a document (file, managed or not)
	// that turn hooks off; nil for an agent without such settings.
	Switches func(doc map[string]any, file string, managed bool) ([]Switch, error)
	// Trust says why the agent does not load a project's own settings,
	// from the user's documents; "" when it does. nil: it always does.
	Trust func(userDocs []map[string]any, project string) string
	// Unit is what a timeout number in the settings counts, and
	// DefaultTimeout what applies when an entry gives none.
	Unit, DefaultTimeout time.Duration
	// Canary is the guard event the agent sends for a shell tool call
	// running command, in directory cwd.
	Canary func(command, cwd string) map[string]any
	// Env is what the agent adds to a command hook's environment.
	Env func(project string) []string
	// Read judges a command hook's answer (exit status, stdout, stderr)
	// as the agent reads it.
	Read func(exit int, stdout, stderr []byte) Verdict
	// ReadHTTP judges an http hook's answer (status, body); nil for
	// agents without http hooks.
	ReadHTTP func(status int, body []byte) Verdict
	// OnFailure reports whether an entry can say that failing to run
	// blocks (Claude Code's "onFailure": "block"); a guard entry that does
	// not say it fails open.
	OnFailure bool
	// Shell runs a command entry ("sh", or "bash" for Copilot CLI).
	Shell string
	// ErrorBlocks reports whether a hook that fails (an exit status the
	// agent reads as an error, a timeout, a command that cannot start)
	// blocks the call at the guard event (Copilot CLI) rather than let it
	// through.
	ErrorBlocks bool
	// FailClosedKey reports whether entries have Cursor's failClosed,
	// which also blocks every call a hook has no answer for.
	FailClosedKey bool

	dialect adapter.CommandDialect
	// read and readHTTP are Read and ReadHTTP before fromDialect gives
	// them the Title their reasons name.
	read     func(agent string, exit int, stdout, stderr []byte) Verdict
	readHTTP func(agent string, status int, body []byte) Verdict
}

// Agents are the agents doctor knows, by name.
var Agents = map[string]Agent{
	"claude":  claude,
	"gemini":  gemini,
	"codex":   codex,
	"cursor":  cursor,
	"copilot": copilot,
}

// fromDialect is a with the facts its dialect owns: the command's name,
// the agent's title (which its answer readers' reasons name) and where it
// reads its settings (managed ones too). The guard event and the canary
// are the agent's own words, which the dialect reads: a test checks that
// it maps them to the guard it means.
func fromDialect(d adapter.CommandDialect, a Agent) Agent {
	info := d.Agent()
	a.Name, a.Title, a.Settings = d.Name(), info.Title, info.SettingsFiles
	a.ManagedDirs, a.ManagedFiles = info.ManagedDirs, info.ManagedFiles
	a.dialect = d
	title, read := info.Title, a.read
	a.Read = func(exit int, stdout, stderr []byte) Verdict { return read(title, exit, stdout, stderr) }
	if read := a.readHTTP; read != nil {
		a.ReadHTTP = func(status int, body []byte) Verdict { return read(title, status, body) }
	}
	return a
}

var claude = fromDialect(claudedialect.Dialect{}, Agent{
	GuardEvent: "PreToolUse", ShellTool: "Bash",
	Entries: nestedEntries, Switches: claudeSwitches, Unit: time.Second, DefaultTimeout: 600 * time.Second,
	Canary: func(command, cwd string) map[string]any {
		return map[string]any{"session_id": canarySession, "transcript_path": "", "cwd": cwd, "permission_mode": "default",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_hookhost_doctor",
			"tool_input": map[string]any{"command": command, "description": canaryDescription}}
	},
	Env:      func(project string) []string { return []string{"CLAUDE_PROJECT_DIR=" + project} },
	read:     readClaude,
	readHTTP: readClaudeHTTP, OnFailure: true,
})

var gemini = fromDialect(geminidialect.Dialect{}, Agent{
	GuardEvent: "BeforeTool", ShellTool: "run_shell_command",
	Entries: nestedEntries, Unit: time.Millisecond, DefaultTimeout: 60 * time.Second,
	Canary: func(command, cwd string) map[string]any {
		return map[string]any{"session_id": canarySession, "transcript_path": "", "cwd": cwd,
			"hook_event_name": "BeforeTool", "timestamp": time.Now().UTC().Format(time.RFC3339),
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command, "description": canaryDescription}}
	},
	Env: func(project string) []string {
		return []string{"GEMINI_PROJECT_DIR=" + project, "CLAUDE_PROJECT_DIR=" + project}
	},
	read: readGemini,
})

var codex = fromDialect(codexdialect.Dialect{}, Agent{
	GuardEvent: "PreToolUse", ShellTool: "Bash",
	Entries: nestedEntries, Switches: codexSwitches, Trust: codexTrust, Unit: time.Second, DefaultTimeout: 600 * time.Second,
	Canary: func(command, cwd string) map[string]any {
		return map[string]any{"session_id": canarySession, "turn_id": "hookhost-doctor-turn", "transcript_path": nil, "cwd": cwd,
			"model": "", "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_use_id": "call_hookhost_doctor", "tool_input": map[string]any{"command": command}}
	},
	Env:  func(string) []string { return nil },
	read: readCodex,
})

// The canary's session and description: a hook's log shows where the
// call came from.
const (
	canarySession     = "hookhost-doctor"
	canaryDescription = "hookhost doctor canary: never run"
)

var cursor = fromDialect(cursordialect.Dialect{}, Agent{
	GuardEvent: "preToolUse", ShellTool: "Shell",
	Entries: flatEntries, Unit: time.Second, DefaultTimeout: 60 * time.Second,
	Canary: func(command, cwd string) map[string]any {
		return map[string]any{"hook_event_name": "preToolUse", "conversation_id": canarySession, "generation_id": canarySession,
			"session_id": canarySession, "model": "", "cursor_version": "", "workspace_roots": []any{cwd}, "user_email": "",
			"transcript_path": nil, "tool_name": "Shell", "tool_use_id": "hookhost-doctor", "cwd": cwd,
			"tool_input": map[string]any{"command": command, "cwd": cwd, "timeout": 30000}}
	},
	Env: func(project string) []string {
		return []string{"CURSOR_PROJECT_DIR=" + project, "CLAUDE_PROJECT_DIR=" + project}
	},
	read: readCursor, FailClosedKey: true,
})

var copilot = fromDialect(copilotdialect.Dialect{}, Agent{
	GuardEvent: "preToolUse", ShellTool: "bash",
	Entries: flatEntries, Unit: time.Second, DefaultTimeout: 30 * time.Second,
	Canary: func(command, cwd string) map[string]any {
		args, _ := json.Marshal(map[string]any{"command": command, "description": canaryDescription})
		return map[string]any{"sessionId": canarySession, "timestamp": time.Now().UnixMilli(), "cwd": cwd,
			"toolName": "bash", "toolArgs": string(args)}
	},
	Env: func(project string) []string {
		return []string{"COPILOT_PROJECT_DIR=" + project, "CLAUDE_PROJECT_DIR=" + project}
	},
	read: readCopilot, Shell: "bash", ErrorBlocks: true,
})
