package host

import (
	"bytes"
	"encoding/json"
	"time"
)

// A Result is what one fire produced.
type Result struct {
	// Event is the event fired.
	Event string
	// Decision is the folded decision.
	Decision Decision
	// Payload is the payload after folding (modify replaces top-level
	// fields). When no hook modified it, it is the caller's own map.
	Payload map[string]any
	// Messages are the messages hooks added, in trace order.
	Messages []Message
	// Trace lists the hooks that ran, in order.
	Trace []TraceEntry
	// Problems are the load problems of the snapshot the fire ran on, one
	// per line as file:line: message: files with no good version, and
	// files whose latest edit failed while an older version serves. Nil
	// when there are none. Shared by every fire: read-only.
	Problems []string
}

// An Outcome is what one hook call came to.
type Outcome string

const (
	// OutcomeNone: the hook returned nothing (or continue).
	OutcomeNone Outcome = "none"
	// OutcomeDecision: the hook returned a decision or messages.
	OutcomeDecision Outcome = "decision"
	// OutcomeStop: the hook stopped propagation, with or without a
	// decision.
	OutcomeStop Outcome = "stop"
	// OutcomeError: the hook raised an error or returned something that
	// is not a valid decision for the event.
	OutcomeError Outcome = "error"
	// OutcomeTimeout: the hook overran its deadline.
	OutcomeTimeout Outcome = "timeout"
)

// A TraceEntry records one hook call.
type TraceEntry struct {
	Hook     string
	Priority int64
	Outcome  Outcome
	// Action is the action the hook returned, for decision and stop
	// outcomes that carried one.
	Action Action
	// Duration is how long the call took, argument binding and result
	// conversion included.
	Duration time.Duration
	// Error describes the error or timeout.
	Error string
}

// MarshalJSON writes the entry as the fire --json contract gives it.
func (t TraceEntry) MarshalJSON() ([]byte, error) {
	return marshal(struct {
		Hook       string  `json:"hook"`
		Priority   int64   `json:"priority"`
		Outcome    Outcome `json:"outcome"`
		Action     Action  `json:"action,omitempty"`
		DurationMS float64 `json:"duration_ms"`
		Error      string  `json:"error,omitempty"`
	}{t.Hook, t.Priority, t.Outcome, t.Action, durationMS(t.Duration), t.Error})
}

// durationMS is d in milliseconds, rounded to the microsecond.
func durationMS(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

// MarshalJSON writes the result as the fire --json object: event,
// decision, payload, messages and trace, the last two always lists, and
// problems when there are any.
func (r Result) MarshalJSON() ([]byte, error) {
	msgs, trace, payload := r.Messages, r.Trace, r.Payload
	if msgs == nil {
		msgs = []Message{}
	}
	if trace == nil {
		trace = []TraceEntry{}
	}
	if payload == nil {
		payload = map[string]any{}
	}
	return marshal(struct {
		Event    string         `json:"event"`
		Decision Decision       `json:"decision"`
		Payload  map[string]any `json:"payload"`
		Messages []Message      `json:"messages"`
		Trace    []TraceEntry   `json:"trace"`
		Problems []string       `json:"problems,omitempty"`
	}{r.Event, r.Decision, payload, msgs, trace, r.Problems})
}

// marshal is json.Marshal without HTML escaping: the fire --json object
// is read by programs and people, and "a && b" should stay "a && b".
// (An outer json.Marshal still escapes; a json.Encoder with
// SetEscapeHTML(false) does not.)
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
