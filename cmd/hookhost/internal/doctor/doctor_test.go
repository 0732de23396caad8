package doctor

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name      string
		agent     string // the key in Agents, whose Title the reasons name
		read      func(string, int, []byte, []byte) Verdict
		exit      int
		stdout    string
		stderr    string
		enforcing bool
		failed    bool
		want      string // in the answer or the reason
	}{
		{"claude deny", "claude", readClaude, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "", true, false, "deny: no"},
		{"claude ask", "claude", readClaude, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`, "", true, false, "ask"},
		{"claude allow", "claude", readClaude, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, "", false, false, "allows the canary"},
		{"claude stop", "claude", readClaude, 0, `{"continue":false,"stopReason":"halt"}`, "", true, false, "stopped: halt"},
		{"claude legacy block", "claude", readClaude, 0, `{"decision":"block","reason":"no"}`, "", true, false, "block: no"},
		{"claude nothing", "claude", readClaude, 0, "", "", false, false, "no opinion"},
		{"claude text", "claude", readClaude, 0, "deny", "", false, false, "not a JSON object"},
		{"claude an array", "claude", readClaude, 0, "[1]", "", false, false, "not a JSON object"},
		{"claude exit 2", "claude", readClaude, 2, "", "no way\n", true, false, "exit 2, blocked: no way"},
		{"claude exit 1", "claude", readClaude, 1, "", "boom", false, true, "exit status 1 is a hook error"},
		{"dash not found", "claude", readClaude, 127, "", "sh: 1: hookhsot: not found\n", false, true, `command not found: "hookhsot"`},
		{"bash not found", "claude", readClaude, 127, "", "bash: line 1: /opt/hh/hookhost: command not found\n", false, true, `command not found: "/opt/hh/hookhost"`},
		{"not executable", "claude", readClaude, 126, "", "sh: 1: ./x: Permission denied", false, true, "cannot be executed"},
		{"codex deny", "codex", readCodex, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "", true, false, "deny: no"},
		{"codex ask", "codex", readCodex, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`, "", false, false, "cannot ask"},
		{"codex without hookEventName", "codex", readCodex, 0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", false, false, "drops the answer"},
		{"codex top level", "codex", readCodex, 0, `{"decision":"block"}`, "", false, false, "only from hookSpecificOutput"},
		{"codex exit 2 silent", "codex", readCodex, 2, "", "", false, true, "only with a reason on stderr"},
		{"codex exit 2", "codex", readCodex, 2, "", "no", true, false, "blocked: no"},
		{"gemini deny", "gemini", readGemini, 0, `{"decision":"deny","reason":"no"}`, "", true, false, "deny: no"},
		{"gemini block", "gemini", readGemini, 0, `{"decision":"block"}`, "", true, false, "block"},
		{"gemini allow", "gemini", readGemini, 0, `{"decision":"allow"}`, "", false, false, "allows"},
		{"gemini exit 2", "gemini", readGemini, 2, "", "no", true, false, "blocked: no"},
		{"gemini exit 3", "gemini", readGemini, 3, "", "", false, true, "hook error to Gemini CLI"},
		{"cursor deny", "cursor", readCursor, 0, `{"permission":"deny","user_message":"no"}`, "", true, false, "deny: no"},
		{"cursor ask", "cursor", readCursor, 0, `{"permission":"ask"}`, "", false, false, "does not enforce ask"},
		{"cursor nested", "cursor", readCursor, 0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", false, false, "without a permission"},
		{"cursor exit 2", "cursor", readCursor, 2, "", "no", true, false, "blocked: no"},
		{"cursor exit 1", "cursor", readCursor, 1, "", "", false, true, "hook error to Cursor, which lets the call through"},
		{"copilot deny", "copilot", readCopilot, 0, `{"permissionDecision":"deny","permissionDecisionReason":"no"}`, "", true, false, "deny: no"},
		{"copilot deny with a warning", "copilot", readCopilot, 2, `{"permissionDecision":"deny"}`, "careful", true, false, "deny"},
		{"copilot exit 2 alone", "copilot", readCopilot, 2, "", "careful", false, false, "no opinion"},
		{"copilot nested", "copilot", readCopilot, 0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "", false, false, "without a permissionDecision"},
		{"copilot exit 1", "copilot", readCopilot, 1, "", "", false, true, "denies every tool call while the hook fails"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.read(Agents[tc.agent].Title, tc.exit, []byte(tc.stdout), []byte(tc.stderr))
			if v.Enforcing != tc.enforcing || v.Failed != tc.failed || !strings.Contains(v.Answer+" | "+v.Reason, tc.want) {
				t.Errorf("%+v; want enforcing %v, failed %v, with %q", v, tc.enforcing, tc.failed, tc.want)
			}
		})
	}
}

