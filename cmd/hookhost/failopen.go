package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/picoclaw"
	"github.com/hookhost/hookhost/host"
)

// failOpenNotes describes the hooks that could deny (their event allows
// deny, and stops something with it) but whose error or timeout lets the
// call through (behaviour
// skip, the default of most events): a guard with a bug, or one that
// loops, then allows what it was written to stop. One a line, as
// "<file>:<line>: hook <id> …", with how to make it fail closed. Hooks
// that are disabled or in shadow mode (which never fails closed) are
// left out.
func failOpenNotes(hooks []host.HookInfo, events []host.EventSpec) []string {
	mapped, guards := agentGuardEvents()
	denies := map[string]bool{}
	for _, e := range events {
		// Where the agents send an event, their dialects say whether deny
		// stops something there (at loop.continue it lets the agent stop,
		// which failing open does too); an event no agent sends (a custom
		// one, file.save.pre) is taken at its word.
		denies[e.Name] = slices.Contains(e.Actions, host.Deny) && (guards[e.Name] || !mapped[e.Name])
	}
	var out []string
	for _, h := range hooks {
		if !denies[h.Event] || !h.Enabled || h.Enforce != host.Enforce {
			continue
		}
		var open []string
		if h.ErrorBehavior == host.Skip {
			open = append(open, "error_behavior")
		}
		if h.TimeoutBehavior == host.Skip {
			open = append(open, "timeout_behavior")
		}
		if len(open) == 0 {
			continue
		}
		var failure string
		switch len(open) {
		case 2:
			failure = "an error or a timeout"
		default:
			failure = map[string]string{"error_behavior": "an error", "timeout_behavior": "a timeout"}[open[0]]
		}
		out = append(out, fmt.Sprintf("%s:%d: hook %s on %s fails open: %s skips it and the fire goes on as if it had not run (%s skip); "+
			"to fail closed, set %s deny in its hook.on options or under hooks.%q in hookhost.yaml",
			h.File, h.Line, h.ID, h.Event, failure, strings.Join(open, ", "),
			strings.Join(open, " and "), h.ID))
	}
	return out
}

// agentGuardEvents are the hookhost events some agent's dialect maps
// (mapped), and those it maps as guard events, where the agent can be
// stopped (adapter.Mapping.Guard).
func agentGuardEvents() (mapped, guards map[string]bool) {
	mapped, guards = map[string]bool{}, map[string]bool{}
	add := func(table map[string]adapter.Mapping) {
		for _, m := range table {
			mapped[m.Event] = true
			guards[m.Event] = guards[m.Event] || m.Guard
		}
	}
	for _, a := range agents {
		add(a.dialect.Table())
	}
	add(picoclaw.Methods)
	return mapped, guards
}
