package adapter

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// A LogQueue is a writer that never blocks its caller: each Write is
// queued (copied) and a goroutine writes the queue to the underlying
// writer in order; what does not fit in the queue is dropped and
// counted, and the count is written once the queue drains.
//
// A long-lived hook process's stderr is a pipe its agent reads when it
// likes. Were a warning written there before an answer, a full pipe
// would hold the answer back until the agent's deadline, and PicoClaw
// reads a late answer at before_tool as "proceed". So the process logs
// through a LogQueue, and answers never wait for their logs.
type LogQueue struct {
	lines chan []byte
	done  chan struct{}

	mu      sync.Mutex
	dropped int
	closed  bool
}

// NewLogQueue starts writing to w what is written to the queue, holding
// at most size writes.
func NewLogQueue(w io.Writer, size int) *LogQueue {
	q := &LogQueue{lines: make(chan []byte, size), done: make(chan struct{})}
	go q.drain(w)
	return q
}

// Write queues a copy of p; it never blocks. It reports len(p) even when
// p is dropped: a log line lost is counted, not an error of the caller.
func (q *LogQueue) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return len(p), nil
	}
	select {
	case q.lines <- append([]byte(nil), p...):
	default:
		q.dropped++
	}
	return len(p), nil
}

// drain writes the queue to w, and after a write the count of lines
// dropped meanwhile.
func (q *LogQueue) drain(w io.Writer) {
	defer close(q.done)
	for line := range q.lines {
		w.Write(line) // a log that cannot be written has nowhere to report it
		q.mu.Lock()
		n := q.dropped
		q.dropped = 0
		q.mu.Unlock()
		if n > 0 {
			fmt.Fprintf(w, "hookhost: %d log lines dropped: the log was not read fast enough\n", n)
		}
	}
}

// Close stops the queue and waits until what it holds is written, or
// at most wait: a log nobody reads must not keep the process from
// exiting.
func (q *LogQueue) Close(wait time.Duration) {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.lines)
	}
	q.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-q.done:
	case <-t.C:
	}
}
