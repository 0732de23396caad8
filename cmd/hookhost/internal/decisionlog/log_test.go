package decisionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/host"
)

func report(event string, n int) host.FireReport {
	return host.FireReport{
		Result: host.Result{Event: event,
			Decision: host.Decision{Action: host.Deny, Reason: "no", Hook: "g.lua:guard"},
			Trace: []host.TraceEntry{
				{Hook: "g.lua:guard", Priority: 50, Outcome: host.OutcomeDecision, Action: host.Deny, Duration: 80 * time.Microsecond},
				{Hook: "h.star:slow", Priority: 10, Outcome: host.OutcomeTimeout, Duration: time.Second, Error: "timed out after 1s"},
			}},
		Generation: 3,
		Start:      time.Date(2026, 12, 1, 9, 0, 0, 123456789, time.UTC),
		Duration:   1500 * time.Microsecond,
		Input:      map[string]any{"n": int64(n), "secret": "hunter2"},
	}
}

func lines(t *testing.T, data string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(data))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestLines(t *testing.T) {
	for _, withPayload := range []bool{false, true} {
		var buf bytes.Buffer
		l := New(&buf, Options{Payload: withPayload})
		for i := range 3 {
			l.FireDone(report("tool.execute.pre", i))
		}
		l.ReloadDone(host.ReloadReport{})
		l.QuarantineChanged(host.QuarantineReport{})
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		got := lines(t, buf.String())
		if len(got) != 3 {
			t.Fatalf("%d lines, want 3:\n%s", len(got), buf.String())
		}
		first := strings.SplitN(buf.String(), "\n", 2)[0]
		want := `{"time":"2026-12-01T09:00:00.123456789Z","event":"tool.execute.pre",` +
			`"decision":{"action":"deny","reason":"no","hook":"g.lua:guard"},"duration_ms":1.5,"generation":3,` +
			`"hooks":[{"hook":"g.lua:guard","priority":50,"outcome":"decision","action":"deny","duration_ms":0.08},` +
			`{"hook":"h.star:slow","priority":10,"outcome":"timeout","duration_ms":1000,"error":"timed out after 1s"}],` +
			`"problems":[]`
		if withPayload {
			want += `,"payload":{"n":0,"secret":"hunter2"}}`
		} else {
			want += `}`
		}
		if first != want {
			t.Errorf("payload %v: line\n%s\nwant\n%s", withPayload, first, want)
		}
		if !withPayload && strings.Contains(buf.String(), "hunter2") {
			t.Errorf("the payload is in the log without Options.Payload")
		}
		if l.Dropped() != 0 {
			t.Errorf("Dropped = %d", l.Dropped())
		}
	}
}

// A hook in shadow mode is in the line's hooks with its enforcement
// beside the action it returned, which the final decision ignored.
func TestShadowHookInLine(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, Options{})
	r := report("tool.execute.pre", 0)
	r.Result.Decision = host.Decision{Action: host.Continue}
	r.Result.Trace = []host.TraceEntry{{Hook: "n.lua:new", Priority: 5, Outcome: host.OutcomeDecision, Action: host.Deny,
		Duration: 80 * time.Microsecond, Enforce: host.DryRun}}
	l.FireDone(r)
	l.Close()
	want := `"decision":{"action":"continue","reason":"","hook":""},"duration_ms":1.5,"generation":3,` +
		`"hooks":[{"hook":"n.lua:new","priority":5,"outcome":"decision","action":"deny","duration_ms":0.08,"enforce":"dryrun"}],`
	if !strings.Contains(buf.String(), want) {
		t.Errorf("line\n%s\nwant it to contain\n%s", buf.String(), want)
	}
}

func TestErrorField(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, Options{})
	r := report("turn.pre", 0)
	r.Err = errors.New("context canceled")
	r.Result.Trace = nil
	l.FireDone(r)
	l.Close()
	got := lines(t, buf.String())
	if len(got) != 1 || got[0]["error"] != "context canceled" || len(got[0]["hooks"].([]any)) != 0 {
		t.Errorf("lines = %v", got)
	}
}

// blockingWriter blocks every Write until released, saying when the
// first one began.
type blockingWriter struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	buf     bytes.Buffer
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.entered) })
	<-w.release
	return w.buf.Write(p)
}

