// Package gemini is the Gemini CLI command-hook dialect: BeforeTool,
// AfterTool, BeforeAgent, AfterAgent, BeforeModel, AfterModel,
// SessionStart, SessionEnd and Notification mapped to hookhost events,
// answered with Gemini's own fields (decision allow|deny|ask, reason,
// continue, stopReason, systemMessage, hookSpecificOutput).
//
// Gemini reads stderr as the answer when stdout is empty — plain text at
// exit 0 becomes an explicit allow shown to the user — so the command
// that runs this dialect writes nothing to stderr on success
// (QuietStderr); notes go to its log file.
package gemini
