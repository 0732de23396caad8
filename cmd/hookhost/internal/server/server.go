package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// Defaults of Options.
const (
	// DefaultMaxBody bounds a request body: 8 MiB.
	DefaultMaxBody = 8 << 20
	// DefaultShutdownTimeout is how long the fires in flight may run on,
	// each within its own hooks' deadlines, once Serve stops accepting;
	// past it they are cancelled. It is under the 30 s Kubernetes gives a
	// pod to stop, so that serve has stopped before the kubelet kills it.
	DefaultShutdownTimeout = 10 * time.Second
	// DefaultMaxConns caps the connections open at once. An idle
	// connection costs some 20 KiB (its goroutine, buffers and the first
	// body buffer), so 256 of them take about 5 MiB.
	DefaultMaxConns = 256
	// DefaultFireQueue is how many fires may wait for a slot.
	DefaultFireQueue = 64
	// DefaultRequestTimeout bounds reading a request's headers, then its
	// body, then writing its answer (each on its own).
	DefaultRequestTimeout = 10 * time.Second
	// DefaultIdleTimeout closes a keep-alive connection with no request.
	DefaultIdleTimeout = 30 * time.Second
	// DefaultRequestMemory bounds what all requests hold at once: body
	// buffers, decoded payloads and answers. It is an eighth of the
	// hooks' default heap budget (limits.memory, 512 MiB).
	DefaultRequestMemory = 64 << 20
	// RetryAfter is what a 503 for lack of capacity asks a client to wait.
	RetryAfter = time.Second
)

// DefaultMaxFires is how many fires run at once: two per core the Go
// runtime uses, so a hook waiting on its worker process does not idle a
// core while fires beyond that wait in the queue rather than share the
// CPU until all of them time out.
func DefaultMaxFires() int { return 2 * runtime.GOMAXPROCS(0) }

// maxHeaderBytes bounds a request's headers (the API needs a few hundred
// bytes; net/http's default is 1 MiB per connection).
const maxHeaderBytes = 32 << 10

// A Backend is what the server serves: the fires, the hook listing and
// the status of one host. *host.Host is one.
type Backend interface {
	Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error)
	Hooks() []host.HookInfo
	Status() host.Status
	// Release lifts a hook's quarantine and reports whether it was
	// quarantined.
	Release(hookID string) bool
}

var _ Backend = (*host.Host)(nil)

// Options configure a Server. The zero value of each field but Backend
// means its default.
type Options struct {
	// Backend answers the API; required.
	Backend Backend
	// Metrics serves GET /metrics; nil answers 404.
	Metrics http.Handler
	// Token, when set, is the bearer token every endpoint but /healthz
	// requires. It is kept only as a hash.
	Token string
	// MaxBody bounds request bodies; 0 means DefaultMaxBody.
	MaxBody int64
	// IdleExit, when positive, makes Serve return after that long with
	// no request in flight and none begun.
	IdleExit time.Duration
	// ShutdownTimeout bounds how long the fires in flight when Serve
	// stops may run on; those still running after it are cancelled (see
	// ErrStopping). 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// Logger receives the server's logs (never a token); nil discards.
	Logger *slog.Logger

	// MaxConns caps the connections open at once; more wait in the
	// listener's backlog. 0 means DefaultMaxConns.
	MaxConns int
	// MaxFires caps the fires running at once; 0 means
	// DefaultMaxFires().
	MaxFires int
	// FireQueue caps the fires waiting for a slot (each at most
	// RequestTimeout); past it a fire is answered 503. 0 means
	// DefaultFireQueue, a negative value no queue.
	FireQueue int
	// RequestTimeout bounds reading a request's headers, reading its
	// body, and writing its answer; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// IdleTimeout closes keep-alive connections idle that long; 0 means
	// DefaultIdleTimeout.
	IdleTimeout time.Duration
	// RequestMemory bounds the bytes all requests hold at once (bodies as
	// they arrive, decoded payloads, answers); 0 means
	// DefaultRequestMemory. It must be at least MaxBody.
	RequestMemory int64
	// Agents are the command-hook dialects served at
	// POST /v1/agents/{name}, each under its Name; none serves none.
	Agents []adapter.CommandDialect
}

