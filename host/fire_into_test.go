package host

import (
	"context"
	"reflect"
	"testing"
)

// fireIntoFiles are two hooks on session.start, which collects their
// messages, and one on tool.approve, so that fires in turn differ in
// how many trace entries and messages they make.
var fireIntoFiles = map[string]map[string]string{
	"lua": {
		"a.lua": `hook.on("session.start", function(session_id) return hook.message("a " .. session_id) end, { name = "a" })
hook.on("tool.approve", function(tool_name) if tool_name == "rm" then return hook.deny("no rm") end end, { name = "gate" })`,
		"b.lua": `hook.on("session.start", function(session_id) return hook.message("b " .. session_id) end, { name = "b" })`,
	},
	"starlark": {
		"a.star": `hook.on("session.start", lambda session_id: hook.message("a " + session_id), name = "a")

def gate(tool_name):
    if tool_name == "rm":
        return hook.deny("no rm")

hook.on("tool.approve", gate, name = "gate")`,
		"b.star": `hook.on("session.start", lambda session_id: hook.message("b " + session_id), name = "b")`,
	},
}

// fireIntoCalls fire in turn through one Result.
var fireIntoCalls = []struct {
	event   string
	payload map[string]any
}{
	{"session.start", map[string]any{"session_id": "s1"}},
	{"tool.approve", map[string]any{"tool_name": "rm"}},
	{"session.start", map[string]any{"session_id": "s2"}},
	{"tool.approve", map[string]any{"tool_name": "ls"}},
	{"turn.pre", map[string]any{"session_id": "s3"}}, // no hooks: an empty trace
	{"session.start", map[string]any{"session_id": "s4"}},
}

// TestFireIntoMatchesFire fires the same calls through Fire and through
// FireInto with one reused Result: every result is the same, whatever
// the one before it held.
func TestFireIntoMatchesFire(t *testing.T) {
	for lang, files := range fireIntoFiles {
		t.Run(lang, func(t *testing.T) {
			h := newTestHost(t, files, Options{})
			ctx := context.Background()
			var reused Result
			for i, c := range fireIntoCalls {
				want, wantErr := h.Fire(ctx, c.event, c.payload)
				err := h.FireInto(ctx, &reused, c.event, c.payload)
				if (err == nil) != (wantErr == nil) {
					t.Fatalf("call %d: FireInto error %v, Fire error %v", i, err, wantErr)
				}
				if !sameResult(reused, want) {
					t.Fatalf("call %d (%s): FireInto gave\n%+v\nFire gave\n%+v", i, c.event, reused, want)
				}
			}
		})
	}
}

// TestFireIntoReusesMemory checks that the reuse is real: a second fire
// of the same event writes its trace and messages where the first one's
// were, and allocates nothing for them.
func TestFireIntoReusesMemory(t *testing.T) {
	for lang, files := range fireIntoFiles {
		t.Run(lang, func(t *testing.T) {
			h := newTestHost(t, files, Options{})
			ctx := context.Background()
			var r Result
			if err := h.FireInto(ctx, &r, "session.start", map[string]any{"session_id": "one"}); err != nil {
				t.Fatal(err)
			}
			trace, messages := &r.Trace[0], &r.Messages[0]
			if err := h.FireInto(ctx, &r, "session.start", map[string]any{"session_id": "two"}); err != nil {
				t.Fatal(err)
			}
			if &r.Trace[0] != trace || &r.Messages[0] != messages {
				t.Fatal("the second fire did not reuse the first one's trace and messages")
			}
			if got := r.Messages[1].Content; got != "b two" {
				t.Fatalf("second message %q, want %q", got, "b two")
			}
		})
	}
}

// TestFireIntoClearsWhatItReuses: nothing of an earlier fire stays
// reachable through the memory a later one reuses, past its length too
// (a Result kept per goroutine would otherwise hold the last session's
// text).
func TestFireIntoClearsWhatItReuses(t *testing.T) {
	for lang, files := range fireIntoFiles {
		t.Run(lang, func(t *testing.T) {
			h := newTestHost(t, files, Options{})
			ctx := context.Background()
			var r Result
			if err := h.FireInto(ctx, &r, "session.start", map[string]any{"session_id": "secret-A"}); err != nil {
				t.Fatal(err)
			}
			if err := h.FireInto(ctx, &r, "turn.pre", map[string]any{"session_id": "B"}); err != nil {
				t.Fatal(err)
			}
			for i, m := range r.Messages[:cap(r.Messages)] {
				if m != (Message{}) {
					t.Errorf("message memory %d still holds %+v", i, m)
				}
			}
			for i, e := range r.Trace[:cap(r.Trace)] {
				if e != (TraceEntry{}) {
					t.Errorf("trace memory %d still holds %+v", i, e)
				}
			}
		})
	}
}

// TestFireIntoWithObserver checks that a host with an observer gives
// each fire new memory: the observer may keep the results it is told of.
func TestFireIntoWithObserver(t *testing.T) {
	for lang, files := range fireIntoFiles {
		t.Run(lang, func(t *testing.T) {
			obs := &recordingObserver{}
			h := newTestHost(t, files, Options{Observer: obs})
			ctx := context.Background()
			var r Result
			for _, id := range []string{"one", "two"} {
				if err := h.FireInto(ctx, &r, "session.start", map[string]any{"session_id": id}); err != nil {
					t.Fatal(err)
				}
			}
			reports := obs.fireReports()
			if len(reports) != 2 {
				t.Fatalf("%d reports, want 2", len(reports))
			}
			if got := reports[0].Result.Messages[0].Content; got != "a one" {
				t.Fatalf("the first report's message became %q: the second fire reused its memory", got)
			}
			if !sameResult(reports[1].Result, r) {
				t.Fatalf("the observer was told\n%+v\nFireInto gave\n%+v", reports[1].Result, r)
			}
		})
	}
}

// TestFireIntoClosedHost checks that FireInto on a closed host overwrites
// r and says why.
func TestFireIntoClosedHost(t *testing.T) {
	h := newTestHost(t, fireIntoFiles["lua"], Options{})
	r := Result{Trace: []TraceEntry{{Hook: "old"}}, Messages: []Message{{Content: "old"}}}
	h.Close()
	err := h.FireInto(context.Background(), &r, "tool.approve", nil)
	if err != ErrClosed {
		t.Fatalf("error %v, want ErrClosed", err)
	}
	if len(r.Trace) != 0 || len(r.Messages) != 0 || r.Decision.Action != Continue {
		t.Fatalf("closed host left %+v", r)
	}
}

// sameResult compares two results but for the hooks' durations, an
// empty slice equal to a nil one.
func sameResult(a, b Result) bool {
	norm := func(r Result) Result {
		trace := r.Trace
		r.Trace = nil
		for _, e := range trace {
			e.Duration = 0
			r.Trace = append(r.Trace, e)
		}
		if len(r.Messages) == 0 {
			r.Messages = nil
		}
		return r
	}
	return reflect.DeepEqual(norm(a), norm(b))
}
