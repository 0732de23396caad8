package host

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

func TestCoolDown(t *testing.T) {
	for _, c := range []struct {
		offence int
		want    time.Duration
	}{{1, time.Minute}, {2, 2 * time.Minute}, {3, 4 * time.Minute}, {4, 8 * time.Minute}, {5, 10 * time.Minute}, {40, 10 * time.Minute}} {
		if got := coolDown(c.offence); got != c.want {
			t.Errorf("coolDown(%d) = %v, want %v", c.offence, got, c.want)
		}
	}
}

// fakeClock is a host's Options.Now that a test moves.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// A quarantined hook is a failing hook: a guard that fails closed makes
// every fire deny, saying since when, until when and why; one that skips
// is in the trace, not silently gone. The quarantine ends by itself after
// its cool-down, which doubles with each offence; Release and ReleaseAll
// end it early.
func TestQuarantineExpiresAndFailsClosed(t *testing.T) {
	for _, lang := range []string{"lua", "star"} {
		for _, behavior := range []Behavior{FailClosed, Skip} {
			t.Run(lang+"/"+string(behavior), func(t *testing.T) {
				file := "stuck." + lang
				code := `local stuck = require("stuck")
hook.on("tool.execute.pre", function() stuck.wait() end, { name = "h", timeout = "30ms" })`
				if lang == "star" {
					code = "load(\"stuck\", \"stuck\")\nhook.on(\"tool.execute.pre\", lambda: stuck.wait(), name = \"h\", timeout = \"30ms\")"
				}
				id := file + ":h"
				clock := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
				obs := &recordingObserver{}
				h := hostWithConfig(t, map[string]string{file: code},
					"hooks:\n  "+file+":\n    error_behavior: "+string(behavior)+"\n    timeout_behavior: "+string(behavior)+"\n",
					Options{Modules: []stdlib.Module{blockingModule(t, true)}, Now: clock.Now, Observer: obs})
				fire := func() Result {
					t.Helper()
					r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{})
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
				quarantine := func(offence, fires int) {
					t.Helper()
					for i := 0; i < fires; i++ {
						if e := entry(fire(), id); e == nil || e.Outcome != OutcomeTimeout {
							t.Fatalf("offence %d, fire %d: want a timeout, got %+v", offence, i, e)
						}
					}
					qs := h.Quarantines()
					want := clock.Now().Add(coolDown(offence))
					if len(qs) != 1 || qs[0].Hook != id || !qs[0].Until.Equal(want) || qs[0].Offences != offence ||
						!strings.Contains(qs[0].Reason, "could not be stopped at its deadline") {
						t.Fatalf("offence %d: quarantines %+v, want %s until %v", offence, qs, id, want)
					}
					infos := h.Hooks()
					if len(infos) != 1 || !infos[0].Quarantined || !infos[0].QuarantinedUntil.Equal(want) {
						t.Fatalf("hook info %+v", infos)
					}
					if st := h.Status(); !slices.Equal(st.Quarantined, []string{id}) || len(st.Quarantines) != 1 {
						t.Fatalf("status %+v", st)
					}
				}
				held := func() {
					t.Helper()
					r := fire()
					e := entry(r, id)
					if e == nil || e.Outcome != OutcomeError || !strings.Contains(e.Error, "quarantined since 2026-01-02T03:0") {
						t.Fatalf("while quarantined: trace %+v", r.Trace)
					}
					want := Continue
					if behavior == FailClosed {
						want = Deny
					}
					if r.Decision.Action != want || want == Deny && !strings.Contains(r.Decision.Reason, "quarantined since") {
						t.Fatalf("while quarantined: %+v, want %s", r.Decision, want)
					}
				}

				quarantine(1, strikeLimit)
				held()
				clock.advance(coolDown(1) - time.Second)
				held()
				clock.advance(time.Second) // the cool-down is over: the hook runs again
				if e := entry(fire(), id); e == nil || e.Outcome != OutcomeTimeout {
					t.Fatalf("after the cool-down: %+v", e)
				}
				if q := h.Quarantined(); len(q) != 0 {
					t.Fatalf("still quarantined: %v", q)
				}
				// That was one strike; the strikes that quarantined it were
				// spent, so it takes two more.
				quarantine(2, strikeLimit-1)
				clock.advance(coolDown(1))
				held() // the second cool-down is longer
				if got := h.ReleaseAll(); !slices.Equal(got, []string{id}) || len(h.Quarantined()) != 0 {
					t.Fatalf("ReleaseAll = %v, quarantined %v", got, h.Quarantined())
				}
				if got := h.ReleaseAll(); len(got) != 0 {
					t.Fatalf("ReleaseAll again = %v", got)
				}
				quarantine(3, strikeLimit)
				obs.mu.Lock()
				defer obs.mu.Unlock()
				var seen []bool
				for _, q := range obs.quarantines {
					seen = append(seen, q.Quarantined)
				}
				if !slices.Equal(seen, []bool{true, false, true, false, true}) {
					t.Errorf("the observer was told %v", seen)
				}
			})
		}
	}
}
