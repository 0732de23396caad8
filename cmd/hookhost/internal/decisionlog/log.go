package decisionlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"

	"github.com/hookhost/hookhost/host"
)

// DefaultQueue is how many lines may wait for the writer.
const DefaultQueue = 4096

// DefaultQueuedPayloads bounds the bytes of payloads waiting in the queue
// (as their JSON would take): past it a line is queued without its
// payload, with a payload_omitted marker, so a slow disk cannot make the
// log hold the payloads of thousands of fires.
const DefaultQueuedPayloads = 4 << 20

// Options configure a Log.
type Options struct {
	// Payload writes each fire's payload into its line.
	Payload bool
	// Queue is how many lines may wait for the writer; 0 means
	// DefaultQueue.
	Queue int
	// MaxPayload caps the bytes of a payload in a line; 0 means
	// DefaultMaxPayload.
	MaxPayload int
	// QueuedPayloads bounds the bytes of payloads waiting in the queue; 0
	// means DefaultQueuedPayloads.
	QueuedPayloads int
	// Logger is told about write and reopen failures; nil discards.
	Logger *slog.Logger
}

// A Log is a host.Observer that writes the decision log. Its methods are
// safe for concurrent use.
type Log struct {
	opts    Options
	queue   chan entry
	reopen  chan chan error
	quit    chan struct{}
	done    chan struct{}
	dropped atomic.Uint64
	closed  atomic.Bool
	once    sync.Once
	// queuedPayloads is the bytes of payloads in the queue.
	queuedPayloads atomic.Int64

	// Owned by the writer goroutine.
	w     io.Writer
	file  *os.File // w, when writing a file; nil for a plain io.Writer
	path  string
	batch bytes.Buffer // lines encoded and not yet written
	lines int          // how many
	bad   bool         // the last write failed (logged once per failing streak)
	// torn says that a failed write left part of a line in the log: the
	// next write starts with a newline, so its first line is not glued to
	// the torn one.
	torn bool
}

var _ host.Observer = (*Log)(nil)

// New writes the log to w, which Reopen leaves alone.
func New(w io.Writer, opts Options) *Log {
	l := newLog(opts)
	l.w = w
	go l.run()
	return l
}

// Open appends the log to the file at path, created with mode 0600 when
// missing; Reopen opens the path again.
func Open(path string, opts Options) (*Log, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	l := newLog(opts)
	l.file, l.path, l.w = f, path, f
	go l.run()
	return l, nil
}

func newLog(opts Options) *Log {
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.MaxPayload <= 0 {
		opts.MaxPayload = DefaultMaxPayload
	}
	if opts.QueuedPayloads <= 0 {
		opts.QueuedPayloads = DefaultQueuedPayloads
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Log{opts: opts, queue: make(chan entry, opts.Queue),
		reopen: make(chan chan error), quit: make(chan struct{}), done: make(chan struct{})}
}

func openFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("decision log: %w", err)
	}
	return f, nil
}

// FireDone queues the fire's line, or counts it dropped when the queue
// is full or the log closed. It never blocks, and keeps of the report
// only what the line needs (the payload only when it is to be logged and
// fits the caps).
func (l *Log) FireDone(r host.FireReport) {
	if l.closed.Load() {
		l.dropped.Add(1)
		return
	}
	e := newEntry(r, l.opts.Payload, l.opts.MaxPayload)
	if e.payload != nil && l.queuedPayloads.Add(int64(e.payloadSize)) > int64(l.opts.QueuedPayloads) {
		l.queuedPayloads.Add(-int64(e.payloadSize))
		e.payload, e.payloadSize = nil, 0
		e.omitted = "the log's queue held too many payloads (the disk is slower than the fires)"
	}
	select {
	case l.queue <- e:
	default:
		l.queuedPayloads.Add(-int64(e.payloadSize))
		l.dropped.Add(1)
	}
}

// ReloadDone implements host.Observer; reloads are not logged here.
func (l *Log) ReloadDone(host.ReloadReport) {}

// QuarantineChanged implements host.Observer; quarantines are not logged
// here.
func (l *Log) QuarantineChanged(host.QuarantineReport) {}

// Dropped counts the lines dropped so far.
func (l *Log) Dropped() uint64 { return l.dropped.Load() }

// Reopen writes the lines queued so far to the log file, closes it and
// opens its path again (after a rotation moved it away). When the path cannot be opened the old file
// stays in use and the error is returned. A Log made by New has nothing
// to reopen.
func (l *Log) Reopen() error {
	reply := make(chan error, 1)
	select {
	case l.reopen <- reply:
		return <-reply
	case <-l.done:
		return errors.New("decision log: closed")
	}
}

// Close writes the lines still queued, flushes and closes the file. Fires
// reported after Close are counted as dropped.
func (l *Log) Close() error {
	l.once.Do(func() {
		l.closed.Store(true)
		close(l.quit)
	})
	<-l.done
	if l.file != nil {
		return l.file.Close()
	}
	return nil
}

// run is the writer goroutine.
func (l *Log) run() {
	defer close(l.done)
	for {
		select {
		case r := <-l.queue:
			l.add(r)
			if len(l.queue) == 0 || l.batch.Len() >= maxBatch {
				l.flush()
			}
		case reply := <-l.reopen:
			reply <- l.reopenFile()
		case <-l.quit:
			l.drain()
			return
		}
	}
}

// maxBatch is how many bytes of lines are written at once at most.
const maxBatch = 64 << 10

// drain writes what is queued.
func (l *Log) drain() {
	for {
		select {
		case r := <-l.queue:
			l.add(r)
			if l.batch.Len() >= maxBatch {
				l.flush()
			}
		default:
			l.flush()
			return
		}
	}
}

// add encodes one line into the batch.
func (l *Log) add(e entry) {
	line, err := e.encode(l.opts.MaxPayload)
	l.queuedPayloads.Add(-int64(e.payloadSize))
	if err != nil {
		l.dropped.Add(1)
		l.opts.Logger.Error("decision log: encoding a line", "event", e.event, "error", err)
		return
	}
	l.batch.Write(line)
	l.lines++
}

// flush writes the batch; a failed write drops its lines. After a write
// that failed partway, the next starts with a newline: the torn line
// stays torn (a reader skips it as one bad line), and the next line
// starts clean.
func (l *Log) flush() {
	if l.lines == 0 {
		return
	}
	data := l.batch.Bytes()
	mended := l.torn
	if mended {
		data = append([]byte{'\n'}, data...)
	}
	n, err := l.w.Write(data)
	n = min(max(n, 0), len(data)) // whatever the writer claims
	if n > 0 {
		l.torn = data[n-1] != '\n'
	}
	if err != nil {
		whole := bytes.Count(data[:n], []byte{'\n'})
		if mended && n > 0 {
			whole-- // the newline that ended the torn line
		}
		l.dropped.Add(uint64(l.lines - whole))
		if !l.bad {
			l.opts.Logger.Error("decision log: writing failed; lines are dropped until a write succeeds", "error", err)
		}
	}
	l.bad = err != nil
	l.batch.Reset()
	l.lines = 0
}

func (l *Log) reopenFile() error {
	if l.file == nil {
		return nil
	}
	l.drain() // what was queued before the reopen goes to the old file
	f, err := openFile(l.path)
	if err != nil {
		l.opts.Logger.Error("decision log: reopening failed; still writing the old file", "path", l.path, "error", err)
		return err
	}
	old := l.file
	l.file, l.w, l.torn = f, f, false
	if err := old.Close(); err != nil {
		l.opts.Logger.Warn("decision log: closing the old file", "error", err)
	}
	return nil
}
