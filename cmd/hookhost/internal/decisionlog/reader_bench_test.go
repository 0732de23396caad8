package decisionlog

import (
	"bytes"
	"io"
	"testing"

	"github.com/hookhost/hookhost/host"
)

// BenchmarkReaderNext is what reading one line costs hookhost replay: a
// line as serve writes it, with a two-hook trace and a payload.
func BenchmarkReaderNext(b *testing.B) {
	var one bytes.Buffer
	l := New(&one, Options{Payload: true})
	r := report("tool.execute.pre", 1)
	r.Input = map[string]any{"tool_name": "Bash", "session_id": "s", "cwd": "/home/u/proj",
		"params": map[string]any{"command": "git status && git diff --stat"}}
	r.Result.Decision = host.Decision{Action: host.Continue}
	l.FireDone(r)
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	log := bytes.Repeat(one.Bytes(), 1024)
	b.SetBytes(int64(one.Len()))
	b.ReportAllocs()
	var ln Line
	rd := NewReader(bytes.NewReader(log))
	for b.Loop() {
		if _, err := rd.Next(&ln); err == io.EOF {
			rd = NewReader(bytes.NewReader(log))
		} else if err != nil {
			b.Fatal(err)
		}
	}
}
