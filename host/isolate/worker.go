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
		fmt.Fprintf(stderr, "hookhost worker: %v\n", err)
		return 1
	}
	if limits.Data > 0 {
		debug.SetMemoryLimit(limits.Data - limits.Data/8) // collect before the kernel refuses
	}
	s := &server{out: bufio.NewWriter(out), progs: map[int64]scripting.Program{}, calls: map[int64]*scripting.Call{},
		engines: engines.ByExtension()}
	s.level.Store(int64(slog.LevelDebug)) // until the host says what it logs
	s.logger = slog.New(newFrameHandler(s.send, &s.level))
	s.modules = std.Modules(std.Options{Now: time.Now, Logger: s.logger, Backend: store})
	s.send(map[string]any{"op": "hello"})
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

// A server is the worker's side of the protocol.
type server struct {
	outMu sync.Mutex
	out   *bufio.Writer

	mu    sync.Mutex // guards progs and calls
	progs map[int64]scripting.Program
	calls map[int64]*scripting.Call

	engines map[string]scripting.Engine
	modules []stdlib.Module
	logger  *slog.Logger // sends log messages to the host (logs.go)
	level   atomic.Int64 // the host's lowest enabled level
	wg      sync.WaitGroup
}

func (s *server) send(msg map[string]any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if err := writeFrame(s.out, msg); err != nil {
		// a value the codec refuses: answer with the error instead
		if id, ok := msg["id"]; ok {
			_ = writeFrame(s.out, map[string]any{"id": id, "error": map[string]any{"msg": err.Error()}})
		}
	}
	_ = s.out.Flush()
}

func (s *server) serve(in io.Reader) int {
	for {
		msg, err := readFrame(in)
		if err == io.EOF {
			s.finish()
			return 0
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "hookhost worker: reading from the host: %v\n", err)
			return 1
		}
		switch str(msg, "op") {
		case "compile":
			s.compile(msg)
		case "call":
			s.wg.Add(1)
			go func() { defer s.wg.Done(); s.call(msg) }()
		case "cancel":
			s.mu.Lock()
			c := s.calls[integer(msg, "id")]
			s.mu.Unlock()
			if c != nil {
				c.Interrupt()
			}
		case "drop":
			s.mu.Lock()
			p := s.progs[integer(msg, "prog")]
			delete(s.progs, integer(msg, "prog"))
			s.mu.Unlock()
			if p != nil {
				p.Close()
			}
		}
	}
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

func (s *server) compile(msg map[string]any) {
	id, name := msg["id"], str(msg, "name")
	if l, ok := msg["log_level"].(int64); ok {
		s.level.Store(l)
	}
	e := s.engines[path.Ext(name)]
	if e == nil {
		s.send(map[string]any{"id": id, "error": map[string]any{"file": name, "msg": "no engine for this file"}})
		return
	}
	env := &scripting.Env{Modules: s.modules, Logger: s.logger, Limits: decodeLimits(mapOf(msg, "limits"))}
	timeout := env.Limits.Or().InitTimeout + time.Second
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	prog, err := e.Compile(ctx, scripting.Source{Name: name, Code: []byte(str(msg, "code"))}, env)
	if err != nil {
		s.send(map[string]any{"id": id, "error": errorMessage(err)})
		return
	}
	s.mu.Lock()
	s.progs[integer(msg, "prog")] = prog
	s.mu.Unlock()
	hooks := prog.Hooks()
	list := make([]any, len(hooks))
	for i, h := range hooks {
		list[i] = hookMessage(h)
	}
	s.send(map[string]any{"id": id, "hooks": list})
}

func (s *server) call(msg map[string]any) {
	id := integer(msg, "id")
	s.mu.Lock()
	prog := s.progs[integer(msg, "prog")]
	s.mu.Unlock()
	hooks := []scripting.Hook(nil)
	if prog != nil {
		hooks = prog.Hooks()
	}
	i := int(integer(msg, "hook"))
	if i < 0 || i >= len(hooks) {
		s.send(map[string]any{"id": id, "error": map[string]any{"msg": "the worker has no such hook"}})
		return
	}
	remaining := time.Duration(integer(msg, "remaining"))
	c := &scripting.Call{Payload: mapOf(msg, "payload"), Event: str(msg, "event"), Hook: str(msg, "hook_id"),
		Config: mapOf(msg, "config"), Timeout: time.Duration(integer(msg, "timeout")), Deadline: time.Now().Add(remaining)}
	if c.Payload == nil {
		c.Payload = map[string]any{}
	}
	if c.Config == nil {
		c.Config = map[string]any{}
	}
	s.mu.Lock()
	s.calls[id] = c
	s.mu.Unlock()
	timer := time.AfterFunc(remaining, c.Interrupt)
	v, err := hooks[i].Func.Call(c)
	timer.Stop()
	s.mu.Lock()
	delete(s.calls, id)
	s.mu.Unlock()
	if c.Interrupted() && err == nil {
		err = scripting.ErrInterrupted
	}
	switch {
	case err != nil:
		em := errorMessage(err)
		if c.Interrupted() && em["cause"] == nil {
			em["cause"] = causeInterrupted
		}
		s.send(map[string]any{"id": id, "error": em, "abandoned": c.Abandoned()})
	default:
		s.send(map[string]any{"id": id, "value": scripting.AsNeutral(v)})
	}
}
