package examples

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host"
)

// The shipped guardrails are hook packs (hooks.d/<pack>/HOOK.md), whose
// behaviour is tested by their own table tests (hooks.d/*/*_test.yaml,
// run by hookhost test and by cmd/hookhost's TestShippedHooks). This
// test covers what a table test cannot: the settings an operator gives a
// pack in hookhost.yaml, over the defaults of its HOOK.md.

// shippedConfig is an operator's hookhost.yaml for the shipped hooks.
const shippedConfig = `
hooks:
  destructive/:
    config: {shell_tools: [my_terminal], protected: [/data]}
  git-risky/:
    config: {protected_branches: [release]}
  secrets/:
    config: {read_tools: [peek], allow: ["fixtures/.*%.pem"]}
  protect-settings/:
    config: {write_tools: [scribble], hooks_dir: /srv/guards, protect: ["/etc/guard%.conf"]}
  outside-workspace/:
    config: {workspace: /w, allow: [/scratch], write_tools: [scribble]}
  redact-secrets/:
    config: {patterns: ["ACME-[0-9]{6}"], keep: [vault_read]}
  web-fetch-limit/:
    config: {per_minute: 2, fetch_tools: [grab]}
  todo-continue/:
    config: {max_rounds: 1}
`

func TestShippedHooksConfig(t *testing.T) {
	cfg, err := host.ParseConfig("hookhost.yaml", []byte(shippedConfig))
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(context.Background(), host.Options{Dir: "../hooks.d", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	for _, c := range []struct {
		event, payload string
		want           host.Action
		reason         string
	}{
		// shell_tools adds a tool name, matched case-insensitively; protected adds a directory.
		{"tool.execute.pre", `{"tool_name":"My_Terminal","params":{"command":"rm -rf /"},"cwd":"/w"}`, host.Deny, "root directory"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -rf /data"},"cwd":"/w"}`, host.Deny, "/data"},
		// protected_branches replaces main and master.
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"git push -f origin release"},"cwd":"/w"}`, host.Ask, "release"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"git push -f origin main"},"cwd":"/w"}`, host.Continue, ""},
		// read_tools, and allow exempting fixtures.
		{"tool.execute.pre", `{"tool_name":"peek","params":{"path":".env"},"cwd":"/w"}`, host.Ask, "environment file"},
		{"tool.execute.pre", `{"tool_name":"Read","params":{"file_path":"fixtures/test.pem"},"cwd":"/w"}`, host.Continue, ""},
		// write_tools and hooks_dir; the workspace and allow of outside-workspace.
		{"tool.execute.pre", `{"tool_name":"scribble","params":{"path":"/srv/guards/x.lua"},"cwd":"/srv"}`, host.Ask, "guardrails"},
		// hooks_dir and protect reach shell commands, tool.approve and every spelling too.
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"cp evil.lua /srv/guards/"},"cwd":"/w"}`, host.Ask, "guardrails"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"cd /srv/Guards/pack && : > x.lua"},"cwd":"/w"}`, host.Ask, "guardrails"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"mv /srv /tmp/srv"},"cwd":"/w"}`, host.Ask, "holding the guardrails"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -f /srv/other/x.lua"},"cwd":"/w"}`, host.Continue, ""},
		{"tool.approve", `{"tool_name":"scribble","params":{"path":"/srv/guards/x.lua"}}`, host.Ask, "guardrails"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"echo x > /etc/GUARD.conf"},"cwd":"/w"}`, host.Ask, "a protected file"},
		{"tool.execute.pre", `{"tool_name":"bash","params":{"command":"echo x > /etc/guard.conf.bak"},"cwd":"/w"}`, host.Continue, ""},
		{"tool.approve", `{"tool_name":"My_Terminal","params":{"command":"$(which rm) -rf /data"}}`, host.Deny, "/data"},
		{"tool.execute.pre", `{"tool_name":"scribble","params":{"path":"/etc/x"},"cwd":"/elsewhere"}`, host.Ask, "outside the workspace /w"},
		{"tool.execute.pre", `{"tool_name":"Write","params":{"file_path":"/scratch/x"},"cwd":"/w"}`, host.Continue, ""},
		{"tool.execute.pre", `{"tool_name":"Write","params":{"file_path":"/tmp/x"},"cwd":"/w"}`, host.Ask, "outside the workspace"},
		// patterns add to what is redacted; keep leaves a tool's output alone.
		{"tool.execute.post", `{"tool_name":"bash","result":"ticket ACME-123456"}`, host.Modify, ""},
		{"tool.execute.post", `{"tool_name":"vault_read","result":"ghp_0123456789abcdefghijklmnopqrstuvwxyz"}`, host.Continue, ""},
		// per_minute and fetch_tools: the third grab within a minute is refused.
		{"tool.execute.pre", `{"tool_name":"grab","session_id":"c"}`, host.Continue, ""},
		{"tool.execute.pre", `{"tool_name":"GRAB","session_id":"c"}`, host.Continue, ""},
		{"tool.execute.pre", `{"tool_name":"grab","session_id":"c"}`, host.Deny, "limit of 2"},
		// max_rounds: one round, then the agent may stop.
		{"loop.continue", `{"session_id":"c","response":"- [ ] x"}`, host.Allow, ""},
		{"loop.continue", `{"session_id":"c","response":"- [ ] x"}`, host.Continue, ""},
	} {
		var payload map[string]any
		if err := json.Unmarshal([]byte(c.payload), &payload); err != nil {
			t.Fatal(err)
		}
		r, err := h.Fire(context.Background(), c.event, payload)
		if err != nil {
			t.Fatal(err)
		}
		if r.Decision.Action != c.want || !strings.Contains(r.Decision.Reason, c.reason) {
			t.Errorf("%s %s: got %s (%s), want %s (%q); trace %+v", c.event, c.payload, r.Decision.Action, r.Decision.Reason, c.want, c.reason, r.Trace)
		}
	}
}

// A protect pattern Lua cannot read makes protect-settings fail, naming
// the pattern, rather than be ignored.
func TestShippedProtectBadPattern(t *testing.T) {
	cfg, err := host.ParseConfig("hookhost.yaml", []byte("hooks:\n  protect-settings/:\n    config: {protect: [\"[bad\"]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(context.Background(), host.Options{Dir: "../hooks.d", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{
		"tool_name": "Write", "params": map[string]any{"file_path": "/w/a.txt"}, "cwd": "/w"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range r.Trace {
		if strings.HasPrefix(tr.Hook, "protect-settings/") && strings.Contains(tr.Error, `bad Lua pattern "[bad"`) {
			return
		}
	}
	t.Errorf("no protect-settings error naming the pattern; trace %+v", r.Trace)
}
