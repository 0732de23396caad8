package adapter

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// gatedWriter blocks every Write until open is closed, as a pipe that
// nobody reads does.
type gatedWriter struct {
	open chan struct{}
	mu   sync.Mutex
	sb   strings.Builder
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sb.Write(p)
}

// A full, unread log never holds its writers back; once it is read it
// gets what was queued, in order, and how many lines were dropped.
func TestLogQueueNeverBlocks(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	q := NewLogQueue(g, 4)
	for i := range 100 {
		// Each Write returns while the writer below is blocked; a
		// blocking queue would hang here and the test would time out.
		if n, err := io.WriteString(q, "line "+strings.Repeat("x", i%3)+"\n"); n == 0 || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
	}
	close(g.open)
	q.Close(time.Minute)
	got := g.sb.String()
	if !strings.HasPrefix(got, "line \n") || !strings.Contains(got, "log lines dropped") {
		t.Fatalf("the log got %q, want the first lines and the count of those dropped", got)
	}
	if n := strings.Count(got, "line "); n < 4 || n > 6 {
		t.Errorf("%d lines written, want the queue's 4 (and the one being written)", n)
	}
	if _, err := io.WriteString(q, "after close\n"); err != nil || strings.Contains(g.sb.String(), "after close") {
		t.Errorf("a write after Close: %v, log %q", err, g.sb.String())
	}
}

// Close does not wait for a log nobody reads past its bound.
func TestLogQueueCloseBounded(t *testing.T) {
	g := &gatedWriter{open: make(chan struct{})}
	defer close(g.open)
	q := NewLogQueue(g, 4)
	io.WriteString(q, "never read\n")
	q.Close(10 * time.Millisecond) // a Close that waited for the writer would hang the test
}