func TestDropsWhenTheWriterBlocks(t *testing.T) {
	w := &blockingWriter{entered: make(chan struct{}), release: make(chan struct{})}
	const queue, extra = 4, 10
	l := New(w, Options{Queue: queue})
	l.FireDone(report("e", 0))
	<-w.entered // the writer holds line 0 and is stuck
	for i := 1; i <= queue+extra; i++ {
		l.FireDone(report("e", i)) // never blocks
	}
	if l.Dropped() != extra {
		t.Errorf("Dropped = %d, want %d", l.Dropped(), extra)
	}
	close(w.release)
	l.Close()
	if got := len(lines(t, w.buf.String())); got != 1+queue {
		t.Errorf("%d lines written, want %d", got, 1+queue)
	}
	l.FireDone(report("e", 99))
	if l.Dropped() != extra+1 {
		t.Errorf("a fire after Close: Dropped = %d, want %d", l.Dropped(), extra+1)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteFailuresCount(t *testing.T) {
	l := New(failingWriter{}, Options{})
	for i := range 5 {
		l.FireDone(report("e", i))
	}
	l.Close()
	if l.Dropped() != 5 {
		t.Errorf("Dropped = %d, want 5", l.Dropped())
	}
}

func TestReopen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "decisions.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.FireDone(report("before", 0))
	if err := os.Rename(path, path+".1"); err != nil { // what logrotate does
		t.Fatal(err)
	}
	if err := l.Reopen(); err != nil { // flushes "before" into the moved file
		t.Fatal(err)
	}
	l.FireDone(report("after", 0))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for file, event := range map[string]string{path + ".1": "before", path: "after"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got := lines(t, string(data))
		if len(got) != 1 || got[0]["event"] != event {
			t.Errorf("%s: %v, want one line of %s", filepath.Base(file), got, event)
		}
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v, want 0600", fi.Mode().Perm())
	}
	if err := l.Reopen(); err == nil {
		t.Errorf("Reopen after Close = nil error")
	}
}

// Fires reported while the log is rotated and reopened again and again
// are each written whole to one of the files: none is lost, split or
// written twice.
func TestReopenWhileFiring(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "decisions.jsonl")
	l, err := Open(path, Options{Queue: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	const writers, each, rotations = 4, 500, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				l.FireDone(report(fmt.Sprintf("w%d", w), i))
			}
		})
	}
	for r := range rotations {
		if err := os.Rename(path, fmt.Sprintf("%s.%d", path, r)); err != nil {
			t.Fatal(err)
		}
		if err := l.Reopen(); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if l.Dropped() != 0 {
		t.Fatalf("%d lines dropped", l.Dropped())
	}
	seen := map[string]int{}
	files, _ := filepath.Glob(path + "*")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, ln := range lines(t, string(data)) { // fails on a split line
			ev, _ := ln["event"].(string)
			if ln["generation"] != 3.0 || ln["decision"] == nil {
				t.Fatalf("%s: a line of %s is not whole: %v", filepath.Base(f), ev, ln)
			}
			seen[ev]++
		}
	}
	for w := range writers {
		if got := seen[fmt.Sprintf("w%d", w)]; got != each {
			t.Errorf("writer %d: %d lines in all the files, want %d", w, got, each)
		}
	}
}

func TestReopenFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "logs")
	os.Mkdir(sub, 0o755)
	path := filepath.Join(sub, "d.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.Rename(sub, filepath.Join(dir, "moved"))
	if err := l.Reopen(); err == nil {
		t.Fatalf("Reopen with the directory gone = nil error")
	}
	l.FireDone(report("still", 0))
	l.Close()
	data, _ := os.ReadFile(filepath.Join(dir, "moved", "d.jsonl"))
	if got := lines(t, string(data)); len(got) != 1 || got[0]["event"] != "still" {
		t.Errorf("old file holds %v", got)
	}
}

func TestOpenFails(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "no", "such", "dir", "d.jsonl"), Options{}); err == nil {
		t.Errorf("Open in a missing directory = nil error")
	}
}

// A writer that fails partway through one write, as a full disk does:
// it takes the first cut bytes of that write, then works again.
type tearingWriter struct {
	cut     int
	failed  bool
	written chan struct{} // told after each write
	buf     bytes.Buffer
}

func (w *tearingWriter) Write(p []byte) (int, error) {
	defer func() { w.written <- struct{}{} }()
	if !w.failed {
		w.failed = true
		n := min(w.cut, len(p))
		w.buf.Write(p[:n])
		return n, errors.New("no space left on device")
	}
	return w.buf.Write(p)
}

