package host

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The failure log counts per minute over a sliding ten-minute window,
// starts again for a new file version, and warns of a hook that keeps
// failing (three failures in the window) at most once a minute.
func TestFailureLog(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	type step struct {
		at      time.Duration // after t0
		version string
		timeout bool
		// want after the step
		timeouts, errors int
		warn             bool
	}
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"counts and warns on the third", []step{
			{0, "v1", true, 1, 0, false},
			{time.Second, "v1", false, 1, 1, false},
			{2 * time.Second, "v1", true, 2, 1, true},
			{3 * time.Second, "v1", true, 3, 1, false}, // warned a second ago
			{61 * time.Second, "v1", false, 3, 2, false},
			{2*time.Second + time.Minute, "v1", false, 3, 3, true}, // a minute after the warning
		}},
		{"old failures leave the window", []step{
			{0, "v1", true, 1, 0, false},
			{time.Minute, "v1", true, 2, 0, false},
			{10*time.Minute + time.Second, "v1", false, 1, 1, false}, // the first minute's is gone
			{11*time.Minute + time.Second, "v1", false, 0, 2, false},
			{30 * time.Minute, "v1", true, 1, 0, false},
		}},
		{"a new version starts again", []step{
			{0, "v1", true, 1, 0, false},
			{time.Second, "v1", true, 2, 0, false},
			{2 * time.Second, "v2", true, 1, 0, false},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newFailureLog()
			for i, s := range c.steps {
				now := t0.Add(s.at)
				rf, warn := l.record("a.lua:h", s.version, s.timeout, "text", now)
				if rf.Timeouts != s.timeouts || rf.Errors != s.errors || warn != s.warn {
					t.Fatalf("step %d: %+v warn=%v, want %d timeouts, %d errors, warn=%v", i, rf, warn, s.timeouts, s.errors, s.warn)
				}
				if got := l.of("a.lua:h", s.version, now); got != rf || !got.LastAt.Equal(now) || got.LastError != "text" {
					t.Fatalf("step %d: of = %+v, want %+v", i, got, rf)
				}
			}
		})
	}
	l := newFailureLog()
	l.record("a.lua:h", "v1", true, "timed out", t0)
	if got := l.of("a.lua:h", "v1", t0.Add(FailureWindow+time.Minute)); got != (RecentFailures{}) {
		t.Errorf("after the window: %+v, want none", got)
	}
	if got := l.of("a.lua:h", "v2", t0); got != (RecentFailures{}) {
		t.Errorf("another version: %+v, want none", got)
	}
}

// syncBuffer is a log destination safe for the host's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A hook that fails on every call shows in Hooks and Status with its
// recent timeouts or errors and the last one, and the log warns that it
// keeps failing, once a minute; ten minutes later it is clean again. In
// both languages, for an error and for a loop cut at its deadline.
func TestRecentFailuresShown(t *testing.T) {
	for _, c := range []struct {
		file, code string
		timeout    bool
		lastError  string
	}{
		{"e.lua", `hook.on("tool.execute.pre", function() error("boom") end, { name = "h" })`, false, "boom"},
		{"e.star", "def h():\n    fail(\"boom\")\n\nhook.on(\"tool.execute.pre\", h)", false, "boom"},
		{"t.lua", `hook.on("tool.execute.pre", function() while true do end end, { name = "h", timeout = "20ms" })`, true, "timed out after 20ms"},
		{"t.star", "def h():\n    for i in range(1 << 40):\n        pass\n\nhook.on(\"tool.execute.pre\", h, timeout = \"20ms\")", true, "timed out after 20ms"},
	} {
		t.Run(c.file, func(t *testing.T) {
			clock := &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
			var logs syncBuffer
			h := newTestHost(t, map[string]string{c.file: c.code, "ok.lua": `hook.on("tool.execute.pre", function() end, { name = "ok" })`},
				Options{Now: clock.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			id := c.file + ":h"
			for i := 0; i < 4; i++ {
				if _, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{}); err != nil {
					t.Fatal(err)
				}
				clock.advance(time.Second)
			}
			want := RecentFailures{Errors: 4}
			if c.timeout {
				want = RecentFailures{Timeouts: 4}
			}
			for _, hk := range h.Hooks() {
				switch hk.ID {
				case id:
					got := hk.Recent
					if got.Timeouts != want.Timeouts || got.Errors != want.Errors || !strings.Contains(got.LastError, c.lastError) ||
						!got.LastAt.Equal(clock.Now().Add(-time.Second)) {
						t.Errorf("%s: recent %+v, want %+v with %q at %v", id, got, want, c.lastError, clock.Now().Add(-time.Second))
					}
				default:
					if hk.Recent != (RecentFailures{}) {
						t.Errorf("%s: recent %+v, want none", hk.ID, hk.Recent)
					}
				}
			}
			st := h.Status()
			if len(st.Failing) != 1 || st.Failing[0].Hook != id || st.Failing[0].Total() != 4 {
				t.Errorf("status failing %+v, want %s with 4", st.Failing, id)
			}
			if n := strings.Count(logs.String(), "hook keeps failing"); n != 1 {
				t.Errorf("%d warnings that the hook keeps failing, want 1 (at the third failure):\n%s", n, logs.String())
			}
			if !strings.Contains(logs.String(), "hook="+id) {
				t.Errorf("the warning does not name %s:\n%s", id, logs.String())
			}
			clock.advance(FailureWindow)
			if st := h.Status(); len(st.Failing) != 0 {
				t.Errorf("ten minutes later, failing %+v, want none", st.Failing)
			}
			if _, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{}); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(logs.String(), "hook keeps failing"); n != 1 {
				t.Errorf("one failure in a fresh window warned again (%d warnings)", n)
			}
		})
	}
}

// A config edit that does not load is among the status's problems (the
// last good config serving), not only in its config field.
func TestStatusProblemsHaveTheConfigError(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.lua"), `hook.on("tool.execute.pre", function() end, { name = "a" })`)
	cfg := filepath.Join(t.TempDir(), "hookhost.yaml")
	writeFile(t, cfg, "hooks:\n  a.lua: { priority: 1 }\n")
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := h.Status().Problems; len(p) != 0 {
		t.Fatalf("problems %v, want none", p)
	}
	writeFile(t, cfg, "hooks:\n  a.lua: { priority: high }\n")
	if err := h.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := h.Status()
	if st.Config.Err == nil || len(st.Problems) != 1 || !strings.Contains(st.Problems[0], "hookhost.yaml:2:") ||
		!strings.Contains(st.Problems[0], "the last good config serves") {
		t.Fatalf("config error %v, problems %q: want the config's error among the problems", st.Config.Err, st.Problems)
	}
}
