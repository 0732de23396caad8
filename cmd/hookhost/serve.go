package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/decisionlog"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/metrics"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/server"
	"github.com/hookhost/hookhost/host"
)

// defaultHTTP is where serve listens without --http.
const defaultHTTP = "127.0.0.1:7878"

// tokenEnv holds the bearer token when --token-file is not given.
const tokenEnv = "HOOKHOST_TOKEN"

// serveOptions are the options of hookhost serve.
type serveOptions struct {
	commonOptions
	// HTTP is the listen address: host:port, or unix:/path for a socket.
	HTTP string
	// TokenFile holds the bearer token; empty means $HOOKHOST_TOKEN.
	TokenFile string
	// InsecureListen allows a non-loopback address without a token.
	InsecureListen bool
	// Strict makes deny-capable events deny while a file has no good
	// version, and /healthz answer 503.
	Strict bool
	// LogFormat is text or json.
	LogFormat string
	// DecisionLog is the decision log's path, "-" for stdout, or empty
	// for none.
	DecisionLog string
	// DecisionLogPayload writes each fire's payload into the log.
	DecisionLogPayload bool
	// IdleExit, when positive, exits after that long without requests.
	IdleExit time.Duration
	// MaxBody bounds request bodies, in bytes.
	MaxBody int64
	// MaxConnections caps the connections open at once.
	MaxConnections int
	// MaxFires caps the fires running at once.
	MaxFires int
	// FireQueue caps the fires waiting for a slot (0: none).
	FireQueue int
	// RequestTimeout bounds each request's headers, body and answer.
	RequestTimeout time.Duration
	// IdleTimeout closes idle keep-alive connections.
	IdleTimeout time.Duration
	// MaxRequestMemory bounds what all requests hold at once, in bytes.
	MaxRequestMemory int64
	// ShutdownTimeout bounds how long the fires in flight at SIGTERM may
	// run on before they are cancelled.
	ShutdownTimeout time.Duration

	// envToken is $HOOKHOST_TOKEN, read by the command's action.
	envToken string
	// hangups delivers SIGHUP: rescan and reopen the decision log.
	hangups <-chan os.Signal
	// stops delivers SIGTERM and SIGINT: the first drains (through the
	// command's context), the second cancels the fires in flight at once.
	stops <-chan os.Signal
	// audit keeps the config entries that match nothing (serve_config.go).
	audit *configAudit
}

