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
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// Defaults of Options.
const (
	// DefaultMaxBody bounds a request body: 8 MiB.
	DefaultMaxBody = 8 << 20
	// DefaultDrainTimeout is how long Serve waits, once it stops
	// accepting, for the requests in flight.
	DefaultDrainTimeout = 5 * time.Second
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
	// DrainTimeout bounds the wait for requests in flight when Serve
	// stops; 0 means DefaultDrainTimeout.
	DrainTimeout time.Duration
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
	drain     time.Duration
	logger    *slog.Logger

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
	if opts.MaxBody < 0 || opts.IdleExit < 0 || opts.DrainTimeout < 0 || opts.MaxConns < 0 || opts.MaxFires < 0 ||
		opts.RequestTimeout < 0 || opts.IdleTimeout < 0 || opts.RequestMemory < 0 {
		return nil, errors.New("server: MaxBody, IdleExit, DrainTimeout, MaxConns, MaxFires, RequestTimeout, IdleTimeout " +
			"and RequestMemory cannot be negative")
	}
	s := &Server{backend: opts.Backend, metrics: opts.Metrics, maxBody: opts.MaxBody,
		idleExit: opts.IdleExit, drain: opts.DrainTimeout, logger: opts.Logger,
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
	if s.drain == 0 {
		s.drain = DefaultDrainTimeout
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Serve answers requests on ln until ctx ends or the server has been
// idle for Options.IdleExit. Then it stops accepting, waits for the
// requests in flight (at most Options.DrainTimeout; past that it closes
// their connections and says so in the log) and returns nil. Requests
// do not see ctx end: a fire in flight runs to its own deadline. Serve
// closes ln. It fails only when the listener fails.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	act := &activity{}
	act.touch()
	// Requests outlive ctx (they drain), until shutdown cancels them.
	requests, cancelRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRequests()
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

// fireGrace is how long the fires in flight at shutdown may run on before
// they are cancelled: a hook spinning to its (up to ten-minute) deadline
// must not hold the process, so SIGTERM ends serve within about this plus
// http.Server.Shutdown's idle poll (which backs off to 500 ms): half a
// second leaves a fire of a few milliseconds ample time to finish and keeps
// serve's exit under a second on a loaded machine.
const fireGrace = 500 * time.Millisecond

// shutdown stops accepting and waits for the requests in flight, for at
// most the drain timeout; fires still running after fireGrace are
// cancelled (each answers at once, a fail-closed event with deny).
func (s *Server) shutdown(hs *http.Server, act *activity, cancelRequests context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), s.drain)
	defer cancel()
	stopFires := time.AfterFunc(fireGrace, cancelRequests)
	defer stopFires.Stop()
	if err := hs.Shutdown(ctx); err != nil {
		s.logger.Warn("stopping anyway: requests still in flight after the drain timeout",
			"drain_timeout", s.drain.String(), "in_flight", act.inflight.Load())
		hs.Close()
	}
}
