package isolate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A process is one running worker, seen from the host: the pipes to it,
// the requests waiting for an answer, and why it ended once it has.
type process struct {
	cmd *exec.Cmd

	wmu sync.Mutex // serialises frames to the worker
	in  io.WriteCloser

	mu      sync.Mutex // guards pending, nextID, err, why
	pending map[int64]chan message
	nextID  int64
	err     error // why the process ended; set before dead closes
	// why is what the worker said, or the host found, about its end: its
	// exit message, or how it broke the protocol.
	why error

	logger *slog.Logger // the host's: the worker's log messages go to it

	dead   chan struct{}
	killed atomic.Bool // kill was called: the process is as good as dead
	// served is set when a call, or the compile of a newly loaded file,
	// was sent to it: its death may be their doing, not a failed start.
	served atomic.Bool
	tail   tail // the end of the worker's stderr, to explain a crash
}

// helloTimeout bounds the start of a worker: a program that does not
// call RunWorkerIfRequested never says hello.
const helloTimeout = 10 * time.Second

// ErrWorkerStart is the cause of a failure to start a worker: the
// program could not run, set its limits, say hello or compile its unit's
// files, or its process kept dying before it served a call. Calls that
// need the worker fail with it until a start succeeds.
var ErrWorkerStart = errors.New("the worker did not start")

// errStartLimit explains a worker that was still starting when its
// start-up limit passed.
var errStartLimit = fmt.Errorf("%w: it did not say hello within the start-up limit (limits.worker_start)", ErrWorkerStart)

// errNoHello explains a binary that started but is no worker.
var errNoHello = fmt.Errorf("%w: the program must call isolate.RunWorkerIfRequested first thing in main", ErrWorkerStart)

// A spawn is how a pool starts its workers: the file, the name they run
// under, and the build their hello must name.
type spawn struct {
	path, argv0 string
	build       build
}

// startProcess starts a worker and waits for its hello.
func startProcess(ctx context.Context, sp spawn, limits OSLimits, state, unit string, logger *slog.Logger) (*process, error) {
	cmd := exec.Command(sp.path, workerArg, unit)
	cmd.Args[0] = sp.argv0
	cmd.Env = workerEnviron(limits)
	if state != "" {
		// The shared state store's address, credentials included: the
		// worker's scripts reach it only through the state module.
		cmd.Env = append(cmd.Env, stateEnv+"="+state)
	}
	cmd.SysProcAttr = sysProcAttr()
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWorkerStart, err)
	}
	p := &process{cmd: cmd, in: in, pending: map[int64]chan message{}, dead: make(chan struct{}), logger: logger}
	logsDone := make(chan struct{})
	go p.copyLogs(errPipe, unit, logger, logsDone)
	hello := make(chan error, 1)
	go p.read(bufio.NewReaderSize(out, 64<<10), sp.build, hello, logsDone)
	start := ctx // bounded by the pool's start-up limit
	ctx, cancel := context.WithTimeout(ctx, helloTimeout)
	defer cancel()
	select {
	case err := <-hello:
		if err != nil {
			p.kill()
			return nil, err
		}
		return p, nil
	case <-ctx.Done():
		p.kill()
		switch {
		case start.Err() == context.DeadlineExceeded:
			return nil, errStartLimit
		case ctx.Err() == context.DeadlineExceeded:
			return nil, errNoHello
		}
		return nil, ctx.Err()
	}
}

// workerEnviron is the worker's whole environment: its limits and the Go
// runtime's own settings, nothing of the host's secrets.
func workerEnviron(limits OSLimits) []string {
	env := []string{workerEnv + "=" + limits.encode()}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOMAXPROCS", "GOGC", "GODEBUG", "GORACE", "GOTRACEBACK", "GOCOVERDIR":
			env = append(env, kv)
		}
	}
	return env
}

