package isolate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/hookhost/hookhost/scripting/engines"
	"io"
	"log/slog"
	"os"
	"path"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/state"
	"github.com/hookhost/hookhost/stdlib/std"
)

// workerEnv is the environment variable that makes a process a worker;
// its value is the worker's OS limits (see OSLimits.encode).
const workerEnv = "HOOKHOST_ISOLATE_WORKER"

// stateEnv carries Options.State to the worker.
const stateEnv = "HOOKHOST_ISOLATE_STATE"

// WorkerStateConns is how many connections a worker's shared state store
// may keep open (its pool size): the worker's descriptor limit leaves
// room for them and no more.
const WorkerStateConns = 4

// WorkerOptions are what a worker needs from the program it runs in.
type WorkerOptions struct {
	// OpenState opens the state store the host names (Options.State),
	// so that the worker's hooks share the host's keys; nil when the
	// program has no shared store, and then a host that names one makes
	// the worker fail to start, saying so.
	OpenState func(spec string) (state.Backend, error)
}

// workerArg is the worker's first argument: it only names the process
// for ps and top; the environment variable is what makes it a worker.
const workerArg = "__hookhost_worker"

// RunWorkerIfRequested turns the process into a hookhost worker when the
// host started it as one, and then exits; otherwise it returns at once.
// A program that embeds the host and isolates any file must call it
// first thing in main, before flags are parsed or anything else starts:
// the host starts its workers from the program's own binary.
//
//	func main() {
//		isolate.RunWorkerIfRequested()
//		...
//	}
func RunWorkerIfRequested() { RunWorkerIfRequestedWith(WorkerOptions{}) }

// RunWorkerIfRequestedWith is RunWorkerIfRequested for a program that
// gives its workers more (a shared state store).
func RunWorkerIfRequestedWith(opts WorkerOptions) {
	spec, ok := os.LookupEnv(workerEnv)
	if !ok {
		return
	}
	os.Exit(runWorker(spec, opts, os.Stdin, os.Stdout, os.Stderr))
}

// runWorker serves the host on in and out until in ends. It returns the
// process exit status.
func runWorker(spec string, opts WorkerOptions, in io.Reader, out io.Writer, stderr io.Writer) int {
	s := &server{out: bufio.NewWriter(out), stderr: stderr, progs: map[int64]scripting.Program{},
		calls: map[int64]*scripting.Call{}, engines: engines.ByExtension()}
	b, err := selfBuild() // before the limits: reading the binary takes a descriptor
	if err != nil {
		return s.exit(exitInit, err)
	}
	limits, err := decodeOSLimits(spec)
	if os.Getenv(stateEnv) != "" {
		// Room for the state store's connections, and one being
		// replaced, in a worker that may otherwise open nothing.
		limits.extraFiles = WorkerStateConns + 2
	}
	if err == nil {
		err = limits.apply()
	}
	var store state.Backend
	if err == nil {
		store, err = openWorkerState(opts)
	}
	if err != nil {
		return s.exit(exitInit, err)
	}
	if limits.Data > 0 {
		debug.SetMemoryLimit(limits.Data - limits.Data/8) // collect before the kernel refuses
	}
	s.level.Store(int64(slog.LevelDebug)) // until the host says what it logs
	s.logger = slog.New(newFrameHandler(s.send, &s.level))
	s.modules = std.Modules(std.Options{Now: time.Now, Logger: s.logger, Backend: store})
	s.send(&helloMsg{Protocol: protocolVersion, Build: b.ID, Program: b.Program})
	return s.serve(bufio.NewReader(in))
}

// openWorkerState opens the state store the host named, if any; nil
// means a memory store of the worker's own.
func openWorkerState(opts WorkerOptions) (state.Backend, error) {
	spec := os.Getenv(stateEnv)
	if spec == "" {
		return nil, nil
	}
	if opts.OpenState == nil {
		return nil, errors.New("the host's state store is shared (state.backend in the config), but this program gives its workers none: its main must call isolate.RunWorkerIfRequestedWith with OpenState")
	}
	b, err := opts.OpenState(spec)
	if err != nil {
		return nil, fmt.Errorf("opening the state store: %w", err)
	}
	return b, nil
}

// exit tells the host why the worker ends, on its stderr too for a host
// that cannot read it (one of another protocol), and returns the exit
// status.
func (s *server) exit(reason string, err error) int {
	fmt.Fprintf(s.stderr, "hookhost worker: %v\n", err)
	s.send(&exitMsg{Reason: reason, Msg: err.Error()})
	return 1
}

// A server is the worker's side of the protocol.
type server struct {
	outMu  sync.Mutex
	out    *bufio.Writer
	stderr io.Writer

	mu    sync.Mutex // guards progs and calls
	progs map[int64]scripting.Program
	calls map[int64]*scripting.Call

	engines map[string]scripting.Engine
	modules []stdlib.Module
	logger  *slog.Logger // sends log messages to the host (logs.go)
	level   atomic.Int64 // the host's lowest enabled level
	wg      sync.WaitGroup
}

