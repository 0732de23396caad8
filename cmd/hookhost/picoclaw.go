package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/picoclaw"
	"github.com/hookhost/hookhost/host"
)

// picoclawOptions are the options of hookhost picoclaw.
type picoclawOptions struct {
	commonOptions
	serverOptions
	// FailOpen answers hookhost's own failures at before_tool with
	// continue rather than deny_tool (approve_tool denies either way).
	FailOpen bool
	// The timeouts PicoClaw is configured with (its hooks.defaults);
	// hookhost answers each stage before its timeout ends.
	InterceptorTimeout time.Duration
	ApprovalTimeout    time.Duration
	ObserverTimeout    time.Duration
}

func newPicoclawCommand() *cli.Command {
	opts := &picoclawOptions{}
	return &cli.Command{
		Name:      "picoclaw",
		Usage:     "run as a PicoClaw process hook (JSON-RPC on stdin and stdout)",
		UsageText: "hookhost picoclaw [--dir DIR] [--config FILE] [--server URL] [--fail-open] [--interceptor-timeout D] [--approval-timeout D]",
		Description: "Speaks PicoClaw's process-hook protocol: JSON-RPC 2.0, one object per line, on stdin and\n" +
			"stdout, until stdin ends. The hooks directory is loaded in the background and reloaded when\n" +
			"it changes. Set the timeouts to PicoClaw's hooks.defaults so that hookhost ends a slow chain\n" +
			"before PicoClaw gives up on it. With --server, calls fire through a running hookhost serve\n" +
			"(shared state with other agents), and through the hooks loaded here when it does not answer.\n" +
			"When hookhost itself fails (hooks that cannot be loaded, a file among them that failed to load\n" +
			"or registers no hooks, a request that does not decode, a fire that fails) before_tool answers\n" +
			"deny_tool and approve_tool a denial; --fail-open makes before_tool answer continue instead.\n" +
			"With no tool.approve hook, approve_tool approves every tool. See docs/integrations/picoclaw.md.",
		Flags: append(append(opts.flags(), opts.serverFlags()...),
			&cli.BoolFlag{Name: "fail-open", Destination: &opts.FailOpen,
				Usage: "answer continue at before_tool when hookhost itself fails, rather than deny_tool"},
			&cli.DurationFlag{Name: "interceptor-timeout", Value: picoclaw.DefaultInterceptorTimeout,
				Destination: &opts.InterceptorTimeout, Usage: "PicoClaw's interceptor_timeout_ms, as a `DURATION`"},
			&cli.DurationFlag{Name: "approval-timeout", Value: picoclaw.DefaultApprovalTimeout,
				Destination: &opts.ApprovalTimeout, Usage: "PicoClaw's approval_timeout_ms, as a `DURATION`"},
			&cli.DurationFlag{Name: "observer-timeout", Value: picoclaw.DefaultObserverTimeout,
				Destination: &opts.ObserverTimeout, Usage: "PicoClaw's observer_timeout_ms, as a `DURATION`"}),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usageErrorf("picoclaw: want no arguments, got %q", c.Args().First())
			}
			if err := opts.validate(); err != nil {
				return err
			}
			return runPicoclaw(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (o *picoclawOptions) validate() error {
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"--interceptor-timeout", o.InterceptorTimeout}, {"--approval-timeout", o.ApprovalTimeout}, {"--observer-timeout", o.ObserverTimeout}} {
		if t.d < 200*time.Millisecond {
			return usageErrorf("%s %s: want at least 200ms", t.name, t.d)
		}
	}
	if err := o.validateServer(); err != nil {
		return err
	}
	return o.commonOptions.validate()
}

// runPicoclaw serves PicoClaw until stdin ends. The hooks load in the
// background: the handshake is answered at once whatever their state.
func runPicoclaw(ctx context.Context, opts *picoclawOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// PicoClaw reads stderr when it likes: no answer may wait for a log.
	logs := adapter.NewLogQueue(stderr, 4096)
	defer logs.Close(time.Second)
	stderr = logs
	strict := opts.commonOptions.withLoad(adapter.Load{Strict: !opts.FailOpen}) // hooks fit to guard, unless --fail-open
	hosts := &hostLoader{open: func(ctx context.Context) (*host.Host, error) { return strict.openHost(ctx, stderr) },
		logger: newLogger(stderr, opts.level), retry: 2 * time.Second}
	defer hosts.close()
	firer := opts.guarded(hosts.firer)
	if opts.Server == "" {
		hosts.start(ctx)
	} else {
		var err error
		if firer, err = opts.remoteFirer(ctx, hosts, stderr); err != nil {
			return failedErrorf("picoclaw: %v", err)
		}
	}
	d := picoclaw.Dialect{InterceptorTimeout: opts.InterceptorTimeout, ApprovalTimeout: opts.ApprovalTimeout,
		ObserverTimeout: opts.ObserverTimeout}
	err := adapter.Serve(ctx, adapter.RPCOptions{Dialect: d, Connect: firer, FailOpen: opts.FailOpen,
		Log: newLogger(stderr, opts.level)}, stdin, stdout)
	if err != nil {
		return failedErrorf("picoclaw: %v", err)
	}
	return nil
}