// A Server serves one Backend. See the package documentation.
type Server struct {
	backend   Backend
	metrics   http.Handler
	tokenHash *[sha256.Size]byte // nil: no token
	maxBody   int64
	idleExit  time.Duration
	logger    *slog.Logger

	// shutdownTimeout bounds the drain (Options.ShutdownTimeout);
	// answerGrace is how long fires cancelled at its end (or by Abort)
	// get to write their answers before their connections are closed.
	shutdownTimeout time.Duration
	answerGrace     time.Duration
	// aborted is closed by Abort.
	aborted   chan struct{}
	abortOnce sync.Once

	maxConns       int
	fires          *fireGate
	requestTimeout time.Duration
	idleTimeout    time.Duration
	memory         *memBudget
	busy           busyWarner
	agents         map[string]adapter.CommandDialect
	agentNames     string // for the 404 of an unknown agent
}

// New checks the options and makes a server.
func New(opts Options) (*Server, error) {
	if opts.Backend == nil {
		return nil, errors.New("server: no backend")
	}
	if opts.MaxBody < 0 || opts.IdleExit < 0 || opts.ShutdownTimeout < 0 || opts.MaxConns < 0 || opts.MaxFires < 0 ||
		opts.RequestTimeout < 0 || opts.IdleTimeout < 0 || opts.RequestMemory < 0 {
		return nil, errors.New("server: MaxBody, IdleExit, ShutdownTimeout, MaxConns, MaxFires, RequestTimeout, IdleTimeout " +
			"and RequestMemory cannot be negative")
	}
	s := &Server{backend: opts.Backend, metrics: opts.Metrics, maxBody: opts.MaxBody,
		idleExit: opts.IdleExit, logger: opts.Logger, aborted: make(chan struct{}),
		shutdownTimeout: orDefault(opts.ShutdownTimeout, DefaultShutdownTimeout), answerGrace: answerGrace,
		maxConns: orDefault(opts.MaxConns, DefaultMaxConns), requestTimeout: orDefault(opts.RequestTimeout, DefaultRequestTimeout),
		idleTimeout: orDefault(opts.IdleTimeout, DefaultIdleTimeout),
		memory:      &memBudget{limit: orDefault(opts.RequestMemory, DefaultRequestMemory)}}
	queue := orDefault(opts.FireQueue, DefaultFireQueue)
	s.fires = newFireGate(orDefault(opts.MaxFires, DefaultMaxFires()), max(queue, 0))
	if err := s.setAgents(opts.Agents); err != nil {
		return nil, err
	}
	if opts.Token != "" {
		sum := sha256.Sum256([]byte(opts.Token))
		s.tokenHash = &sum
	}
	if s.maxBody == 0 {
		s.maxBody = DefaultMaxBody
	}
	if s.maxBody > s.memory.limit {
		return nil, fmt.Errorf("server: MaxBody (%d bytes) is over RequestMemory (%d bytes): such a body could never be read",
			s.maxBody, s.memory.limit)
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Serve answers requests on ln until ctx ends or the server has been
// idle for Options.IdleExit. Then it drains: it stops accepting and lets
// the fires in flight finish, each within its own hooks' deadlines, for
// at most Options.ShutdownTimeout; the fires still running then are
// cancelled (so is every fire at once after Abort) and answer with what
// ran, a fail-closed event with deny, the reason naming ErrStopping.
// Serve returns nil once every request is answered, or a few seconds
// after the cancel in any case (it closes what is left and says so in
// the log). Requests do not see ctx end. Serve closes ln. It fails only
// when the listener fails.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	act := &activity{}
	act.touch()
	// Requests outlive ctx (they drain), until shutdown cancels them.
	requests, cancelRequests := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancelRequests(ErrStopping)
	// The body's deadline is set per request (see deadlines): a
	// ReadTimeout would also cancel a fire that outlives it.
	hs := &http.Server{
		Handler:           s.handler(ln.Addr(), act),
		ReadHeaderTimeout: s.requestTimeout,
		IdleTimeout:       s.idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return requests },
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	limited := newLimitListener(ln, s.maxConns)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(limited) }()
	waitCtx, stopWaiting := context.WithCancel(ctx)
	defer stopWaiting()
	idle := make(chan struct{})
	if s.idleExit > 0 {
		go func() {
			if act.waitIdle(waitCtx, s.idleExit) {
				close(idle)
			}
		}()
	}
	select {
	case err := <-served:
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
		s.logger.Info("stopping: finishing the requests in flight", "in_flight", act.inflight.Load())
	case <-idle:
		s.logger.Info("stopping: idle", "idle_exit", s.idleExit.String())
	case <-s.aborted:
		s.logger.Info("stopping at once")
	}
	s.shutdown(hs, act, cancelRequests)
	<-served // http.ErrServerClosed
	return nil
}

