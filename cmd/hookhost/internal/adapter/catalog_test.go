package adapter_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/copilot"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/cursor"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/picoclaw"
	"github.com/hookhost/hookhost/host"
)

// A probedDialect is a dialect's table and its request and answer, with
// the agent's input reduced to the event (or method) name.
type probedDialect struct {
	name    string
	table   map[string]adapter.Mapping
	request func(agentEvent string) adapter.Call
	answer  func(adapter.Call, host.Result) adapter.Answer
}

func commandProbe(d adapter.CommandDialect) probedDialect {
	return probedDialect{d.Name(), d.Table(), func(ev string) adapter.Call {
		return d.Request(map[string]any{"hook_event_name": ev, "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	}, d.Answer}
}

func allDialects() []probedDialect {
	return []probedDialect{
		commandProbe(claude.Dialect{}), commandProbe(codex.Dialect{}), commandProbe(gemini.Dialect{}),
		commandProbe(cursor.Dialect{}), commandProbe(copilot.Dialect{}),
		{"picoclaw", picoclaw.Methods, func(m string) adapter.Call {
			return picoclaw.Request(m, map[string]any{"tool": "bash", "arguments": map[string]any{}})
		}, picoclaw.Answer},
	}
}

// answeredActions lists the actions the dialect answers differently from
// continue at the call's event: the ones it claims to express there.
// abort_turn and hard_abort are left out: every dialect answers them
// the same way at every event (stop the agent, or its nearest stand-in),
// a rule of the dialect rather than a claim about one event.
func answeredActions(d probedDialect, call adapter.Call) []host.Action {
	answer := func(a host.Action) string {
		dec := host.Decision{Action: a, Reason: "probe", Hook: "probe.lua:hook", Result: "probe result"}
		b, err := json.Marshal(d.answer(call, host.Result{Event: call.Event, Decision: dec, Payload: call.Payload}).Output)
		if err != nil {
			return "unencodable: " + err.Error()
		}
		return string(b)
	}
	none := answer(host.Continue)
	var got []host.Action
	for _, a := range []host.Action{host.Allow, host.Deny, host.Ask, host.Modify, host.Respond} {
		if answer(a) != none {
			got = append(got, a)
		}
	}
	return got
}

// TestDialectEventsInCatalog checks every dialect's table against the
// agent catalog: each event it maps to exists, and each action it
// answers with at that event is one the event allows.
func TestDialectEventsInCatalog(t *testing.T) {
	catalog := map[string]host.EventSpec{}
	for _, spec := range host.AgentEvents() {
		catalog[spec.Name] = spec
	}
	for _, d := range allDialects() {
		for _, agentEvent := range adapter.SortedKeys(d.table) {
			m := d.table[agentEvent]
			spec, ok := catalog[m.Event]
			if !ok {
				t.Errorf("%s: %s maps to %q, which is not in the agent catalog", d.name, agentEvent, m.Event)
				continue
			}
			call := d.request(agentEvent)
			if call.Event != m.Event {
				t.Errorf("%s: %s: request fires %q, table says %q", d.name, agentEvent, call.Event, m.Event)
			}
			answered := answeredActions(d, call)
			// At a guard event a hook that stops the call must never be
			// answered as "proceed": every stopping action the event allows
			// gets an answer of its own.
			for _, a := range []host.Action{host.Deny, host.Respond} {
				if m.Guard && slices.Contains(spec.Actions, a) && !slices.Contains(answered, a) {
					t.Errorf("%s: %s is a guard event whose %s allows %s, but the dialect answers it as no opinion", d.name, agentEvent, m.Event, a)
				}
			}
			for _, a := range answered {
				if slices.Contains(spec.Actions, a) {
					continue
				}
				t.Errorf("%s: %s answers %s, but its event %s does not allow it (allowed: %v)", d.name, agentEvent, a, m.Event, spec.Actions)
			}
		}
	}
}

// TestDialectAgents checks that every command dialect describes its
// agent completely: help text, --print-settings and doctor read it.
func TestDialectAgents(t *testing.T) {
	for _, d := range []adapter.CommandDialect{claude.Dialect{}, codex.Dialect{}, gemini.Dialect{}, cursor.Dialect{}, copilot.Dialect{}} {
		a := d.Agent()
		if a.Title == "" || a.SettingsFile == "" || a.SettingsFiles == nil {
			t.Errorf("%s: incomplete agent %+v", d.Name(), a)
			continue
		}
		if files := a.SettingsFiles("/home/u", "/p"); len(files) == 0 {
			t.Errorf("%s: no settings files", d.Name())
		}
	}
}
