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