func (s *server) send(msg message) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if err := writeMessage(s.out, msg); err != nil {
		// a value the codec refuses: answer with the error instead
		switch m := msg.(type) {
		case *valueMsg:
			_ = writeMessage(s.out, &errorMsg{ID: m.ID, Error: errorOf(err)})
		case *hooksMsg:
			_ = writeMessage(s.out, &errorMsg{ID: m.ID, Error: errorOf(err)})
		}
	}
	_ = s.out.Flush()
}

func (s *server) serve(in io.Reader) int {
	for {
		msg, err := readMessage(in, hostMessages)
		if err == io.EOF {
			s.finish()
			return 0
		}
		if err != nil {
			return s.exit(exitProtocol, fmt.Errorf("reading from the host: %w", err))
		}
		switch m := msg.(type) {
		case *compileMsg:
			s.guard(func() { s.compile(m) })
		case *callMsg:
			s.wg.Add(1)
			go s.guard(func() { defer s.wg.Done(); s.call(m) })
		case *cancelMsg:
			s.mu.Lock()
			c := s.calls[m.ID]
			s.mu.Unlock()
			if c != nil {
				c.Interrupt()
			}
		case *dropMsg:
			s.mu.Lock()
			p := s.progs[m.Prog]
			delete(s.progs, m.Prog)
			s.mu.Unlock()
			if p != nil {
				p.Close()
			}
		}
	}
}

// guard runs f and, should it panic (a bug in the worker, not a script
// error: the engines turn those into errors), tells the host before the
// panic ends the process as usual.
func (s *server) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.send(&exitMsg{Reason: exitPanic, Msg: fmt.Sprint("panic: ", r)})
			panic(r)
		}
	}()
	f()
}

// finish lets the calls in flight end when the host's input has ended:
// the host is stopping the worker (and kills it after stopGrace), or has
// died. Either way no call outlives stopGrace by much: past it they are
// interrupted, and past cancelGrace more the worker exits regardless, so
// a worker whose host died without killing it (no parent-death signal on
// this platform) does not run on.
func (s *server) finish() {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(stopGrace):
	}
	s.mu.Lock()
	for _, c := range s.calls {
		c.Interrupt()
	}
	s.mu.Unlock()
	select {
	case <-done:
	case <-time.After(cancelGrace):
	}
}

func (s *server) compile(m *compileMsg) {
	s.level.Store(m.LogLevel)
	e := s.engines[path.Ext(m.Name)]
	if e == nil {
		s.send(&errorMsg{ID: m.ID, Error: wireError{File: m.Name, Msg: "no engine for this file"}})
		return
	}
	env := &scripting.Env{Modules: s.modules, Logger: s.logger, Limits: scripting.Limits(m.Limits)}
	timeout := env.Limits.Or().InitTimeout + time.Second
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	prog, err := e.Compile(ctx, scripting.Source{Name: m.Name, Code: []byte(m.Code)}, env)
	if err != nil {
		s.send(&errorMsg{ID: m.ID, Error: errorOf(err)})
		return
	}
	s.mu.Lock()
	s.progs[m.Prog] = prog
	s.mu.Unlock()
	hooks := prog.Hooks()
	list := make([]wireHook, len(hooks))
	for i, h := range hooks {
		list[i] = hookOf(h)
	}
	s.send(&hooksMsg{ID: m.ID, Hooks: list})
}

func (s *server) call(m *callMsg) {
	s.mu.Lock()
	prog := s.progs[m.Prog]
	s.mu.Unlock()
	hooks := []scripting.Hook(nil)
	if prog != nil {
		hooks = prog.Hooks()
	}
	if m.Hook < 0 || m.Hook >= int64(len(hooks)) {
		s.send(&errorMsg{ID: m.ID, Error: wireError{Msg: "the worker has no such hook"}})
		return
	}
	c := &scripting.Call{Payload: m.Payload, Event: m.Event, Hook: m.HookID, Config: m.Config, HooksDir: m.HooksDir,
		Timeout: m.Timeout, Deadline: time.Now().Add(m.Remaining)}
	s.mu.Lock()
	s.calls[m.ID] = c
	s.mu.Unlock()
	timer := time.AfterFunc(m.Remaining, c.Interrupt)
	v, err := hooks[m.Hook].Func.Call(c)
	timer.Stop()
	s.mu.Lock()
	delete(s.calls, m.ID)
	s.mu.Unlock()
	if c.Interrupted() && err == nil {
		err = scripting.ErrInterrupted
	}
	switch {
	case err != nil:
		e := errorOf(err)
		if c.Interrupted() && e.Cause == "" {
			e.Cause = causeInterrupted
		}
		s.send(&errorMsg{ID: m.ID, Error: e, Abandoned: c.Abandoned()})
	default:
		s.send(&valueMsg{ID: m.ID, Value: scripting.AsNeutral(v)})
	}
}
