// Package claude is the Claude Code command-hook dialect: Claude's hook
// events (PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit,
// Stop, SubagentStop, SessionStart, SessionEnd, Notification) mapped to
// hookhost events, and results mapped back to the JSON Claude reads.
//
// Every field Claude sends reaches the hooks under its own name, plus the
// names hookhost's events use: params (tool_input), result
// (tool_response), response (last_assistant_message), workspace (cwd) and
// kind (notification_type). A result with no opinion — continue and no
// messages — is no output at all: an explicit allow where the hooks said
// nothing would override Claude's own permission settings.
//
// The Output type is shared with the codex package, whose agent reads the
// same field names.
package claude
