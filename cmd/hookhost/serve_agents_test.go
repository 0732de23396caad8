package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// claudeGuards deny "rm -rf /" in whatever tool Claude Code names, one
// directory per language.
var claudeGuards = map[string]map[string]string{
	"lua": {"guard.lua": `hook.on("tool.execute.pre", function(tool_name, params)
  if (params.command or ""):find("rm -rf /", 1, true) then
    return hook.deny("refusing to delete the root filesystem")
  end
end, { name = "no-rm-root" })
`},
	"starlark": {"guard.star": `def no_rm_root(tool_name, params):
    if "rm -rf /" in params.get("command", ""):
        return hook.deny("refusing to delete the root filesystem")

hook.on("tool.execute.pre", no_rm_root)
`},
}

// claudePreToolUse is a PreToolUse event as Claude Code sends it, to a
// command hook's stdin or an http hook's body.
func claudePreToolUse(command string) string {
	return `{"session_id":"9f1c2b","transcript_path":"/home/u/.claude/projects/p/9f1c2b.jsonl","cwd":"/home/u/p",` +
		`"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"` + command + `","description":"run it"},"tool_use_id":"toolu_01"}`
}

// Claude Code's http hook, answered by a running serve: the body is the
// event, the answer what hookhost claude prints for it — a deny for
// rm -rf /, nothing for ls — in both languages; with a token, the
// request needs it.
func TestServeAnswersClaudeHTTPHooks(t *testing.T) {
	for lang, files := range claudeGuards {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			s := startServe(t, []string{"HOOKHOST_TOKEN=s3cret-token"}, "--dir", dir)
			auth := []string{"Authorization", "Bearer s3cret-token"}
			for _, cmd := range []string{"rm -rf /", "ls -la"} {
				event := claudePreToolUse(cmd)
				code, got := s.call("POST", "/v1/agents/claude", "application/json", event, auth...)
				var want, stderr bytes.Buffer
				if exit := runMain(context.Background(), []string{"hookhost", "claude", "--dir", dir},
					strings.NewReader(event), &want, &stderr); exit != 0 {
					t.Fatalf("hookhost claude: exit %d: %s", exit, stderr.String())
				}
				if code != 200 || got != want.String() {
					t.Errorf("POST /v1/agents/claude (%s): %d %q\nwant (hookhost claude) %q", cmd, code, got, want.String())
				}
				if strings.Contains(cmd, "rm") && !strings.Contains(got, `"permissionDecision":"deny","permissionDecisionReason":"refusing to delete the root filesystem"`) {
					t.Errorf("rm -rf / answered %q, want a deny", got)
				}
			}
			if code, got := s.call("POST", "/v1/agents/claude", "application/json", claudePreToolUse("rm -rf /")); code != 401 {
				t.Errorf("without the token: %d %s, want 401", code, got)
			}
			if code, got := s.call("POST", "/v1/agents/claude", "application/json", `{"hook_event_name":"PreToolUse",`, auth...); code != 200 ||
				!strings.Contains(got, `"permissionDecision":"deny"`) {
				t.Errorf("a PreToolUse cut short: %d %s, want a 200 deny", code, got)
			}
			s.stop()
		})
	}
}

// A respond at turn.pre answers a prompt without the model: served over
// http it is what the command hook prints — Copilot CLI's handled
// answer, a block for the agents that cannot take one — in both
// languages.
func TestServeAnswersPromptRespond(t *testing.T) {
	for lang, files := range map[string]map[string]string{
		"lua": {"prompt.lua": `hook.on("turn.pre", function(prompt)
  if prompt == "/version" then return hook.respond("policy 1.2") end
end, { name = "prompt" })
`},
		"starlark": {"prompt.star": `def prompt(prompt):
    if prompt == "/version":
        return hook.respond("policy 1.2")

hook.on("turn.pre", prompt, name = "prompt")
`},
	} {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			s := startServe(t, nil, "--dir", dir)
			for _, tc := range []struct {
				path    string
				argv    []string
				event   string
				wantOut string
			}{
				{"/v1/agents/copilot/userPromptSubmitted", []string{"copilot", "--event", "userPromptSubmitted"},
					`{"sessionId":"s1","timestamp":1764633600000,"cwd":"/home/u/p","prompt":"/version"}`,
					`{"handled":true,"responseContent":"policy 1.2"}`},
				{"/v1/agents/cursor", []string{"cursor"},
					`{"hook_event_name":"beforeSubmitPrompt","conversation_id":"c1","generation_id":"g1","workspace_roots":["/home/u/p"],"prompt":"/version"}`,
					`{"continue":false,"user_message":"policy 1.2"}`},
				{"/v1/agents/claude", []string{"claude"},
					`{"session_id":"s1","cwd":"/home/u/p","hook_event_name":"UserPromptSubmit","prompt":"/version"}`,
					`{"decision":"block","reason":"policy 1.2"}`},
			} {
				code, got := s.call("POST", tc.path, "application/json", tc.event)
				var want, stderr bytes.Buffer
				if exit := runMain(context.Background(), append(append([]string{"hookhost"}, tc.argv...), "--dir", dir),
					strings.NewReader(tc.event), &want, &stderr); exit != 0 {
					t.Fatalf("hookhost %v: exit %d: %s", tc.argv, exit, stderr.String())
				}
				if code != 200 || got != want.String() || strings.TrimSpace(got) != tc.wantOut {
					t.Errorf("POST %s: %d %q\nwant %q (hookhost %v printed %q)", tc.path, code, got, tc.wantOut, tc.argv, want.String())
				}
			}
			s.stop()
		})
	}
}