// After a write that failed partway, the next line starts clean: the
// torn line is a line of its own, never glued to the next.
func TestTornLineIsNotGlued(t *testing.T) {
	first := newEntry(report("first", 0), false, DefaultMaxPayload)
	one, _ := first.encode(DefaultMaxPayload)
	for _, tc := range []struct {
		name    string
		cut     int
		dropped uint64
		torn    bool // the log holds a torn line
	}{
		{"nothing written", 0, 1, false},
		{"mid-line", len(one) / 2, 1, true},
		{"all but the newline", len(one) - 1, 1, true},
		{"the whole line, then the error", len(one), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &tearingWriter{cut: tc.cut, written: make(chan struct{}, 4)}
			l := New(w, Options{})
			l.FireDone(report("first", 0))
			<-w.written // the torn write, alone in its batch
			l.FireDone(report("second", 1))
			<-w.written
			l.FireDone(report("third", 2))
			l.Close()
			if l.Dropped() != tc.dropped {
				t.Errorf("Dropped = %d, want %d", l.Dropped(), tc.dropped)
			}
			text := w.buf.String()
			all := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if tc.torn {
				if all[0] != strings.TrimSuffix(string(one[:tc.cut]), "\n") {
					t.Errorf("the torn line is %q", all[0])
				}
				all = all[1:]
			}
			got := lines(t, strings.Join(all, "\n")) // fails on a glued line
			var events []string
			for _, ln := range got {
				events = append(events, ln["event"].(string))
			}
			want := []string{"second", "third"}
			if tc.dropped == 0 {
				want = append([]string{"first"}, want...)
			}
			if fmt.Sprint(events) != fmt.Sprint(want) {
				t.Errorf("whole lines %v, want %v:\n%s", events, want, text)
			}
		})
	}
}

// A payload is logged up to MaxPayload bytes of JSON; past it the line
// says so instead, whether the estimate or only the encoding finds it
// too large.
func TestPayloadCap(t *testing.T) {
	for _, tc := range []struct {
		name    string
		input   map[string]any
		omitted bool
	}{
		{"small", map[string]any{"command": "ls"}, false},
		{"just under", map[string]any{"s": strings.Repeat("x", 1000-len(`{"s":""}`))}, false},
		{"a long string", map[string]any{"s": strings.Repeat("x", 1001)}, true},
		{"many values", map[string]any{"a": func() []any {
			v := make([]any, 600)
			for i := range v {
				v[i] = map[string]any{}
			}
			return v
		}()}, true},
		{"escapes", map[string]any{"s": strings.Repeat("\x01", 200)}, true},
		{"a long number", map[string]any{"n": json.Number(strings.Repeat("9", 2000))}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := New(&buf, Options{Payload: true, MaxPayload: 1000})
			r := report("e", 0)
			r.Input = tc.input
			l.FireDone(r)
			l.Close()
			got := lines(t, buf.String())
			if len(got) != 1 {
				t.Fatalf("%d lines", len(got))
			}
			_, hasPayload := got[0]["payload"]
			omitted, _ := got[0]["payload_omitted"].(string)
			if hasPayload == tc.omitted || (omitted != "") != tc.omitted {
				t.Errorf("payload %v, payload_omitted %q; want omitted %v", hasPayload, omitted, tc.omitted)
			}
			if tc.omitted && (!strings.Contains(omitted, "over the log's cap of 1000 bytes") || buf.Len() > 2000) {
				t.Errorf("line of %d bytes, marker %q", buf.Len(), omitted)
			}
		})
	}
}

// While the writer is stuck, payloads wait in the queue only up to
// QueuedPayloads bytes; later lines are queued without theirs.
func TestQueuedPayloadsAreBounded(t *testing.T) {
	w := &blockingWriter{entered: make(chan struct{}), release: make(chan struct{})}
	l := New(w, Options{Payload: true, QueuedPayloads: 3000})
	big := func(i int) host.FireReport {
		r := report("e", i)
		r.Input = map[string]any{"s": strings.Repeat("x", 900)}
		return r
	}
	l.FireDone(big(0))
	<-w.entered
	for i := 1; i <= 5; i++ {
		l.FireDone(big(i))
	}
	close(w.release)
	l.Close()
	got := lines(t, w.buf.String())
	var withPayload, omitted int
	for _, ln := range got {
		if _, ok := ln["payload"]; ok {
			withPayload++
		}
		if s, _ := ln["payload_omitted"].(string); strings.Contains(s, "queue held too many payloads") {
			omitted++
		}
	}
	// The first is with the writer; three of the next five fit 3000 bytes.
	if len(got) != 6 || withPayload != 4 || omitted != 2 {
		t.Errorf("%d lines, %d with a payload, %d omitted; want 6, 4, 2:\n%s", len(got), withPayload, omitted, w.buf.String())
	}
}

// jsonSize never says more than the JSON takes, so a payload it passes
// as over the cap surely is.
func TestJSONSizeIsALowerBound(t *testing.T) {
	for _, v := range []any{
		map[string]any{},
		map[string]any{"a": "b", "c": []any{int64(1), 2.5, true, nil, json.Number("12")}},
		map[string]any{"nested": map[string]any{"x": []any{}, "y": map[string]any{"z": "é\n\"<"}}},
		[]any{"", "", map[string]any{"k": false}},
	} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, over := jsonSize(v, 1<<20); got > len(data) || over {
			t.Errorf("jsonSize(%s) = %d (over %v), more than its %d bytes", data, got, over, len(data))
		}
		if _, over := jsonSize(v, len(data)-1); len(data) > 2 && !strings.Contains(string(data), `"`) && !over {
			t.Errorf("jsonSize(%s) not over %d", data, len(data)-1)
		}
	}
}
