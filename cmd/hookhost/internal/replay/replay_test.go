package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/decisionlog"
	"github.com/hookhost/hookhost/host"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		before, after host.Action
		want          Kind
	}{
		{host.Continue, host.Deny, NewlyDenied},
		{host.Allow, host.Deny, NewlyDenied},
		{host.Ask, host.Deny, NewlyDenied},
		{host.Deny, host.Continue, NoLongerDenied},
		{host.Deny, host.Ask, NoLongerDenied},
		{host.Deny, host.Allow, NoLongerDenied},
		{host.Allow, host.Ask, Other},
		{host.Continue, host.Modify, Other},
		{host.Respond, host.Continue, Other},
		{host.Continue, host.AbortTurn, Other},
	}
	for _, tt := range tests {
		if got := KindOf(tt.before, tt.after); got != tt.want {
			t.Errorf("KindOf(%s, %s) = %d, want %d", tt.before, tt.after, got, tt.want)
		}
	}
}

func TestChanged(t *testing.T) {
	d := func(a host.Action, reason, hook string) decisionlog.Decision {
		return decisionlog.Decision{Action: a, Reason: reason, Hook: hook}
	}
	tests := []struct {
		name          string
		before, after decisionlog.Decision
		want          bool
	}{
		{"same", d(host.Deny, "no", "a.lua:x"), d(host.Deny, "no", "a.lua:x"), false},
		{"reason reworded", d(host.Deny, "no", "a.lua:x"), d(host.Deny, "not allowed", "a.lua:x"), false},
		{"another hook denies", d(host.Deny, "no", "a.lua:x"), d(host.Deny, "no", "b.star:y"), false},
		{"action", d(host.Deny, "no", "a.lua:x"), d(host.Ask, "no", "a.lua:x"), true},
		{"default to a decision", d(host.Continue, "", ""), d(host.Allow, "", "a.lua:x"), true},
	}
	for _, tt := range tests {
		if got := Changed(tt.before, tt.after); got != tt.want {
			t.Errorf("%s: Changed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSummaryString(t *testing.T) {
	tests := []struct {
		s    Summary
		want string
	}{
		{Summary{}, "0 fires replayed, 0 changed (0 newly denied, 0 no longer denied, 0 other)"},
		{Summary{Fires: 1}, "1 fire replayed, 0 changed (0 newly denied, 0 no longer denied, 0 other)"},
		{Summary{Fires: 100000, Changed: 6, NewlyDenied: 3, NoLongerDenied: 2, Other: 1, Unreplayable: 4},
			"100000 fires replayed, 6 changed (3 newly denied, 2 no longer denied, 1 other)"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}

// A policy is a fake host: it decides the payload's "now" field (deny
// by guard, or continue when absent), knows the events of known, and
// records the clock at each fire.
type policy struct {
	known map[string]bool
	clock *Clock
	fired []string
	times []time.Time
}

func (p *policy) FireInto(_ context.Context, r *host.Result, event string, payload map[string]any) error {
	if !p.known[event] {
		return fmt.Errorf("%w %q", host.ErrUnknownEvent, event)
	}
	if payload["bad"] != nil {
		return fmt.Errorf("%w: bad: nope", host.ErrBadPayload)
	}
	p.fired = append(p.fired, event)
	if p.clock != nil {
		p.times = append(p.times, p.clock.Now())
	}
	*r = host.Result{Event: event, Decision: host.Decision{Action: host.Continue}}
	if a, ok := payload["now"].(string); ok {
		r.Decision = host.Decision{Action: host.Action(a), Reason: "because", Hook: "new.lua:guard"}
	}
	return nil
}

// line is a decision log line recorded at minute min with the action
// before and a payload (raw JSON; "" for none).
func line(min int, event string, before host.Action, payload string) string {
	s := fmt.Sprintf(`{"time":"2026-12-01T09:%02d:00Z","event":%q,"decision":{"action":%q,"reason":"old","hook":"old.lua:g"},"hooks":[],"problems":[]`,
		min, event, before)
	if payload != "" {
		s += `,"payload":` + payload
	}
	return s + "}\n"
}

func TestReplayer(t *testing.T) {
	const ev = "tool.execute.pre"
	log := line(0, ev, host.Continue, `{"now":"deny"}`) + // 1: newly denied
		line(1, ev, host.Deny, `{}`) + // 2: no longer denied
		line(2, ev, host.Continue, `{}`) + // 3: the same
		"not json\n" + // 4
		line(4, ev, host.Continue, "") + // 5: no payload
		`{"time":"2026-12-01T09:05:00Z","event":"tool.execute.pre","decision":{"action":"allow"},"payload_omitted":"the payload is over the log's cap of 65536 bytes"}` + "\n" + // 6
		line(6, "no.such.event", host.Continue, `{}`) + // 7
		line(7, ev, host.Allow, `{"now":"ask"}`) + // 8: other
		line(8, ev, host.Continue, `{"bad":true}`) + // 9: bad payload
		line(9, ev, host.Continue, `[1]`) + // 10: a payload that is not an object
		`{"event":"tool.execute.pre","decision":{"action":"allow"},"payload":{}}` + "\n" + // 11: no time
		`{"time":"yesterday","event":"tool.execute.pre","decision":{"action":"allow"},"payload":{}}` + "\n" + // 12
		`{"time":"2026-12-01T09:12:00Z","decision":{"action":"allow"},"payload":{}}` + "\n" + // 13: no event
		`{"time":"2026-12-01T09:13:00Z","event":"tool.execute.pre","payload":{}}` + "\n" + // 14: no decision
		line(14, ev, host.Deny, `{"now":"deny"}`) // 15: the same

	why := map[int]string{
		4:  "not a decision log line: invalid JSON",
		5:  "no payload: the log was written without --decision-log-payload",
		6:  "the payload was not logged: the payload is over the log's cap of 65536 bytes",
		7:  `unknown event "no.such.event": the hooks directory and config do not declare it`,
		9:  "bad payload: bad: nope",
		10: "payload: want a JSON object, got an array",
		11: "no time",
		12: `time "yesterday" is not an RFC 3339 time`,
		13: "no event",
		14: "no decision action",
	}
	tests := []struct {
		name    string
		opts    Options
		changed []int // the lines of the changes
		fires   int
		bad     []int // the lines that cannot be replayed (a line with no time is never in a window)
		summary Summary
	}{
		{"everything", Options{}, []int{1, 2, 8}, 5, []int{4, 5, 6, 7, 9, 10, 11, 12, 13, 14},
			Summary{Fires: 5, Changed: 3, NewlyDenied: 1, NoLongerDenied: 1, Other: 1, Unreplayable: 10}},
		{"limit", Options{Limit: 2}, []int{1, 2}, 2, nil,
			Summary{Fires: 2, Changed: 2, NewlyDenied: 1, NoLongerDenied: 1}},
		{"since", Options{Since: at(7)}, []int{8}, 2, []int{4, 9, 10, 11, 12, 13, 14},
			Summary{Fires: 2, Changed: 1, Other: 1, Unreplayable: 7}},
		{"until", Options{Until: at(2)}, []int{1, 2}, 2, []int{4, 11, 12},
			Summary{Fires: 2, Changed: 2, NewlyDenied: 1, NoLongerDenied: 1, Unreplayable: 3}},
		{"window", Options{Since: at(1), Until: at(3)}, []int{2}, 2, []int{4, 11, 12},
			Summary{Fires: 2, Changed: 1, NoLongerDenied: 1, Unreplayable: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pol := &policy{known: map[string]bool{ev: true}}
			var changes []Change
			var bad []string
			p := &Replayer{Firer: pol, Options: tt.opts,
				OnChange: func(c Change) error { changes = append(changes, c); return nil },
				OnBad:    func(b *BadLine) { bad = append(bad, b.Error()) }}
			if err := p.Replay(context.Background(), "x.log", strings.NewReader(log)); err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, c := range changes {
				lines = append(lines, c.Line)
			}
			if fmt.Sprint(lines) != fmt.Sprint(tt.changed) {
				t.Errorf("changed lines %v, want %v", lines, tt.changed)
			}
			if len(pol.fired) != tt.fires {
				t.Errorf("%d fires, want %d", len(pol.fired), tt.fires)
			}
			var want []string
			for _, n := range tt.bad {
				want = append(want, fmt.Sprintf("x.log:%d: %s", n, why[n]))
			}
			if len(bad) != len(want) {
				t.Errorf("bad lines:\n%s\nwant\n%s", strings.Join(bad, "\n"), strings.Join(want, "\n"))
			} else {
				for i := range bad {
					if !strings.HasPrefix(bad[i], want[i]) {
						t.Errorf("bad line %s, want %s", bad[i], want[i])
					}
				}
			}
			if p.Summary() != tt.summary {
				t.Errorf("summary %#v, want %#v", p.Summary(), tt.summary)
			}
		})
	}
}

func at(min int) time.Time { return time.Date(2026, 12, 1, 9, min, 0, 0, time.UTC) }

// A change carries both decisions, the payload as logged and decoded,
// and where it was recorded; its JSON is the --json object.
func TestReplayerChange(t *testing.T) {
	pol := &policy{known: map[string]bool{"e": true}}
	var got Change
	p := &Replayer{Firer: pol, OnChange: func(c Change) error { got = c; return nil }}
	if err := p.Replay(context.Background(), "a.log", strings.NewReader(line(3, "e", host.Continue, `{"now":"deny","n":1}`))); err != nil {
		t.Fatal(err)
	}
	want := Change{Time: "2026-12-01T09:03:00Z", Event: "e", Payload: []byte(`{"now":"deny","n":1}`),
		Before: decisionlog.Decision{Action: host.Continue, Reason: "old", Hook: "old.lua:g"},
		After:  decisionlog.Decision{Action: host.Deny, Reason: "because", Hook: "new.lua:guard"}, Log: "a.log", Line: 1}
	if got.Time != want.Time || got.Event != want.Event || string(got.Payload) != string(want.Payload) ||
		got.Before != want.Before || got.After != want.After || got.Log != want.Log || got.Line != want.Line {
		t.Errorf("change %+v\nwant     %+v", got, want)
	}
	if got.Decoded["n"] != int64(1) || got.Kind() != NewlyDenied {
		t.Errorf("decoded %v, kind %d", got.Decoded, got.Kind())
	}
}

// Several logs replay in order on one Replayer; the limit spans them.
func TestReplayerSeveralLogs(t *testing.T) {
	pol := &policy{known: map[string]bool{"a": true, "b": true, "c": true}}
	p := &Replayer{Firer: pol, Options: Options{Limit: 2}}
	for _, l := range []string{line(0, "a", host.Continue, `{}`), line(1, "b", host.Continue, `{}`) + line(2, "c", host.Continue, `{}`)} {
		if err := p.Replay(context.Background(), "l", strings.NewReader(l)); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(pol.fired) != "[a b]" || !p.Done() {
		t.Errorf("fired %v, done %v", pol.fired, p.Done())
	}
}

// The hooks see each fire's recorded time.
func TestReplayerClock(t *testing.T) {
	clock := NewClock(at(59))
	pol := &policy{known: map[string]bool{"e": true}, clock: clock}
	p := &Replayer{Firer: pol, Clock: clock}
	log := line(5, "e", host.Continue, `{}`) + line(3, "e", host.Continue, `{}`)
	if err := p.Replay(context.Background(), "l", strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	if len(pol.times) != 2 || !pol.times[0].Equal(at(5)) || !pol.times[1].Equal(at(3)) {
		t.Errorf("the hooks saw %v, want 09:05 and 09:03", pol.times)
	}
}

// What stops a replay: a failing OnChange, a read error, an ended ctx.
func TestReplayerStops(t *testing.T) {
	log := line(0, "e", host.Continue, `{"now":"deny"}`) + line(1, "e", host.Continue, `{"now":"deny"}`)
	pol := &policy{known: map[string]bool{"e": true}}
	full := errors.New("disk full")
	p := &Replayer{Firer: pol, OnChange: func(Change) error { return full }}
	if err := p.Replay(context.Background(), "l", strings.NewReader(log)); !errors.Is(err, full) || len(pol.fired) != 1 {
		t.Errorf("OnChange failing: %v after %d fires", err, len(pol.fired))
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pol = &policy{known: map[string]bool{"e": true}}
	p = &Replayer{Firer: pol}
	if err := p.Replay(ctx, "l", strings.NewReader(log)); !errors.Is(err, context.Canceled) {
		t.Errorf("ctx ended: %v", err)
	}
}
