package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/decisionlog"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// A Firer fires an event; a *host.Host is one.
type Firer interface {
	FireInto(ctx context.Context, r *host.Result, event string, payload map[string]any) error
}

// A Change is a replayed fire whose final action differs from the one
// recorded. Its JSON is the object hookhost replay --json prints.
type Change struct {
	// Time is when the fire was recorded, as the log has it.
	Time string `json:"time"`
	// Event is the event fired.
	Event string `json:"event"`
	// Payload is the payload as the log has it.
	Payload json.RawMessage `json:"payload"`
	// Before is the recorded decision, After the replayed one.
	Before decisionlog.Decision `json:"before"`
	After  decisionlog.Decision `json:"after"`
	// Log and Line say where the fire was recorded.
	Log  string `json:"log"`
	Line int    `json:"line"`

	// Decoded is the payload decoded, as it was fired (for Short).
	Decoded map[string]any `json:"-"`
}

// Kind says how the change goes.
func (c Change) Kind() Kind { return KindOf(c.Before.Action, c.After.Action) }

// A Kind classifies a change of the final action.
type Kind int

const (
	// Other is a change between two actions neither of which is deny
	// (allow became ask, continue became modify, …).
	Other Kind = iota
	// NewlyDenied: the fire was not denied and now is.
	NewlyDenied
	// NoLongerDenied: the fire was denied and now is not.
	NoLongerDenied
)

// KindOf classifies the change from before to after (which differ).
func KindOf(before, after host.Action) Kind {
	switch {
	case after == host.Deny && before != host.Deny:
		return NewlyDenied
	case before == host.Deny && after != host.Deny:
		return NoLongerDenied
	}
	return Other
}

// Changed reports whether a replayed decision differs from the recorded
// one: only the final action counts, since a reason may be reworded (or
// name a time) without the policy having changed.
func Changed(before, after decisionlog.Decision) bool { return before.Action != after.Action }

// A Summary counts what a replay did.
type Summary struct {
	// Fires is how many fires were replayed.
	Fires int
	// Changed is how many of them changed, split into the three kinds.
	Changed, NewlyDenied, NoLongerDenied, Other int
	// Unreplayable is how many lines could not be replayed.
	Unreplayable int
}

func (s *Summary) add(k Kind) {
	s.Changed++
	switch k {
	case NewlyDenied:
		s.NewlyDenied++
	case NoLongerDenied:
		s.NoLongerDenied++
	default:
		s.Other++
	}
}

// String is the summary line: "N fires replayed, M changed (X newly
// denied, Y no longer denied, Z other)".
func (s Summary) String() string {
	fires := "fires"
	if s.Fires == 1 {
		fires = "fire"
	}
	return fmt.Sprintf("%d %s replayed, %d changed (%d newly denied, %d no longer denied, %d other)",
		s.Fires, fires, s.Changed, s.NewlyDenied, s.NoLongerDenied, s.Other)
}

// A BadLine is a line that could not be replayed.
type BadLine struct {
	Log  string
	Line int
	Err  error
}

// Error reads LOG:LINE: why.
func (b *BadLine) Error() string { return fmt.Sprintf("%s:%d: %v", b.Log, b.Line, b.Err) }

// Unwrap gives why the line could not be replayed.
func (b *BadLine) Unwrap() error { return b.Err }

// Reasons a line cannot be replayed, besides not being a decision log
// line (decisionlog.LineError) and what the host refuses.
var (
	// ErrNoPayload: the log was written without the payloads.
	ErrNoPayload = errors.New("no payload: the log was written without --decision-log-payload")
	// ErrPayloadOmitted: the writer left this payload out.
	ErrPayloadOmitted = errors.New("the payload was not logged")
)

// Options select what a Replayer replays.
type Options struct {
	// Since and Until bound the window of recorded times replayed: Since
	// included, Until excluded; a zero time leaves that side open.
	Since, Until time.Time
	// Limit stops the replay after that many fires; 0 means none.
	Limit int
}

// A Replayer replays logs, one after another, through one Firer. It is
// not safe for concurrent use.
type Replayer struct {
	Firer Firer
	Options
	// OnChange is told of each changed fire; its error ends the replay.
	OnChange func(Change) error
	// OnBad is told of each line that could not be replayed.
	OnBad func(*BadLine)
	// OnFire, when set, is called after each fire (for progress).
	OnFire func(Summary)
	// Clock, when set, is moved to each line's recorded time before its
	// fire: a host whose Now is Clock.Now replays time-of-day rules, rate
	// windows and TTLs as they were recorded, not at replay speed.
	Clock *Clock

	summary Summary
	line    decisionlog.Line
	result  host.Result // reused by every fire (host.FireInto)
}