// read dispatches the worker's answers until its output ends, then
// records why the process ended.
func (p *process) read(r io.Reader, want build, hello chan<- error, logsDone <-chan struct{}) {
	err := p.handshake(r, want)
	if err != nil {
		err = p.notStarted(err, logsDone)
	}
	hello <- err
	for err == nil {
		var msg message
		if msg, err = readMessage(r, workerMessages); err != nil {
			if err != io.EOF {
				p.setWhy(fmt.Errorf("reading its messages: %w", err))
			}
			break
		}
		p.dispatch(msg)
	}
	_ = p.cmd.Process.Kill() // output ended: the worker is dead, or speaks garbage
	<-logsDone
	werr := p.cmd.Wait()
	p.mu.Lock()
	p.err = p.explain(werr)
	p.pending = nil
	p.mu.Unlock()
	close(p.dead)
}

// handshake reads the worker's first message: a hello of this protocol
// version and the build the host expects, or an exit saying why it could
// not start. The version is checked before the rest, so that a worker of
// another version is named as such rather than as a bad message.
func (p *process) handshake(r io.Reader, want build) error {
	m, err := readFrame(r)
	if err != nil {
		return err
	}
	if m[opKey] == "hello" {
		if v, _ := m["protocol"].(int64); v != protocolVersion {
			if v == 0 {
				v = 1 // version 1's hello had no version
			}
			program, _ := m["program"].(string)
			if program == "" {
				program = "an older hookhost"
			}
			return fmt.Errorf("%w: the worker speaks protocol version %d, this host %d (the worker is %s; the host %s)",
				errBuild, v, protocolVersion, program, want)
		}
	}
	msg, err := decodeMessage(m, workerMessages)
	if err != nil {
		return err
	}
	switch msg := msg.(type) {
	case *helloMsg:
		if got := (build{ID: msg.Build, Program: msg.Program}); got.ID != want.ID {
			return fmt.Errorf("%w: the worker is %s, the host expects %s", errBuild, got, want)
		}
		return nil
	case *exitMsg:
		p.dispatch(msg)
		return p.why
	}
	return fmt.Errorf("%w: its first message is %s, not hello", errProtocol, msg.op())
}

// dispatch hands a message to what waits for it.
func (p *process) dispatch(msg message) {
	var id int64
	switch m := msg.(type) {
	case *logMsg:
		replayLog(p.logger, m)
		return
	case *exitMsg:
		reason := exitReasons[m.Reason]
		if reason == "" {
			reason = "the reason " + strconv.Quote(m.Reason)
		}
		p.setWhy(fmt.Errorf("it reported %s: %s", reason, m.Msg))
		return
	case *hooksMsg:
		id = m.ID
	case *valueMsg:
		id = m.ID
	case *errorMsg:
		id = m.ID
	default:
		p.setWhy(fmt.Errorf("%w: a second %s", errProtocol, msg.op()))
		_ = p.cmd.Process.Kill()
		return
	}
	p.mu.Lock()
	ch := p.pending[id]
	delete(p.pending, id)
	issued := id > 0 && id <= p.nextID // else an answer to what nobody asked
	p.mu.Unlock()
	switch {
	case ch != nil:
		ch <- msg
	case !issued:
		p.setWhy(fmt.Errorf("%w: %s answers request %d, which the host never sent", errProtocol, msg.op(), id))
		_ = p.cmd.Process.Kill()
	}
	// else the answer of a call given up on (cancelGrace): dropped
}

// exitReasons say the reasons of exit messages in words.
var exitReasons = map[string]string{exitInit: "a failure to start", exitProtocol: "a protocol error",
	exitPanic: "a crash"}

// setWhy records the first explanation of the worker's end.
func (p *process) setWhy(err error) {
	p.mu.Lock()
	if p.why == nil {
		p.why = err
	}
	p.mu.Unlock()
}

// notStarted explains a worker that never said hello: with what it
// reported, else what it wrote on stderr when it wrote anything (a
// wrapper that refused), else as a program that is no worker.
func (p *process) notStarted(err error, logsDone <-chan struct{}) error {
	if errors.Is(err, errBuild) || errors.Is(err, errProtocol) || p.why != nil {
		return fmt.Errorf("%w: %w", ErrWorkerStart, err)
	}
	select {
	case <-logsDone:
	case <-time.After(time.Second):
	}
	if last := p.tail.lastError(); last != "" {
		return fmt.Errorf("%w: %s", ErrWorkerStart, last)
	}
	return fmt.Errorf("%w (%v)", errNoHello, err)
}

