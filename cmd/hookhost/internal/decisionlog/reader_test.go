package decisionlog

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// TestReaderReadsWhatTheLogWrites: every field a Log writes comes back
// from a Reader, the payload as the same JSON.
func TestReaderReadsWhatTheLogWrites(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, Options{Payload: true})
	for i := range 3 {
		l.FireDone(report("tool.execute.pre", i))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	for i := range 3 {
		var ln Line
		n, err := r.Next(&ln)
		if err != nil || n != i+1 {
			t.Fatalf("line %d: Next = %d, %v", i+1, n, err)
		}
		want := report("tool.execute.pre", i)
		if ln.Time != "2026-12-01T09:00:00.123456789Z" || ln.Event != want.Result.Event || ln.Generation != 3 {
			t.Errorf("line %d: %+v", n, ln)
		}
		if ln.Decision != DecisionOf(want.Result.Decision) {
			t.Errorf("line %d: decision %+v, want %+v", n, ln.Decision, want.Result.Decision)
		}
		if len(ln.Hooks) != 2 || ln.Hooks[0].Hook != "g.lua:guard" || ln.Hooks[1].Outcome != host.OutcomeTimeout {
			t.Errorf("line %d: hooks %+v", n, ln.Hooks)
		}
		var p bytes.Buffer
		if err := wire.WriteJSONLine(&p, want.Input); err != nil {
			t.Fatal(err)
		}
		if got := string(ln.Payload) + "\n"; got != p.String() {
			t.Errorf("line %d: payload %s, want %s", n, got, p.String())
		}
	}
	if n, err := r.Next(new(Line)); err != io.EOF || n != 3 {
		t.Errorf("after the last line: %d, %v; want 3, EOF", n, err)
	}
}

// TestReaderLines: blank lines are skipped, a bad line is an error that
// names it and the next line is still read, any line ending is taken.
func TestReaderLines(t *testing.T) {
	ok := `{"time":"t","event":"e","decision":{"action":"allow"}}`
	type step struct {
		line  int
		event string // "" for an error
		err   string
	}
	tests := []struct {
		name  string
		input string
		max   int
		want  []step
	}{
		{"empty", "", 0, nil},
		{"one line, no newline", ok, 0, []step{{1, "e", ""}}},
		{"CRLF", ok + "\r\n" + ok + "\r\n", 0, []step{{1, "e", ""}, {2, "e", ""}}},
		{"blank lines", "\n" + ok + "\n  \n\n" + ok + "\n\n", 0, []step{{2, "e", ""}, {5, "e", ""}}},
		{"not JSON", "garbage\n" + ok + "\n", 0, []step{{1, "", "not a decision log line: invalid JSON at byte 1"}, {2, "e", ""}}},
		{"torn", ok[:20] + "\n" + ok + "\n", 0, []step{{1, "", "the JSON ends early"}, {2, "e", ""}}},
		{"not an object", "[1,2]\n" + ok, 0, []step{{1, "", "not a decision log line: cannot unmarshal array"}, {2, "e", ""}}},
		{"wrong type", `{"event":7}` + "\n" + ok, 0, []step{{1, "", "not a decision log line: cannot unmarshal number"}, {2, "e", ""}}},
		{"over the limit", strings.Repeat("x", 100) + "\n" + ok + "\n", 80, []step{{1, "", "the line is over"}, {2, "e", ""}}},
		{"over the limit at the end", ok + "\n" + strings.Repeat("x", 100), 80, []step{{1, "e", ""}, {2, "", "the line is over"}}},
		{"at the limit", ok + "\n", len(ok), []step{{1, "e", ""}}},
		{"one over the limit", ok + "\n", len(ok) - 1, []step{{1, "", "the line is over"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.input))
			if tt.max > 0 {
				r.max = tt.max
			}
			for _, w := range tt.want {
				var ln Line
				n, err := r.Next(&ln)
				if n != w.line {
					t.Errorf("line %d, want %d (%v)", n, w.line, err)
				}
				if w.err == "" {
					if err != nil || ln.Event != w.event {
						t.Errorf("line %d: %+v, %v", n, ln, err)
					}
					continue
				}
				var le *LineError
				if !errors.As(err, &le) || le.Line != w.line || !strings.Contains(err.Error(), w.err) {
					t.Errorf("line %d: error %v, want a LineError of line %d with %q", n, err, w.line, w.err)
				}
			}
			if _, err := r.Next(new(Line)); err != io.EOF {
				t.Errorf("at the end: %v, want EOF", err)
			}
		})
	}
}

// TestReaderLongLines: a line longer than the read buffer is put
// together; one over MaxLine is dropped as it is read, never held.
func TestReaderLongLines(t *testing.T) {
	big := `{"time":"t","event":"e","decision":{"action":"allow"},"payload":{"s":"` + strings.Repeat("a", 200<<10) + `"}}`
	huge := strings.Repeat("y", 3*MaxLine)
	r := NewReader(strings.NewReader(big + "\n" + huge + "\n" + big + "\n"))
	var ln Line
	if n, err := r.Next(&ln); err != nil || n != 1 || len(ln.Payload) < 200<<10 {
		t.Fatalf("the 200 KiB line: %d, %v, payload of %d bytes", n, err, len(ln.Payload))
	}
	if n, err := r.Next(&ln); !errors.Is(err, ErrLineTooLong) || n != 2 {
		t.Fatalf("the 3 MiB line: %d, %v; want line 2 too long", n, err)
	}
	if cap(r.long) > 2*MaxLine {
		t.Errorf("the reader kept %d bytes for a line over the limit", cap(r.long))
	}
	if n, err := r.Next(&ln); err != nil || n != 3 {
		t.Fatalf("the line after: %d, %v", n, err)
	}
}

// A failing reader's error comes back as it is, not as a line error.
func TestReaderReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := NewReader(io.MultiReader(strings.NewReader(`{"event":"e"}`+"\n"), errReader{boom}))
	if _, err := r.Next(new(Line)); err != nil {
		t.Fatal(err)
	}
	var le *LineError
	if _, err := r.Next(new(Line)); !errors.Is(err, boom) || errors.As(err, &le) {
		t.Errorf("got %v, want the read error", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
