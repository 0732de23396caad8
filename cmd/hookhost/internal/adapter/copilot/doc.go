// Package copilot is the GitHub Copilot CLI command-hook dialect
// (.github/hooks/*.json, ~/.copilot/hooks/*.json, version 1): Copilot's
// camelCase events mapped to hookhost events, and results mapped back to
// the top-level fields Copilot reads (permissionDecision,
// permissionDecisionReason, modifiedArgs, additionalContext, decision,
// reason, modifiedPrompt, modifiedResult, behavior, message).
//
// Copilot's input does not name its event, so the command line does
// (hookhost copilot --event preToolUse): the transport puts the name in
// hook_event_name before Request reads it, and the printed hooks file
// runs one command per event. toolArgs comes as the model's JSON text
// for function tools, as raw text for the others (apply_patch), and as
// an object from Copilot's SDK; hooks always see params as an object.
//
// Copilot reads exit statuses its own way: 2 is a warning (stdout is
// still the answer, stderr is shown to the user) and any other failure
// denies at preToolUse and is ignored elsewhere. So the dialect is an
// adapter.FailingDialect: a failure that must block prints the denial
// itself, and one that must not never exits 1 at preToolUse.
package copilot