func newServeCommand() *cli.Command {
	opts := &serveOptions{}
	return &cli.Command{
		Name:  "serve",
		Usage: "watch the hooks directory and serve fires over HTTP",
		UsageText: "hookhost serve [DIR] [--config F] [--http ADDR] [--token-file F] [--insecure-listen] [--strict]\n" +
			"   [--log-format text|json] [--log-level L] [--decision-log PATH|-] [--decision-log-payload]\n" +
			"   [--idle-exit DURATION] [--max-body BYTES] [--max-request-memory BYTES] [--max-connections N]\n" +
			"   [--max-fires N] [--fire-queue N] [--request-timeout DURATION] [--idle-timeout DURATION]\n" +
			"   [--shutdown-timeout DURATION]",
		Description: "Loads the hooks directory, hot-reloads it (and the config) on every change, and serves\n" +
			"POST /v1/fire/{event}, GET /v1/hooks, GET /v1/status, POST /v1/hooks/{id}/release, GET /healthz\n" +
			"and GET /metrics on ADDR (default " + defaultHTTP + "; unix:/path for a Unix socket). SIGHUP\n" +
			"reopens the decision log, releases every quarantined hook and rescans; SIGTERM or SIGINT\n" +
			"stops accepting, lets the fires in flight finish (for at most --shutdown-timeout; then they\n" +
			"are cancelled, a second signal cancels them at once) and exits 0. Every client is bounded: past --max-connections\n" +
			"new connections wait; past --max-fires running and --fire-queue waiting, or\n" +
			"--max-request-memory, a fire is answered 503 with Retry-After. See docs/operations.md.\n\n" +
			"Examples:\n" +
			"   hookhost serve\n" +
			"   hookhost serve --dir ./hooks.d --config hookhost.yaml --decision-log decisions.jsonl\n" +
			"   hookhost serve --http unix:$XDG_RUNTIME_DIR/hookhost.sock --idle-exit 10m",
		Flags:           opts.flags(),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			opts.envToken = os.Getenv(tokenEnv)
			hup, stop := notifyHangup()
			defer stop()
			opts.hangups = hup
			stops, stopStops := notifyStop()
			defer stopStops()
			opts.stops = stops
			return runServe(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (o *serveOptions) flags() []cli.Flag {
	common := o.commonOptions.flags()
	for _, f := range common {
		if sf, ok := f.(*cli.StringFlag); ok && sf.Name == "log-level" {
			sf.Value = "info" // a daemon's log says what it does
		}
	}
	return append(common,
		&cli.StringFlag{Name: "http", Value: defaultHTTP, Destination: &o.HTTP,
			Usage: "listen on `ADDR`: host:port, or unix:/path for a Unix socket (mode 0600)"},
		&cli.StringFlag{Name: "token-file", Destination: &o.TokenFile,
			Usage: "require the token in `FILE` (default: $" + tokenEnv + "): Authorization: Bearer <token>, or a proof of it (docs/operations.md)"},
		&cli.BoolFlag{Name: "insecure-listen", Destination: &o.InsecureListen,
			Usage: "allow a non-loopback --http address without a token"},
		&cli.BoolFlag{Name: "strict", Destination: &o.Strict,
			Usage: "while a file has no good version, deny-capable events deny and /healthz answers 503"},
		&cli.StringFlag{Name: "log-format", Value: "text", Destination: &o.LogFormat,
			Usage: "log to stderr as `FORMAT`: text or json"},
		&cli.StringFlag{Name: "decision-log", Destination: &o.DecisionLog,
			Usage: "append one JSON line per fire to `PATH` (- for stdout)"},
		&cli.BoolFlag{Name: "decision-log-payload", Destination: &o.DecisionLogPayload,
			Usage: "write each fire's payload into the decision log (payloads may carry secrets)"},
		&cli.DurationFlag{Name: "idle-exit", Destination: &o.IdleExit,
			Usage: "exit 0 after `DURATION` without requests (0: never)"},
		&cli.Int64Flag{Name: "max-body", Value: server.DefaultMaxBody, Destination: &o.MaxBody,
			Usage: "refuse request bodies over `BYTES` (413)"},
		&cli.Int64Flag{Name: "max-request-memory", Value: server.DefaultRequestMemory, Destination: &o.MaxRequestMemory,
			Usage: "bound what all requests hold at once (bodies, decoded payloads, answers) to `BYTES`; past it 503"},
		&cli.IntFlag{Name: "max-connections", Value: server.DefaultMaxConns, Destination: &o.MaxConnections,
			Usage: "serve at most `N` connections at once; more wait to be accepted"},
		&cli.IntFlag{Name: "max-fires", Value: server.DefaultMaxFires(), Destination: &o.MaxFires,
			Usage: "run at most `N` fires at once (default: twice the cores)"},
		&cli.IntFlag{Name: "fire-queue", Value: server.DefaultFireQueue, Destination: &o.FireQueue,
			Usage: "let at most `N` more fires wait for a slot, each up to --request-timeout; past it 503"},
		&cli.DurationFlag{Name: "request-timeout", Value: server.DefaultRequestTimeout, Destination: &o.RequestTimeout,
			Usage: "give each request `DURATION` for its headers, then for its body, then for taking its answer"},
		&cli.DurationFlag{Name: "idle-timeout", Value: server.DefaultIdleTimeout, Destination: &o.IdleTimeout,
			Usage: "close a keep-alive connection idle for `DURATION`"},
		&cli.DurationFlag{Name: "shutdown-timeout", Value: server.DefaultShutdownTimeout, Destination: &o.ShutdownTimeout,
			Usage: "on SIGTERM or SIGINT, let the fires in flight run on for at most `DURATION`, then cancel them"},
	)
}

func (o *serveOptions) validate(args []string) error {
	if err := o.takeDir("serve", args); err != nil {
		return err
	}
	switch {
	case o.HTTP == "":
		return usageErrorf("--http: want host:port or unix:/path")
	case o.LogFormat != "text" && o.LogFormat != "json":
		return usageErrorf("--log-format %q: want text or json", o.LogFormat)
	case o.IdleExit < 0:
		return usageErrorf("--idle-exit %s: cannot be negative", o.IdleExit)
	case o.MaxBody <= 0:
		return usageErrorf("--max-body %d: want a positive number of bytes", o.MaxBody)
	case o.MaxRequestMemory < o.MaxBody:
		return usageErrorf("--max-request-memory %d: want at least --max-body (%d bytes)", o.MaxRequestMemory, o.MaxBody)
	case o.MaxConnections <= 0:
		return usageErrorf("--max-connections %d: want a positive number", o.MaxConnections)
	case o.MaxFires <= 0:
		return usageErrorf("--max-fires %d: want a positive number", o.MaxFires)
	case o.FireQueue < 0:
		return usageErrorf("--fire-queue %d: cannot be negative", o.FireQueue)
	case o.RequestTimeout <= 0:
		return usageErrorf("--request-timeout %s: want a positive duration", o.RequestTimeout)
	case o.IdleTimeout <= 0:
		return usageErrorf("--idle-timeout %s: want a positive duration", o.IdleTimeout)
	case o.ShutdownTimeout <= 0:
		return usageErrorf("--shutdown-timeout %s: want a positive duration", o.ShutdownTimeout)
	case o.DecisionLogPayload && o.DecisionLog == "":
		return usageErrorf("--decision-log-payload needs --decision-log")
	}
	return o.commonOptions.validate()
}

// token is the bearer token from --token-file or $HOOKHOST_TOKEN; empty
// means none.
// A token file others can read is used, with a warning.
func (o *serveOptions) token(logger *slog.Logger) (string, error) {
	if o.TokenFile == "" {
		return strings.TrimSpace(o.envToken), nil
	}
	data, err := os.ReadFile(o.TokenFile)
	if err != nil {
		return "", usageErrorf("--token-file: %v", err)
	}
	if fi, err := os.Stat(o.TokenFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
		logger.Warn("the token file can be read by other users; chmod 600 it", "file", o.TokenFile,
			"mode", fi.Mode().Perm().String())
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", usageErrorf("--token-file %s: the file is empty", o.TokenFile)
	}
	return tok, nil
}

// checkExposure refuses a non-loopback address without a token, unless
// --insecure-listen.
func (o *serveOptions) checkExposure(ctx context.Context, token string) error {
	local, err := server.Local(ctx, o.HTTP)
	if err != nil {
		return usageErrorf("--http: %v", err)
	}
	if local || token != "" || o.InsecureListen {
		return nil
	}
	return usageErrorf("serve: --http %s is not a loopback address, and anyone who can reach it could fire events: "+
		"give a token (--token-file or $%s), or --insecure-listen to serve it without one", o.HTTP, tokenEnv)
}

// logger is serve's log: text or JSON records with timestamps on stderr.
func (o *serveOptions) logger(stderr io.Writer) *slog.Logger {
	ho := &slog.HandlerOptions{Level: o.level}
	if o.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(stderr, ho))
	}
	return slog.New(slog.NewTextHandler(stderr, ho))
}

// runServe serves until ctx ends or the idle exit fires.
func runServe(ctx context.Context, opts *serveOptions, _ io.Reader, stdout, stderr io.Writer) error {
	logger := opts.logger(stderr)
	token, err := opts.token(logger)
	if err != nil {
		return err
	}
	if err := opts.checkExposure(ctx, token); err != nil {
		return err
	}
	dlog, err := opts.openDecisionLog(stdout, logger)
	if err != nil {
		return failedErrorf("serve: %v", err)
	}
	defer dlog.close()
	var h *host.Host // set before anything can scrape the metrics
	m := metrics.New(metrics.Options{DecisionLogDropped: dlog.dropped,
		LoadProblems: func() int { return len(opts.audited(h).Status().Problems) }})
	h, err = opts.openServedHost(ctx, logger, m, dlog)
	if err != nil {
		return err
	}
	defer h.Close()
	ln, err := server.Listen(opts.HTTP)
	if err != nil {
		return failedErrorf("serve: %v", err)
	}
	defer ln.Close()
	srv, err := server.New(opts.serverOptions(opts.audited(h), m.Handler(metricsError), token, logger))
	if err != nil {
		return failedErrorf("serve: %v", err)
	}
	logger.Info("listening on "+listenURL(ln.Addr().Network(), ln.Addr().String()), "addr", ln.Addr().String(),
		"dir", opts.Dir, "config", opts.configNote(), "token", token != "", "generation", h.Status().Generation)
	return serveUntilDone(ctx, srv, ln, h, dlog, opts.hangups, opts.stops, logger)
}

// serverOptions are the server's options from serve's.
func (o *serveOptions) serverOptions(backend server.Backend, metrics http.Handler, token string, logger *slog.Logger) server.Options {
	queue := o.FireQueue
	if queue == 0 {
		queue = -1 // the server's zero means its default; --fire-queue 0 means none
	}
	return server.Options{Backend: backend, Metrics: metrics, Token: token, MaxBody: o.MaxBody, IdleExit: o.IdleExit,
		ShutdownTimeout: o.ShutdownTimeout, Logger: logger, MaxConns: o.MaxConnections, MaxFires: o.MaxFires, FireQueue: queue,
		RequestTimeout: o.RequestTimeout, IdleTimeout: o.IdleTimeout, RequestMemory: o.MaxRequestMemory,
		Agents: commandDialects()}
}

// serveUntilDone serves, hot-reloading, and rescanning and reopening the
// decision log on each hangup, until the server returns. ctx ending (the
// first SIGTERM or SIGINT) drains; the second signal on stops cancels
// the fires in flight at once.
func serveUntilDone(ctx context.Context, srv *server.Server, ln net.Listener, h *host.Host, dlog *decisions,
	hangups, stops <-chan os.Signal, logger *slog.Logger) error {
	bg, stop := context.WithCancel(ctx)
	served := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { onHangups(bg, hangups, h, dlog, logger) })
	wg.Go(func() { watch(bg, h, logger) })
	wg.Go(func() { onStops(served, stops, srv, logger) })
	err := srv.Serve(ctx, ln)
	close(served)
	stop()
	wg.Wait()
	if err != nil {
		return failedErrorf("serve: %v", err)
	}
	logger.Info("stopped")
	return nil
}