// remoteFirer fires through --server, with the hooks loaded here (on
// first need) as the fallback. The connection is made per call, so a
// server that comes back is used again.
func (o *picoclawOptions) remoteFirer(ctx context.Context, hosts *hostLoader, stderr io.Writer) (adapter.Connector, error) {
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	cfg := ""
	if o.Config != "" {
		if cfg, err = filepath.Abs(o.Config); err != nil {
			return nil, err
		}
	}
	local := o.guarded(func(c context.Context) (*host.Host, error) {
		hosts.start(ctx)
		return hosts.firer(c)
	})
	server := o.serverOptions.options(dir, cfg, stderr)
	return func(c context.Context, call adapter.Call) (adapter.Firer, error) {
		return adapter.ServerFirer(c, server, func(c context.Context) (adapter.Firer, error) { return local(c, call) })
	}, nil
}

// guarded fires through the hooks that load gives, which at a guard
// method (unless --fail-open) must be fit to guard (see guardProblems).
func (o *picoclawOptions) guarded(load func(context.Context) (*host.Host, error)) adapter.Connector {
	return func(ctx context.Context, call adapter.Call) (adapter.Firer, error) {
		h, err := load(ctx)
		if err != nil {
			return nil, err
		}
		if call.Guard && !o.FailOpen {
			if err := guardProblems(h); err != nil {
				return nil, err
			}
		}
		return unclosable{h}, nil
	}
}

// A hostLoader loads the hooks once in the background, watches them, and
// tries again (at most every retry) while they cannot be loaded.
type hostLoader struct {
	open   func(context.Context) (*host.Host, error)
	logger *slog.Logger
	retry  time.Duration

	once    sync.Once
	started sync.Once
	ready   chan struct{} // closed after the first attempt

	mu    sync.Mutex
	h     *host.Host
	err   error
	tried time.Time
	base  context.Context // bounds the watch of hooks loaded later
}

func (l *hostLoader) init() { l.once.Do(func() { l.ready = make(chan struct{}) }) }

// start makes the first attempt in the background, once.
func (l *hostLoader) start(ctx context.Context) {
	l.init()
	l.started.Do(func() { go l.load(ctx) })
}

// load makes the first attempt.
func (l *hostLoader) load(ctx context.Context) {
	l.init()
	l.mu.Lock()
	l.base = ctx
	l.attemptLocked(ctx)
	l.mu.Unlock()
	close(l.ready)
}

// attemptLocked opens the hooks and starts watching them.
func (l *hostLoader) attemptLocked(ctx context.Context) {
	l.tried = time.Now()
	l.h, l.err = l.open(ctx)
	if l.err != nil {
		l.logger.Error("cannot load the hooks; every call answers as hookhost's failure (before_tool and approve_tool deny)", "error", l.err)
		return
	}
	go l.watch(ctx, l.h)
}

func (l *hostLoader) watch(ctx context.Context, h *host.Host) {
	if err := h.Watch(ctx); err != nil {
		l.logger.Error("cannot watch the hooks: changes need a restart", "error", err)
	}
}

// firer returns the loaded hooks, waiting for the first attempt; its
// borrower must not close them.
func (l *hostLoader) firer(ctx context.Context) (*host.Host, error) {
	l.init()
	select {
	case <-l.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h == nil && time.Since(l.tried) >= l.retry {
		l.attemptLocked(l.base)
	}
	if l.h == nil {
		return nil, l.err
	}
	return l.h, nil
}

func (l *hostLoader) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h != nil {
		l.h.Close()
	}
}

// unclosable lends a host that its borrower must not close.
type unclosable struct{ *host.Host }

// Close leaves the host open for its owner.
func (unclosable) Close() error { return nil }
