package doctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// A Verdict is how the agent reads a hook's answer to the canary.
type Verdict struct {
	// Enforcing is true when the canary is denied or asked.
	Enforcing bool `json:"enforcing"`
	// Answer is what the hook answered, as the agent reads it.
	Answer string `json:"answer"`
	// Reason says, in plain words, why the entry does not enforce.
	Reason string `json:"reason,omitempty"`
	// Failed is true when the agent reads the answer as a failed hook
	// (an exit status, a timeout, a server that cannot be reached): a
	// broken entry, whoever's it is, rather than one with no opinion.
	Failed bool `json:"failed,omitempty"`
}

// failed is a verdict on a hook that failed.
func failed(answer, reason string) Verdict {
	return Verdict{Answer: answer, Reason: reason, Failed: true}
}

func enforcing(answer string) Verdict { return Verdict{Enforcing: true, Answer: answer} }

func notEnforcing(answer, reason string) Verdict { return Verdict{Answer: answer, Reason: reason} }

// readClaude reads a command hook's answer as Claude Code does: exit 2
// blocks with stderr as the reason; exit 0 is read from stdout; any
// other status is a hook error, and the call proceeds.
func readClaude(agent string, exit int, stdout, stderr []byte) Verdict {
	switch exit {
	case 0:
		return readClaudeJSON(agent, stdout)
	case 2:
		return enforcing("exit 2, blocked: " + firstLine(stderr))
	}
	return failedExit(agent, false, exit, stderr)
}

// readClaudeHTTP reads an http hook's answer as Claude Code does: a 2xx
// body is read as a command hook's stdout (empty: no answer); anything
// else is a hook error.
func readClaudeHTTP(agent string, status int, body []byte) Verdict {
	if status < 200 || status > 299 {
		return failed(fmt.Sprintf("HTTP %d %s", status, firstLine(body)),
			fmt.Sprintf("an HTTP status of %d is a hook error to %s, which lets the call through "+
				"(or, with onFailure \"block\" on 2.1.295 and later, blocks every call)", status, agent))
	}
	t := bytes.TrimSpace(body)
	if len(t) > 0 && t[0] != '{' {
		return failed(firstLine(body), "an answer that is not a JSON object is a hook error to "+agent+", which lets the call through")
	}
	return readClaudeJSON(agent, body)
}

// claudeAnswer is the part of Claude Code's (and Codex's) hook output
// that decides a PreToolUse.
type claudeAnswer struct {
	Continue   *bool  `json:"continue"`
	StopReason string `json:"stopReason"`
	Decision   string `json:"decision"`
	Reason     string `json:"reason"`
	Specific   *struct {
		HookEventName string `json:"hookEventName"`
		Permission    string `json:"permissionDecision"`
		Reason        string `json:"permissionDecisionReason"`
		UpdatedInput  any    `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

func readClaudeJSON(agent string, out []byte) Verdict {
	var a claudeAnswer
	switch v, ok := decodeAnswer(agent, out, &a); {
	case !ok:
		return v
	case a.Continue != nil && !*a.Continue:
		return enforcing("stopped: " + a.StopReason)
	case a.Specific != nil && (a.Specific.Permission == "deny" || a.Specific.Permission == "ask"):
		return enforcing(a.Specific.Permission + ": " + a.Specific.Reason)
	case a.Specific != nil && a.Specific.Permission != "":
		return notEnforcing(a.Specific.Permission+": "+a.Specific.Reason, "the hook allows the canary")
	case a.Decision == "block":
		return enforcing("block: " + a.Reason)
	}
	return notEnforcing(oneLine(out), "an answer without a decision: "+agent+" lets the call through")
}

// readCodex reads an answer as Codex CLI does: exit 2 blocks only with a
// reason on stderr; at PreToolUse only hookSpecificOutput with its
// hookEventName is read, and only a deny blocks (Codex cannot ask
// there, and an answer it does not accept is a failed hook).
func readCodex(agent string, exit int, stdout, stderr []byte) Verdict {
	switch {
	case exit == 2 && len(bytes.TrimSpace(stderr)) > 0:
		return enforcing("exit 2, blocked: " + firstLine(stderr))
	case exit == 2:
		return failed("exit 2 with nothing on stderr", agent+" blocks on exit 2 only with a reason on stderr: the call runs")
	case exit != 0:
		return failedExit(agent, false, exit, stderr)
	}
	var a claudeAnswer
	v, ok := decodeAnswer(agent, stdout, &a)
	switch {
	case !ok:
		return v
	case a.Specific == nil:
		return notEnforcing(oneLine(stdout), agent+" reads a PreToolUse answer only from hookSpecificOutput: the call runs")
	case a.Specific.HookEventName != "PreToolUse":
		return notEnforcing(oneLine(stdout), "hookSpecificOutput without hookEventName \"PreToolUse\": "+agent+" drops the answer and the call runs")
	case a.Specific.Permission == "deny":
		return enforcing("deny: " + a.Specific.Reason)
	case a.Specific.Permission == "ask":
		return notEnforcing("ask: "+a.Specific.Reason, agent+" cannot ask at PreToolUse: it reads the answer as a failed hook and the call runs")
	}
	return notEnforcing(oneLine(stdout), "the hook does not deny the canary: the call runs")
}

// readGemini reads an answer as Gemini CLI does: exit 2 blocks with
// stderr as the reason; exit 0 is read from stdout (decision deny or
// block, or continue false, stop the call; ask asks); any other status
// is a warning, and the call runs.
func readGemini(agent string, exit int, stdout, stderr []byte) Verdict {
	switch exit {
	case 0:
	case 2:
		return enforcing("exit 2, blocked: " + firstLine(stderr))
	default:
		return failedExit(agent, false, exit, stderr)
	}
	var a struct {
		Decision   string `json:"decision"`
		Reason     string `json:"reason"`
		Continue   *bool  `json:"continue"`
		StopReason string `json:"stopReason"`
	}
	switch v, ok := decodeAnswer(agent, stdout, &a); {
	case !ok:
		return v
	case a.Continue != nil && !*a.Continue:
		return enforcing("stopped: " + a.StopReason)
	case a.Decision == "deny" || a.Decision == "block" || a.Decision == "ask":
		return enforcing(a.Decision + ": " + a.Reason)
	case a.Decision != "":
		return notEnforcing(a.Decision+": "+a.Reason, "the hook allows the canary")
	}
	return notEnforcing(oneLine(stdout), "an answer without a decision: "+agent+" lets the call through")
}

// decodeAnswer decodes stdout into a; when it cannot (nothing, or not a
// JSON object), ok is false and the verdict says why.
func decodeAnswer(agent string, out []byte, a any) (Verdict, bool) {
	t := bytes.TrimSpace(out)
	if len(t) == 0 {
		return notEnforcing("no answer", "no opinion: "+agent+" lets the call through (its own permission rules decide)"), false
	}
	if err := json.Unmarshal(t, a); err != nil || t[0] != '{' {
		return notEnforcing(oneLine(out), "an answer that is not a JSON object: "+agent+" reads no decision in it and lets the call through"), false
	}
	return Verdict{}, true
}

// notFound finds the word a shell could not find in its error message
// ("sh: 1: hookhsot: not found", "bash: hookhsot: command not found").
//
// Compiled on first use, not at start: every hookhost process links this
// package, and most never run doctor.
var notFound = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)([^\s:]+): (?:command )?not found\s*$`)
})