func TestExpandAllowed(t *testing.T) {
	env := []string{"HOOKHOST_TOKEN=old", "HOOKHOST_TOKEN=s3cret", "OTHER=x"}
	for _, tc := range []struct{ in, want string }{
		{"Bearer $HOOKHOST_TOKEN", "Bearer s3cret"},
		{"Bearer ${HOOKHOST_TOKEN}", "Bearer s3cret"},
		{"$OTHER-$HOOKHOST_TOKEN", "-s3cret"},
		{"plain", "plain"},
	} {
		if got := expandAllowed(tc.in, []string{"HOOKHOST_TOKEN"}, env); got != tc.want {
			t.Errorf("expandAllowed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// An http entry gets the canary with its headers, the allowed variables
// filled in; its answer is read as Claude Code reads one.
func TestHTTPEntries(t *testing.T) {
	var gotAuth, gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		b := make([]byte, 4096)
		n, _ := r.Body.Read(b)
		gotBody = string(b[:n])
		switch {
		case r.URL.Path == "/down":
			w.WriteHeader(http.StatusServiceUnavailable)
		case gotAuth != "Bearer s3cret":
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/v1/agents/claude":
			w.Write([]byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`))
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	write := func(url, extra string) {
		t.Helper()
		doc := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"` + srv.URL + url + `","timeout":5,` +
			`"headers":{"Authorization":"Bearer $HOOKHOST_TOKEN"}` + extra + `}]}]}}`
		if err := os.WriteFile(settings, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, url, extra string
		enforcing        bool
		want             string
	}{
		{"enforcing", "/v1/agents/claude", `,"allowedEnvVars":["HOOKHOST_TOKEN"],"onFailure":"block"`, true, "deny: no"},
		{"a variable not allowed is empty", "/v1/agents/claude", `,"onFailure":"block"`, false, "HTTP status of 401"},
		{"no onFailure", "/v1/agents/claude", `,"allowedEnvVars":["HOOKHOST_TOKEN"]`, false, `fails open: no "onFailure": "block": a server that is down`},
		{"an error status", "/down", `,"allowedEnvVars":["HOOKHOST_TOKEN"],"onFailure":"block"`, false, "HTTP status of 503"},
		{"no opinion", "/other", `,"allowedEnvVars":["HOOKHOST_TOKEN"],"onFailure":"block"`, false, "no opinion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write(tc.url, tc.extra)
			rep, err := Check(context.Background(), Agents["claude"], Options{Files: []string{settings}, Project: dir,
				Env: []string{"HOOKHOST_TOKEN=s3cret"}})
			if err != nil {
				t.Fatal(err)
			}
			r := rep.Entries[0]
			if r.Enforcing != tc.enforcing || rep.Enforcing != tc.enforcing || !strings.Contains(r.Answer+" | "+r.Reason, tc.want) {
				t.Errorf("%+v; want enforcing %v with %q", r, tc.enforcing, tc.want)
			}
			if !strings.Contains(gotBody, `"tool_input":{"command":"rm -rf /"`) || !strings.Contains(gotBody, `"hook_event_name":"PreToolUse"`) {
				t.Errorf("the server got %s, want the canary event", gotBody)
			}
		})
	}
}

func TestFlatEntries(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"version 2", `{"version": 2, "hooks": {}}`, "version 2: the agent refuses the file"},
		{"exec and bash", `{"hooks": {"preToolUse": [{"bash": "x", "exec": "y"}]}}`, "both a command and exec"},
		{"bad timeoutSec", `{"hooks": {"preToolUse": [{"bash": "x", "timeoutSec": "5"}]}}`, "hooks.preToolUse[0].timeoutSec: want a number, got a string"},
		{"bad env", `{"hooks": {"preToolUse": [{"bash": "x", "env": {"A": 1}}]}}`, "hooks.preToolUse[0].env.A: want a string"},
		{"not a list", `{"hooks": {"preToolUse": {"bash": "x"}}}`, "hooks.preToolUse: want an array, got an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			if _, err := flatEntries(doc, "preToolUse"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	var doc map[string]any
	json.Unmarshal([]byte(`{"disableAllHooks": true, "hooks": {"preToolUse": [{"bash": "x"}]}}`), &doc)
	if es, err := flatEntries(doc, "preToolUse"); err != nil || len(es) != 0 {
		t.Errorf("disableAllHooks: %v, %v; want no entries", es, err)
	}
}
