// Package codex is the Codex CLI command-hook dialect. Codex reads Claude
// Code's field names but accepts less: an answer with a field it does not
// support at that event counts as a failed hook, and the call runs. So
// this dialect emits only what Codex accepts: PreToolUse is answered
// through hookSpecificOutput alone, Codex cannot ask there (ask becomes a
// deny saying approval is required), it accepts allow only together with
// new input, and a deny always carries a reason.
package codex
