package decisionlog

import (
	"bytes"
	"time"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// A line is one fire in the decision log (docs/operations.md describes
// its fields).
type line struct {
	Time       string            `json:"time"`
	Event      string            `json:"event"`
	Decision   decision          `json:"decision"`
	DurationMS float64           `json:"duration_ms"`
	Generation uint64            `json:"generation"`
	Hooks      []host.TraceEntry `json:"hooks"`
	Problems   []string          `json:"problems"`
	Error      string            `json:"error,omitempty"`
	Payload    map[string]any    `json:"payload,omitempty"`
}

// decision is the final decision, without a respond's result or an
// ask's approval text, which may quote the payload.
type decision struct {
	Action host.Action `json:"action"`
	Reason string      `json:"reason"`
	Hook   string      `json:"hook"`
}

// encodeLine is the JSON line of one fire, newline included.
func encodeLine(r host.FireReport, withPayload bool) ([]byte, error) {
	res := r.Result
	ln := line{
		Time:       r.Start.UTC().Format(time.RFC3339Nano),
		Event:      res.Event,
		Decision:   decision{Action: res.Decision.Action, Reason: res.Decision.Reason, Hook: res.Decision.Hook},
		DurationMS: wire.Milliseconds(r.Duration),
		Generation: r.Generation,
		Hooks:      res.Trace,
		Problems:   res.Problems,
	}
	if ln.Problems == nil {
		ln.Problems = []string{}
	}
	if ln.Hooks == nil {
		ln.Hooks = []host.TraceEntry{}
	}
	if r.Err != nil {
		ln.Error = r.Err.Error()
	}
	if withPayload {
		ln.Payload = r.Input
		if ln.Payload == nil {
			ln.Payload = map[string]any{}
		}
	}
	var b bytes.Buffer
	if err := wire.WriteJSONLine(&b, ln); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