// explain says why the process ended: what it reported, else the last
// resort, the Go runtime's last words on its stderr (tail).
//
// A process the host killed itself (a call stuck past its interrupt, a
// builtin left running, a pool closing) did not die of what it ran, so
// its error is not ErrWorkerDied.
func (p *process) explain(werr error) error {
	if p.why != nil {
		return fmt.Errorf("%w: %w", ErrWorkerDied, p.why)
	}
	if p.killed.Load() {
		return errors.New("the worker process was stopped by the host")
	}
	msg := ""
	if werr != nil {
		msg = ": " + werr.Error()
	}
	if last := p.tail.lastError(); last != "" {
		msg += ": " + last
	}
	return fmt.Errorf("%w%s", ErrWorkerDied, msg)
}

// ErrWorkerDied is the cause of a call's failure when its worker process
// ended on its own while the call ran: the kernel refused it memory or
// CPU, or the Go runtime gave up (its "fatal error: …" follows).
var ErrWorkerDied = errors.New("the worker process ended")

// copyLogs copies what the worker writes on stderr to the host's logger
// as warnings: its log and print output comes as log messages (logs.go),
// so what is left is exceptional (the Go runtime's last words, a limit it
// could not set). It keeps the end for explain.
func (p *process) copyLogs(r io.Reader, unit string, logger *slog.Logger, done chan<- struct{}) {
	defer close(done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Text()
		p.tail.add(line)
		logger.Warn("worker output", "unit", unit, "line", line)
	}
	_, _ = io.Copy(io.Discard, r)
}

// request sends msg with a fresh id and returns the channel its answer
// comes on; ok is false when the process has ended.
func (p *process) request(msg interface {
	message
	setID(int64)
}) (id int64, answer chan message, err error) {
	p.mu.Lock()
	if p.pending == nil {
		p.mu.Unlock()
		return 0, nil, p.deadErr()
	}
	p.nextID++
	id = p.nextID
	answer = make(chan message, 1)
	p.pending[id] = answer
	p.mu.Unlock()
	msg.setID(id)
	if err := p.send(msg); err != nil {
		p.forget(id)
		return 0, nil, err
	}
	return id, answer, nil
}

func (p *process) send(msg message) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if err := writeMessage(p.in, msg); err != nil {
		if errors.Is(err, errFrameTooLarge) {
			return err
		}
		p.kill()
		return fmt.Errorf("writing to the worker: %w", err)
	}
	return nil
}

func (p *process) forget(id int64) {
	p.mu.Lock()
	if p.pending != nil {
		delete(p.pending, id)
	}
	p.mu.Unlock()
}

// deadErr is why the process ended (or is ending).
func (p *process) deadErr() error {
	select {
	case <-p.dead:
		return p.err
	default:
		return errors.New("the worker process is ending")
	}
}

func (p *process) alive() bool {
	if p.killed.Load() {
		return false
	}
	select {
	case <-p.dead:
		return false
	default:
		return true
	}
}

// kill ends the process at once; read records it.
func (p *process) kill() {
	p.killed.Store(true)
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
}

// stop asks the worker to finish (its input ends) and kills it if it has
// not after grace.
func (p *process) stop(grace time.Duration) {
	p.wmu.Lock()
	_ = p.in.Close()
	p.wmu.Unlock()
	select {
	case <-p.dead:
	case <-time.After(grace):
		p.kill()
		<-p.dead
	}
}

// A tail keeps what explains a worker's end: the Go runtime's first
// "fatal error: …" or "panic: …" line, and the last line of its stderr.
type tail struct {
	mu    sync.Mutex
	fatal string
	last  string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fatal == "" && (strings.HasPrefix(line, "fatal error: ") || strings.HasPrefix(line, "panic: ")) {
		t.fatal = line
	}
	if line != "" {
		t.last = line
	}
}

// lastError is the fatal line if there was one, else the last line.
func (t *tail) lastError() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fatal != "" {
		return t.fatal
	}
	return t.last
}
