package host

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseReply(t *testing.T) {
	chain := AgentEvents()[7] // tool.execute.pre
	if chain.Name != "tool.execute.pre" {
		t.Fatal("catalog order changed")
	}
	spec, _ := chain.normalized()
	for _, c := range []struct {
		name string
		v    any
		want reply
		err  string
	}{
		{"nil", nil, reply{action: Continue}, ""},
		{"continue", map[string]any{"action": "continue"}, reply{action: Continue}, ""},
		{"deny", map[string]any{"action": "deny", "reason": "r"}, reply{action: Deny, reason: "r"}, ""},
		{"stop only", map[string]any{"stop": true}, reply{action: Continue, stop: true}, ""},
		{"modify", map[string]any{"action": "modify", "fields": map[string]any{"a": int64(1)}}, reply{action: Modify, fields: map[string]any{"a": int64(1)}}, ""},
		{"respond nil", map[string]any{"action": "respond", "result": nil}, reply{action: Respond}, ""},
		{"ask", map[string]any{"action": "ask", "reason": "r", "approval": map[string]any{"timeout": "2s", "timeout_behavior": "allow"}},
			reply{action: Ask, reason: "r", approval: &Approval{Timeout: 2 * time.Second, TimeoutBehavior: Allow}}, ""},
		{"messages", map[string]any{"messages": []any{map[string]any{"content": "c"}}}, reply{action: Continue, messages: []Message{{"system", "c"}}}, ""},
		{"list", []any{}, reply{}, "want nothing or a decision"},
		{"unknown action", map[string]any{"action": "nope"}, reply{}, `unknown action "nope"`},
		{"message action", map[string]any{"action": "message"}, reply{}, `unknown action "message"`},
		{"action type", map[string]any{"action": int64(1)}, reply{}, "unknown action int"},
		{"unknown key", map[string]any{"action": "deny", "why": "x"}, reply{}, `unknown key "why"`},
		{"stop type", map[string]any{"stop": "yes"}, reply{}, "stop: want a bool"},
		{"respond no result", map[string]any{"action": "respond"}, reply{}, "respond needs a result"},
		{"fields on deny", map[string]any{"action": "deny", "fields": map[string]any{}}, reply{}, "fields belongs to action modify"},
		{"approval key", map[string]any{"action": "ask", "approval": map[string]any{"tmeout": 1}}, reply{}, `unknown key "tmeout"`},
		{"approval behaviour", map[string]any{"action": "ask", "approval": map[string]any{"timeout_behavior": "ask"}}, reply{}, "want allow or deny"},
		{"empty role", map[string]any{"messages": []any{map[string]any{"role": ""}}}, reply{}, "role: want a non-empty string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseReply(c.v, &spec)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got.approval)
			w, _ := json.Marshal(c.want.approval)
			if got.action != c.want.action || got.reason != c.want.reason || got.stop != c.want.stop ||
				len(got.fields) != len(c.want.fields) || len(got.messages) != len(c.want.messages) || string(g) != string(w) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestDecisionJSON(t *testing.T) {
	for _, c := range []struct {
		d    Decision
		want string
	}{
		{Decision{Action: Continue}, `{"action":"continue","reason":"","hook":""}`},
		{Decision{Action: Respond, Hook: "a.lua:x"}, `{"action":"respond","reason":"","hook":"a.lua:x","result":null}`},
		{Decision{Action: Ask, Approval: &Approval{Title: "t", Timeout: time.Second, TimeoutBehavior: Deny}},
			`{"action":"ask","reason":"","hook":"","approval":{"title":"t","timeout_ms":1000,"timeout_behavior":"deny"}}`},
		// result and approval only go with their action
		{Decision{Action: Deny, Result: 5, Approval: &Approval{}}, `{"action":"deny","reason":"","hook":""}`},
	} {
		b, err := json.Marshal(c.d)
		if err != nil || string(b) != c.want {
			t.Errorf("got %s (%v), want %s", b, err, c.want)
		}
	}
}

func TestEventSpecValidation(t *testing.T) {
	for _, c := range []struct {
		spec EventSpec
		err  string
	}{
		{EventSpec{Name: "ok", Mode: Chain, Actions: []Action{Deny}, OnError: FailClosed}, ""},
		{EventSpec{Name: "", Mode: Chain}, "want a non-empty name"},
		{EventSpec{Name: "a b", Mode: Chain}, "without spaces"},
		{EventSpec{Name: "x", Mode: "fold"}, "mode"},
		{EventSpec{Name: "x", Mode: Chain, Actions: []Action{"continue"}}, "unknown action"},
		{EventSpec{Name: "x", Mode: Chain, Default: Modify}, "default"},
		{EventSpec{Name: "x", Mode: Chain, OnTimeout: FailClosed}, "the event does not allow deny"},
		{EventSpec{Name: "x", Mode: Observe, Actions: []Action{Allow}}, "observe"},
	} {
		_, err := c.spec.normalized()
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%+v: err = %v, want %q", c.spec, err, c.err)
		}
	}
}