// onStops counts the stop signals until served is closed: the first one
// drains (the command's context ends with it), the second aborts the
// drain, cancelling the fires still running.
func onStops(served <-chan struct{}, stops <-chan os.Signal, srv *server.Server, logger *slog.Logger) {
	n := 0
	for {
		select {
		case <-served:
			return
		case sig, ok := <-stops:
			if !ok {
				return
			}
			if n++; n == 1 {
				logger.Info("draining: a second SIGTERM or SIGINT cancels the fires in flight at once", "signal", sig.String())
				continue
			}
			logger.Warn("a second stop signal: cancelling the fires in flight at once", "signal", sig.String())
			srv.Abort()
		}
	}
}

// watch hot-reloads the directory and the config until ctx ends. If the
// watcher cannot run, serve goes on without it (SIGHUP still rescans).
func watch(ctx context.Context, h *host.Host, logger *slog.Logger) {
	if err := h.Watch(ctx); err != nil {
		logger.Error("hot reload is off: the hooks directory cannot be watched; send SIGHUP to rescan", "error", err)
	}
}

// onHangups reopens the decision log, releases every quarantined hook
// and then rescans, on every SIGHUP.
// The reopen comes first so that the rescan's report (the "reloaded"
// line with trigger=signal) also says the reopen is done: a fire that
// finished before the reopen is in the old file, one that starts after
// the report is in the new file, and a fire in flight during the reopen
// is written whole to one of them.
func onHangups(ctx context.Context, hangups <-chan os.Signal, h *host.Host, dlog *decisions, logger *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-hangups:
			if !ok {
				return
			}
			logger.Info("SIGHUP: reopening the decision log, releasing every quarantined hook and rescanning the hooks directory")
			if err := dlog.reopen(); err != nil {
				logger.Error("decision log: reopening", "error", err)
			}
			if ids := h.ReleaseAll(); len(ids) > 0 {
				logger.Info("SIGHUP: released from quarantine", "hooks", strings.Join(ids, ","))
			}
			h.Rescan(ctx, host.TriggerSignal) // the report goes to the observers
		}
	}
}

