package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/hookhost/hookhost/stdlib"
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
	// Enforce is set (dryrun, warn) when the hook ran in shadow mode:
	// Action is what it returned, recorded but not applied. Empty for a
	// hook whose decisions count.
	Enforce Enforcement
}

// MarshalJSON writes the entry as the fire --json contract gives it.
func (t TraceEntry) MarshalJSON() ([]byte, error) {
	return marshal(struct {
		Hook       string      `json:"hook"`
		Priority   int64       `json:"priority"`
		Outcome    Outcome     `json:"outcome"`
		Action     Action      `json:"action,omitempty"`
		DurationMS float64     `json:"duration_ms"`
		Error      string      `json:"error,omitempty"`
		Enforce    Enforcement `json:"enforce,omitempty"`
	}{t.Hook, t.Priority, t.Outcome, t.Action, durationMS(t.Duration), t.Error, t.Enforce})
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

// The fire --json object read back in: a client of "hookhost serve" (the
// agent adapters' --server) decodes POST /v1/fire's answer into a Result
// with json.Unmarshal. Numbers in the payload and a respond's result come
// back as the neutral values a fire gives (whole numbers int64, others
// float64), so a decoded Result reads like one from Fire.

// UnmarshalJSON reads the fire --json object.
func (r *Result) UnmarshalJSON(data []byte) error {
	var in struct {
		Event    string          `json:"event"`
		Decision Decision        `json:"decision"`
		Payload  json.RawMessage `json:"payload"`
		Messages []Message       `json:"messages"`
		Trace    []TraceEntry    `json:"trace"`
		Problems []string        `json:"problems"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	payload, err := neutralJSON(in.Payload)
	if err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	p, ok := payload.(map[string]any)
	if !ok && payload != nil {
		return fmt.Errorf("payload: want an object, got %s", stdlib.TypeName(payload))
	}
	if p == nil {
		p = map[string]any{}
	}
	*r = Result{Event: in.Event, Decision: in.Decision, Payload: p, Messages: in.Messages, Trace: in.Trace, Problems: in.Problems}
	return nil
}

// UnmarshalJSON reads a decision as MarshalJSON writes it.
func (d *Decision) UnmarshalJSON(data []byte) error {
	var in struct {
		Action   Action          `json:"action"`
		Reason   string          `json:"reason"`
		Hook     string          `json:"hook"`
		Result   json.RawMessage `json:"result"`
		Approval *struct {
			Title           string `json:"title"`
			Severity        string `json:"severity"`
			TimeoutMS       int64  `json:"timeout_ms"`
			TimeoutBehavior Action `json:"timeout_behavior"`
		} `json:"approval"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	if in.Action != "" && !slices.Contains(decisionActions, in.Action) {
		return fmt.Errorf("decision: unknown action %q", in.Action)
	}
	result, err := neutralJSON(in.Result)
	if err != nil {
		return fmt.Errorf("decision result: %w", err)
	}
	*d = Decision{Action: in.Action, Reason: in.Reason, Hook: in.Hook, Result: result}
	if a := in.Approval; a != nil {
		d.Approval = &Approval{Title: a.Title, Severity: a.Severity, Timeout: time.Duration(a.TimeoutMS) * time.Millisecond,
			TimeoutBehavior: a.TimeoutBehavior}
	}
	return nil
}

// UnmarshalJSON reads a trace entry as MarshalJSON writes it.
func (t *TraceEntry) UnmarshalJSON(data []byte) error {
	var in struct {
		Hook       string      `json:"hook"`
		Priority   int64       `json:"priority"`
		Outcome    Outcome     `json:"outcome"`
		Action     Action      `json:"action"`
		DurationMS float64     `json:"duration_ms"`
		Error      string      `json:"error"`
		Enforce    Enforcement `json:"enforce"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	*t = TraceEntry{Hook: in.Hook, Priority: in.Priority, Outcome: in.Outcome, Action: in.Action,
		Duration: time.Duration(in.DurationMS * float64(time.Millisecond)), Error: in.Error, Enforce: in.Enforce}
	return nil
}

// neutralJSON decodes a JSON value into neutral values; absent is nil.
func neutralJSON(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return stdlib.Normalize(v)
}
