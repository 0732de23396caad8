package doctor

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/stdlib/tool"
)

// TestAgentsAgreeWithDialects checks the agent's own words doctor keeps
// (the guard event, the shell tool, the canary) against the homes of the
// facts they stand for: the dialect must read the canary as a guard
// tool.execute.pre of the shell tool, and the tool table must list the
// shell tool as a shell under the dialect's title.
func TestAgentsAgreeWithDialects(t *testing.T) {
	for name, a := range Agents {
		t.Run(name, func(t *testing.T) {
			if a.dialect == nil || a.dialect.Name() != name {
				t.Fatalf("Agents[%q] was not made from its dialect", name)
			}
			if m := a.dialect.Table()[a.GuardEvent]; m.Event != host.EventToolExecutePre || !m.Guard {
				t.Errorf("the dialect maps the guard event %s to %+v, want a guard %s", a.GuardEvent, m, host.EventToolExecutePre)
			}
			canary, err := json.Marshal(a.Canary("echo canary", "/work"))
			if err != nil {
				t.Fatal(err)
			}
			event := "" // the entry's command names the event (--event) where the agent's input does not
			if a.dialect.Agent().EventFlag != nil {
				event = a.GuardEvent
			}
			call, err := adapter.Decode(a.dialect, canary, event)
			if err != nil {
				t.Fatalf("the dialect cannot read the canary: %v", err)
			}
			if call.AgentEvent != a.GuardEvent || call.Event != host.EventToolExecutePre || !call.Guard {
				t.Errorf("the canary reads as %s -> %s (guard %v), want %s -> %s (guard)",
					call.AgentEvent, call.Event, call.Guard, a.GuardEvent, host.EventToolExecutePre)
			}
			if got := call.Payload["tool_name"]; got != a.ShellTool {
				t.Errorf("the canary's tool_name reads as %v, want %s", got, a.ShellTool)
			}
			row := slices.IndexFunc(tool.Agents(), func(r tool.Agent) bool { return r.Name == a.Title })
			if row < 0 {
				t.Fatalf("the tool table has no row %q (the dialect's title)", a.Title)
			}
			if shells := tool.Agents()[row].Tools[tool.Shell]; !slices.Contains(shells, a.ShellTool) {
				t.Errorf("the tool table's %s shells are %v, without %s", a.Title, shells, a.ShellTool)
			}
		})
	}
}
