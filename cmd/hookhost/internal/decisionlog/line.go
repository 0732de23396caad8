package decisionlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// A Line is one fire in the decision log (docs/operations.md describes
// its fields): what the Log writes and what a Reader decodes.
type Line struct {
	Time       string            `json:"time"`
	Event      string            `json:"event"`
	Decision   Decision          `json:"decision"`
	DurationMS float64           `json:"duration_ms"`
	Generation uint64            `json:"generation"`
	Hooks      []host.TraceEntry `json:"hooks"`
	Problems   []string          `json:"problems"`
	Error      string            `json:"error,omitempty"`
	Payload    json.RawMessage   `json:"payload,omitempty"`
	// PayloadOmitted says why a payload asked for is not in the line.
	PayloadOmitted string `json:"payload_omitted,omitempty"`
}

// A Decision is a line's final decision, without a respond's result or
// an ask's approval text, which may quote the payload.
type Decision struct {
	Action host.Action `json:"action"`
	Reason string      `json:"reason"`
	Hook   string      `json:"hook"`
}

// DecisionOf is what a line keeps of a fire's decision.
func DecisionOf(d host.Decision) Decision {
	return Decision{Action: d.Action, Reason: d.Reason, Hook: d.Hook}
}

// DefaultMaxPayload is how many bytes of JSON a payload may take in a
// line; a larger one is left out with a payload_omitted marker, so that
// no client can make the log grow by megabytes a request.
const DefaultMaxPayload = 64 << 10

// An entry is what the queue keeps of a fire: what its line needs and
// nothing more, so a queued line does not keep the fire's result, nor a
// payload the line will not carry, alive.
type entry struct {
	start      time.Time
	event      string
	decision   Decision
	duration   time.Duration
	generation uint64
	trace      []host.TraceEntry
	problems   []string
	err        string
	// payload is the fire's payload when it is to be logged; omitted says
	// why it is not. payloadSize is what the queue counts for it.
	payload     map[string]any
	payloadSize int
	omitted     string
}

// newEntry keeps what the line of r needs. With withPayload, a payload
// whose JSON would take more than maxPayload bytes is not kept.
func newEntry(r host.FireReport, withPayload bool, maxPayload int) entry {
	res := r.Result
	e := entry{start: r.Start, event: res.Event, duration: r.Duration, generation: r.Generation,
		decision: DecisionOf(res.Decision),
		trace:    res.Trace, problems: res.Problems}
	if r.Err != nil {
		e.err = r.Err.Error()
	}
	if withPayload {
		e.payload = r.Input
		if e.payload == nil {
			e.payload = map[string]any{}
		}
		size, over := jsonSize(e.payload, maxPayload)
		if over {
			e.payload, e.omitted = nil, overCap(maxPayload)
		} else {
			e.payloadSize = size
		}
	}
	return e
}

func overCap(maxPayload int) string {
	return fmt.Sprintf("the payload is over the log's cap of %d bytes", maxPayload)
}

// encode is the JSON line of the entry, newline included. A payload
// whose JSON passes maxPayload is left out with a marker.
func (e *entry) encode(maxPayload int) ([]byte, error) {
	ln := Line{
		Time:           e.start.UTC().Format(time.RFC3339Nano),
		Event:          e.event,
		Decision:       e.decision,
		DurationMS:     wire.Milliseconds(e.duration),
		Generation:     e.generation,
		Hooks:          e.trace,
		Problems:       e.problems,
		Error:          e.err,
		PayloadOmitted: e.omitted,
	}
	if ln.Problems == nil {
		ln.Problems = []string{}
	}
	if ln.Hooks == nil {
		ln.Hooks = []host.TraceEntry{}
	}
	if e.payload != nil {
		var p bytes.Buffer
		if err := wire.WriteJSONLine(&p, e.payload); err != nil {
			return nil, err
		}
		raw := bytes.TrimSuffix(p.Bytes(), []byte("\n"))
		if len(raw) > maxPayload {
			ln.PayloadOmitted = overCap(maxPayload)
		} else {
			ln.Payload = raw
		}
	}
	var b bytes.Buffer
	if err := wire.WriteJSONLine(&b, ln); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// jsonSize estimates the bytes of v's JSON, never above the real size,
// and reports whether it surely takes more than limit. It stops as soon
// as it passes limit, so a huge payload costs no more than a small one.
// Escapes may make the real JSON larger than the estimate: encode checks
// the real size again.
func jsonSize(v any, limit int) (int, bool) {
	budget := limit
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			budget -= len(x) + 2
		case json.Number:
			budget -= len(x)
		case map[string]any:
			budget -= 2 + max(len(x)-1, 0) // braces and commas
			for k, val := range x {
				budget -= len(k) + 3 // "k":
				if budget < 0 || walk(val) {
					return true
				}
			}
		case []any:
			budget -= 2 + max(len(x)-1, 0)
			for _, val := range x {
				if budget < 0 || walk(val) {
					return true
				}
			}
		default: // a number, true, false or null: a byte at least
			budget--
		}
		return budget < 0
	}
	over := walk(v)
	return limit - budget, over
}