// metricsError answers a scrape whose gathering failed, as JSON like
// every other error of the API.
func metricsError(w http.ResponseWriter, err error) {
	server.WriteError(w, http.StatusInternalServerError, err)
}

// listenURL is how the log names the address.
func listenURL(network, addr string) string {
	if network == "unix" {
		return server.UnixPrefix + addr
	}
	return "http://" + addr
}

// decisions is the optional decision log.
type decisions struct{ log *decisionlog.Log }

func (o *serveOptions) openDecisionLog(stdout io.Writer, logger *slog.Logger) (*decisions, error) {
	dopts := decisionlog.Options{Payload: o.DecisionLogPayload, Logger: logger}
	switch o.DecisionLog {
	case "":
		return &decisions{}, nil
	case "-":
		return &decisions{decisionlog.New(stdout, dopts)}, nil
	}
	l, err := decisionlog.Open(o.DecisionLog, dopts)
	if err != nil {
		return nil, err
	}
	return &decisions{l}, nil
}

func (d *decisions) observer() host.Observer {
	if d.log == nil {
		return nil
	}
	return d.log
}

func (d *decisions) dropped() uint64 {
	if d.log == nil {
		return 0
	}
	return d.log.Dropped()
}

func (d *decisions) reopen() error {
	if d.log == nil {
		return nil
	}
	return d.log.Reopen()
}

func (d *decisions) close() {
	if d.log != nil {
		d.log.Close()
	}
}