// Summary is what the replay did so far.
func (p *Replayer) Summary() Summary { return p.summary }

// Done reports whether the replay reached its Limit.
func (p *Replayer) Done() bool { return p.Limit > 0 && p.summary.Fires >= p.Limit }

// Replay replays the log read from r, which it names name in what it
// reports, until its end or the Limit. It returns an error only when the
// replay cannot go on: the log cannot be read, OnChange failed, ctx
// ended or the host closed.
func (p *Replayer) Replay(ctx context.Context, name string, r io.Reader) error {
	lr := decisionlog.NewReader(r)
	for !p.Done() {
		n, err := lr.Next(&p.line)
		var le *decisionlog.LineError
		switch {
		case err == io.EOF:
			return nil
		case errors.As(err, &le):
			p.bad(name, le.Line, le.Err)
			continue
		case err != nil:
			return fmt.Errorf("%s: reading after line %d: %w", name, n, err)
		}
		if err := p.replayLine(ctx, name, n); err != nil {
			return err
		}
	}
	return nil
}

// replayLine replays the line just read, unless it is outside the
// window; a line that cannot be replayed is reported to OnBad.
func (p *Replayer) replayLine(ctx context.Context, name string, n int) error {
	ln := &p.line
	payload, recorded, err := p.check(ln)
	if err != nil {
		if !errors.Is(err, errOutside) {
			p.bad(name, n, err)
		}
		return nil
	}
	if p.Clock != nil {
		p.Clock.set(recorded)
	}
	err = p.Firer.FireInto(ctx, &p.result, ln.Event, payload)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, host.ErrClosed):
		return err
	case errors.Is(err, host.ErrUnknownEvent):
		p.bad(name, n, fmt.Errorf("unknown event %q: the hooks directory and config do not declare it", ln.Event))
		return nil
	case err != nil: // a bad payload
		p.bad(name, n, err)
		return nil
	}
	p.summary.Fires++
	after := decisionlog.DecisionOf(p.result.Decision)
	if Changed(ln.Decision, after) {
		c := Change{Time: ln.Time, Event: ln.Event, Payload: ln.Payload, Before: ln.Decision, After: after,
			Log: name, Line: n, Decoded: payload}
		p.summary.add(c.Kind())
		if p.OnChange != nil {
			if err := p.OnChange(c); err != nil {
				return err
			}
		}
	}
	if p.OnFire != nil {
		p.OnFire(p.summary)
	}
	return nil
}

// errOutside marks a line recorded outside the window.
var errOutside = errors.New("outside the window")

// check says whether the line can be replayed, and decodes its payload
// and time.
func (p *Replayer) check(ln *decisionlog.Line) (map[string]any, time.Time, error) {
	if ln.Time == "" {
		return nil, time.Time{}, errors.New("no time: not a decision log line")
	}
	t, err := time.Parse(time.RFC3339Nano, ln.Time)
	if err != nil {
		return nil, t, fmt.Errorf("time %q is not an RFC 3339 time", ln.Time)
	}
	if (!p.Since.IsZero() && t.Before(p.Since)) || (!p.Until.IsZero() && !t.Before(p.Until)) {
		return nil, t, errOutside
	}
	switch {
	case ln.Event == "":
		return nil, t, errors.New("no event: not a decision log line")
	case ln.Decision.Action == "":
		return nil, t, errors.New("no decision action: not a decision log line")
	case len(ln.Payload) == 0 || bytes.Equal(ln.Payload, []byte("null")):
		if ln.PayloadOmitted != "" {
			return nil, t, fmt.Errorf("%w: %s", ErrPayloadOmitted, ln.PayloadOmitted)
		}
		return nil, t, ErrNoPayload
	}
	payload, err := wire.DecodePayload(ln.Payload)
	if err != nil {
		return nil, t, err
	}
	return payload, t, nil
}

// A Clock is the time a replaying host's hooks see (host.Options.Now):
// the recorded time of the fire being replayed. It is safe for
// concurrent use (the host may read it from other goroutines).
type Clock struct{ ns atomic.Int64 }

// NewClock is a clock at start, until the first fire moves it.
func NewClock(start time.Time) *Clock {
	c := &Clock{}
	c.set(start)
	return c
}

// Now is the clock's time.
func (c *Clock) Now() time.Time { return time.Unix(0, c.ns.Load()) }

func (c *Clock) set(t time.Time) { c.ns.Store(t.UnixNano()) }

func (p *Replayer) bad(name string, n int, err error) {
	p.summary.Unreplayable++
	if p.OnBad != nil {
		p.OnBad(&BadLine{Log: name, Line: n, Err: err})
	}
}