// setAgents indexes the dialects by name; two of one name are a mistake.
func (s *Server) setAgents(dialects []adapter.CommandDialect) error {
	s.agents = make(map[string]adapter.CommandDialect, len(dialects))
	var names []string
	for _, d := range dialects {
		if _, dup := s.agents[d.Name()]; dup {
			return fmt.Errorf("server: two agents named %q", d.Name())
		}
		s.agents[d.Name()] = d
		names = append(names, d.Name())
	}
	s.agentNames = strings.Join(names, ", ")
	if s.agentNames == "" {
		s.agentNames = "none: this server answers no agent's hooks"
	}
	return nil
}

// orDefault is v, or def when v is zero.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// ErrStopping is the cause of the cancellation of the fires serve
// cancels as it stops: a fail-closed event's deny says it.
var ErrStopping = errors.New("hookhost serve is stopping")

// answerGrace is how long fires cancelled as serve stops get to write
// their answers. A cancelled fire answers at once whatever its hook is
// doing (spinning, stuck in a builtin, in a worker process); the grace
// is for a machine short of CPU, and bounds what a connection that
// will not take its answer can hold.
const answerGrace = 3 * time.Second

// Abort makes Serve cancel every fire in flight at once (a second
// SIGTERM): during the drain, or as soon as it starts. Safe to call
// more than once and from any goroutine.
func (s *Server) Abort() {
	s.abortOnce.Do(func() { close(s.aborted) })
}

// shutdown stops accepting and waits for the requests in flight. The
// fires still running after the shutdown timeout, or when Abort is
// called, are cancelled with ErrStopping and get answerGrace to answer;
// past that their connections are closed.
func (s *Server) shutdown(hs *http.Server, act *activity, cancelRequests context.CancelCauseFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		timer := time.NewTimer(s.shutdownTimeout)
		defer timer.Stop()
		var why error
		select {
		case <-done:
			return
		case <-timer.C:
			why = fmt.Errorf("%w: the fire ran past the shutdown timeout (%v)", ErrStopping, s.shutdownTimeout)
		case <-s.aborted:
			why = fmt.Errorf("%w: told to stop at once", ErrStopping)
		}
		if n := act.inflight.Load(); n > 0 {
			s.logger.Warn("cancelling the fires still running", "in_flight", n, "why", why.Error())
		}
		cancelRequests(why)
		select {
		case <-done:
		case <-time.After(s.answerGrace):
			cancel()
		}
	}()
	if err := hs.Shutdown(ctx); err != nil {
		s.logger.Warn("stopping anyway: requests still unanswered after the fires in flight were cancelled",
			"shutdown_timeout", s.shutdownTimeout.String(), "in_flight", act.inflight.Load())
		hs.Close()
	}
}
