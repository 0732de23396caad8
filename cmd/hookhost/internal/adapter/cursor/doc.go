// Package cursor is the Cursor command-hook dialect (.cursor/hooks.json,
// version 1): Cursor's events mapped to hookhost events, and results
// mapped back to the flat snake_case answer Cursor reads (permission,
// user_message, agent_message, updated_input, continue,
// followup_message, additional_context).
//
// Cursor fires both the generic preToolUse and a granular event
// (beforeShellExecution, beforeReadFile, beforeMCPExecution) for one
// call, so the printed hooks.json wires only preToolUse; the granular
// events are mapped for hooks.json files written by hand, with the tool
// names preToolUse would give (Shell, Read, MCP:<tool>) so that the same
// hooks see the same call either way.
//
// Cursor does not enforce ask at preToolUse: an ask there is answered as
// a deny saying approval is required, never left to become an allow. A
// result with no opinion prints nothing, so the printed hooks.json never
// sets failClosed, with which Cursor blocks every empty answer.
package cursor
