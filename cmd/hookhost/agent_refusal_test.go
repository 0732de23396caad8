package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
)

// Every command dialect blocks at each of its guard events when serve
// cannot decide one (adapter.Refusal): an answer, naming the reason, for
// every event the table marks as a guard. A dialect added to agents is
// checked without further change.
func TestEveryAgentRefusesAtItsGuards(t *testing.T) {
	for _, a := range agents {
		d := a.dialect
		table := d.Table()
		for _, name := range adapter.SortedKeys(table) {
			if !table[name].Guard {
				continue
			}
			call, err := adapter.Decode(d, []byte(`{"hook_event_name":"`+name+`"}`), "")
			if err != nil {
				call, err = adapter.Decode(d, []byte(`{}`), name)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", d.Name(), name, err)
			}
			out, err := adapter.Encode(adapter.Refusal(d, call, errors.New("the canary reason")))
			if err != nil || !json.Valid(out) || !strings.Contains(string(out), "hookhost: the canary reason") {
				t.Errorf("%s %s: refusal %q, %v; want a JSON answer naming the reason", d.Name(), name, out, err)
			}
		}
	}
}
