package host

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestResultRoundTrip: the fire --json object reads back into the Result
// that wrote it.
func TestResultRoundTrip(t *testing.T) {
	for _, r := range []Result{
		{Event: "turn.pre", Decision: Decision{Action: Continue}, Payload: map[string]any{}},
		{Event: "tool.execute.pre", Decision: Decision{Action: Deny, Reason: "no && never", Hook: "a.lua:g"},
			Payload: map[string]any{"tool_name": "bash", "params": map[string]any{"command": "rm -rf /", "n": int64(3), "x": 1.5,
				"list": []any{int64(1), "a", nil, true}}},
			Messages: []Message{{Role: "system", Content: "m"}},
			Trace: []TraceEntry{{Hook: "a.lua:g", Priority: 50, Outcome: OutcomeDecision, Action: Deny, Duration: 80 * time.Microsecond},
				{Hook: "b.star:h", Outcome: OutcomeTimeout, Duration: time.Second, Error: "timed out"}},
			Problems: []string{"c.lua:3: syntax error"}},
		{Event: "tool.execute.pre", Decision: Decision{Action: Respond, Hook: "a.lua:r", Result: map[string]any{"out": "x", "n": int64(9007199254740993)}},
			Payload: map[string]any{}},
		{Event: "tool.approve", Decision: Decision{Action: Ask, Reason: "a human", Hook: "a.lua:ask",
			Approval: &Approval{Title: "t", Severity: "high", Timeout: 30 * time.Second, TimeoutBehavior: Allow}}, Payload: map[string]any{}},
	} {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var got Result
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("Unmarshal(%s): %v", data, err)
		}
		if !reflect.DeepEqual(got, withLists(r)) {
			t.Errorf("round trip of %s\n got %#v\nwant %#v", data, got, withLists(r))
		}
	}
}

// withLists is r as it reads back: messages and trace as empty lists.
func withLists(r Result) Result {
	if r.Messages == nil {
		r.Messages = []Message{}
	}
	if r.Trace == nil {
		r.Trace = []TraceEntry{}
	}
	return r
}

func TestResultUnmarshalErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"event":"e","decision":{"action":"explode"},"payload":{}}`, `unknown action "explode"`},
		{`{"event":"e","decision":{"action":"deny"},"payload":[1]}`, "payload: want an object"},
		{`{"event":"e","decision":{"action":"deny"},"payload":{"a":1e999}}`, "payload"},
		{`[]`, "cannot unmarshal"},
	} {
		var r Result
		err := json.Unmarshal([]byte(tc.in), &r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Unmarshal(%s): %v, want %q", tc.in, err, tc.want)
		}
	}
}