// failedExit is an exit status the agent reads as a failed hook: one
// that lets the call through, or, where errorBlocks, one that blocks
// every call — a broken guard either way.
func failedExit(agent string, errorBlocks bool, exit int, stderr []byte) Verdict {
	answer := fmt.Sprintf("exit %d", exit)
	if s := firstLine(stderr); s != "" {
		answer += ": " + s
	}
	proceeds := fmt.Sprintf("exit status %d is a hook error to %s, which lets the call through", exit, agent)
	if errorBlocks {
		proceeds = fmt.Sprintf("exit status %d is a hook error to %s, which denies every tool call while the hook fails", exit, agent)
	}
	switch m := notFound().FindSubmatch(stderr); {
	case exit == 127 && m != nil:
		return failed(answer, fmt.Sprintf("command not found: %q (is it on the agent's PATH?); %s", m[1], proceeds))
	case exit == 126:
		return failed(answer, "the command cannot be executed (permission denied?); "+proceeds)
	}
	return failed(answer, proceeds)
}

// firstLine is the first non-empty line of b, trimmed and cut short.
func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return cut(l)
		}
	}
	return ""
}

// oneLine is b on one line, cut short.
func oneLine(b []byte) string { return cut(strings.Join(strings.Fields(string(b)), " ")) }

func cut(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// readCursor reads an answer as Cursor does at preToolUse: exit 2 blocks;
// exit 0 is read from stdout, flat: permission deny blocks, and ask is
// not enforced there; any other status is a hook failure, and the call
// runs (unless the entry has failClosed).
func readCursor(agent string, exit int, stdout, stderr []byte) Verdict {
	switch exit {
	case 0:
	case 2:
		return enforcing("exit 2, blocked: " + firstLine(stderr))
	default:
		return failedExit(agent, false, exit, stderr)
	}
	var a struct {
		Permission  string `json:"permission"`
		UserMessage string `json:"user_message"`
	}
	switch v, ok := decodeAnswer(agent, stdout, &a); {
	case !ok:
		return v
	case a.Permission == "deny":
		return enforcing("deny: " + a.UserMessage)
	case a.Permission == "ask":
		return notEnforcing("ask: "+a.UserMessage, agent+" does not enforce ask at preToolUse: the call runs")
	case a.Permission != "":
		return notEnforcing(a.Permission+": "+a.UserMessage, "the hook allows the canary")
	}
	return notEnforcing(oneLine(stdout), "an answer without a permission: "+agent+" lets the call through")
}

// readCopilot reads an answer as Copilot CLI does at preToolUse: exit 0
// and exit 2 (a warning) are read from stdout, top-level fields only, and
// text that is not JSON is ignored; any other status is a hook error,
// which denies the call — and every other call while the hook fails.
func readCopilot(agent string, exit int, stdout, stderr []byte) Verdict {
	if exit != 0 && exit != 2 {
		return failedExit(agent, true, exit, stderr)
	}
	var a struct {
		Decision string `json:"permissionDecision"`
		Reason   string `json:"permissionDecisionReason"`
	}
	switch v, ok := decodeAnswer(agent, stdout, &a); {
	case !ok:
		return v
	case a.Decision == "deny" || a.Decision == "ask":
		return enforcing(a.Decision + ": " + a.Reason)
	case a.Decision != "":
		return notEnforcing(a.Decision+": "+a.Reason, "the hook allows the canary")
	}
	return notEnforcing(oneLine(stdout), "an answer without a permissionDecision: "+agent+" lets the call through")
}
