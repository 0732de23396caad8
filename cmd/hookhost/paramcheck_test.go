package main

import (
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"tool_nme", "tool_name", 1},
		{"toolname", "tool_name", 1}, {"tool_name", "tool_name", 0}, {"kitten", "sitting", 3},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Every agent's dialect declares the fields its payloads carry, so that
// check knows them: a new dialect without a list would make check warn
// of its fields.
func TestEveryDialectDeclaresItsFields(t *testing.T) {
	for _, a := range agents {
		fd, ok := a.dialect.(fieldsDialect)
		if !ok || len(fd.Fields()) == 0 {
			t.Errorf("the %s dialect declares no payload fields (a Fields method)", a.dialect.Name())
		}
	}
	fields := agentFields()
	for _, f := range []string{"transcript_path", "permission_mode", "tool_use_id", "hook_event_name", "conversation_id", "toolArgs", "turn_id"} {
		if !fields[f] {
			t.Errorf("no dialect declares %s", f)
		}
	}
}

func TestParamWarnings(t *testing.T) {
	events := host.AgentEvents()
	hook := func(event string, params ...string) host.HookInfo {
		return host.HookInfo{ID: "g.lua:h", File: "g.lua", Line: 3, Event: event, Params: params}
	}
	for _, c := range []struct {
		name string
		hook host.HookInfo
		want []string // one substring per warning
	}{
		{"catalog fields", hook("tool.execute.pre", "tool_name", "params", "session_id", "cwd"), nil},
		{"agent fields, ctx, varargs", hook("tool.execute.pre", "tool_input", "transcript_path", "ctx", "...", "**kw", "_x", "self"), nil},
		{"a typo", hook("tool.execute.pre", "tool_nme"), []string{"g.lua:3: hook g.lua:h: parameter tool_nme is not a field of tool.execute.pre (tool_name, params, session_id, cwd)", "did you mean tool_name or toolName?"}},
		{"the event's own first", hook("turn.pre", "promt"), []string{"did you mean prompt?"}},
		{"two typos", hook("file.save.pre", "pth", "contnt"), []string{"parameter pth", "parameter contnt"}},
		{"nothing near", hook("session.end", "qqqqqqqq"), []string{"it is always nil"}},
		{"an unknown event", hook("deploy.pre", "anything"), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := paramWarnings([]host.HookInfo{c.hook}, events)
			if len(c.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("warnings %q, want none", got)
				}
				return
			}
			joined := strings.Join(got, "\n")
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Errorf("warnings %q: want %q", got, w)
				}
			}
			if c.name == "nothing near" && strings.Contains(joined, "did you mean") {
				t.Errorf("a guess for a name near nothing: %q", got)
			}
			if c.name == "two typos" && len(got) != 2 {
				t.Errorf("%d warnings, want 2: %q", len(got), got)
			}
		})
	}
}

func TestFailOpenNotes(t *testing.T) {
	events := host.AgentEvents()
	hook := func(event string, onError, onTimeout host.Behavior) host.HookInfo {
		return host.HookInfo{ID: "g.lua:h", File: "g.lua", Line: 3, Event: event, Enabled: true, Enforce: host.Enforce,
			ErrorBehavior: onError, TimeoutBehavior: onTimeout}
	}
	disabled := hook("tool.execute.pre", host.Skip, host.Skip)
	disabled.Enabled = false
	shadow := hook("tool.execute.pre", host.Skip, host.Skip)
	shadow.Enforce = host.DryRun
	for _, c := range []struct {
		name string
		hook host.HookInfo
		want string // "" for no note
	}{
		{"both skip", hook("tool.execute.pre", host.Skip, host.Skip), "an error or a timeout skips it"},
		{"timeout skips", hook("file.save.pre", host.FailClosed, host.Skip), "(timeout_behavior skip)"},
		{"error skips", hook("turn.pre", host.Skip, host.FailClosed), "(error_behavior skip)"},
		{"closed", hook("tool.execute.pre", host.FailClosed, host.FailClosed), ""},
		{"an event without deny", hook("turn.post", host.Skip, host.Skip), ""},
		{"an event where deny stops nothing (it lets the agent stop)", hook("loop.continue", host.Skip, host.Skip), ""},
		{"an event no agent sends", hook("message.sending", host.Skip, host.Skip), "an error or a timeout skips it"},
		{"disabled", disabled, ""},
		{"shadow mode", shadow, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := failOpenNotes([]host.HookInfo{c.hook}, events)
			if c.want == "" {
				if len(got) != 0 {
					t.Fatalf("notes %q, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], "g.lua:3: hook g.lua:h on ") || !strings.Contains(got[0], c.want) ||
				!strings.Contains(got[0], `under hooks."g.lua:h" in hookhost.yaml`) {
				t.Fatalf("notes %q, want one with %q", got, c.want)
			}
		})
	}
}
