package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
)

// serverOptions are the adapters' --server flags.
type serverOptions struct {
	// Server is a running hookhost serve to fire through: a URL, unix:PATH
	// or "auto"; empty loads the hooks in this process.
	Server string
	// AutoIdleExit is how long a server started by --server auto waits
	// for a request before it exits.
	AutoIdleExit time.Duration
	// Timeout bounds each request to the server, from connecting to the
	// answer: a server that accepts and then hangs counts as unavailable.
	Timeout time.Duration
}

func (s *serverOptions) serverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "server", Destination: &s.Server, EnvVars: []string{"HOOKHOST_SERVER"},
			Usage: "fire through a running hookhost serve at `URL`: http://HOST:PORT, unix:PATH, or auto (start one per user); " +
				"$HOOKHOST_TOKEN is proven over TCP, never sent, and a server that fails authentication is a failure"},
		&cli.DurationFlag{Name: "auto-idle-exit", Value: adapter.AutoIdleExit, Destination: &s.AutoIdleExit,
			EnvVars: []string{"HOOKHOST_AUTO_IDLE_EXIT"}, Usage: "a server started by --server auto exits after `DURATION` without requests"},
		&cli.DurationFlag{Name: "server-timeout", Value: adapter.RequestTimeout, Destination: &s.Timeout,
			EnvVars: []string{"HOOKHOST_SERVER_TIMEOUT"}, Usage: "a server that has not answered within `DURATION` counts as unavailable"},
	}
}

func (s *serverOptions) validateServer() error {
	if s.AutoIdleExit <= 0 {
		return usageErrorf("--auto-idle-exit %s: want a positive duration", s.AutoIdleExit)
	}
	if s.Timeout <= 0 {
		return usageErrorf("--server-timeout %s: want a positive duration", s.Timeout)
	}
	return nil
}

// connect is the Firer of --server for the hooks directory dir and the
// config cfg (absolute): the server, and local (the hooks loaded in this
// process, which fail closed at guard events on their own) when it does
// not answer. A server that fails authentication never falls back.
func (s *serverOptions) connect(ctx context.Context, dir, cfg string, logw io.Writer,
	local func(context.Context) (adapter.Firer, error)) (adapter.Firer, error) {
	if s.Server == "auto" {
		return s.autoServer(ctx, dir, cfg, logw, local)
	}
	r, err := adapter.NewRemote(s.Server, strings.TrimSpace(os.Getenv(tokenEnv)))
	if err != nil {
		return nil, err
	}
	r.Timeout, r.Log = s.Timeout, logw
	return &adapter.Fallback{Primary: reportingProblems{r, logw}, Local: local, Log: logw}, nil
}

// autoServer is --server auto: the user's server for this directory and
// config, started in the background when it does not answer; the hooks
// loaded in this process when that fails.
func (s *serverOptions) autoServer(ctx context.Context, dir, cfg string, logw io.Writer,
	local func(context.Context) (adapter.Firer, error)) (adapter.Firer, error) {
	sock, err := adapter.AutoSocket(dir, cfg)
	if err != nil {
		fmt.Fprintf(logw, "hookhost: --server auto: %v; loading the hooks in this process\n", err)
		return local(ctx)
	}
	r, err := adapter.NewRemote("unix:"+sock, "")
	if err != nil {
		return nil, err
	}
	r.Timeout = s.Timeout
	start := func(ctx context.Context) error {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		return adapter.StartServer(ctx, adapter.ServerCommand{Exe: exe, Socket: sock, Dir: dir, Config: cfg,
			IdleExit: s.AutoIdleExit, Env: withoutEnv(os.Environ(), tokenEnv)})
	}
	own := adapter.OwnServer{Firer: adapter.Starting{Firer: r, Start: start}}
	return &adapter.Fallback{Primary: reportingProblems{own, logw}, Local: local, Log: logw}, nil
}

// withoutEnv is env less the variable name: the auto server must not
// inherit the token that $HOOKHOST_TOKEN gives a server the user runs,
// since its own clients send none (its socket's private directory is
// its door).
func withoutEnv(env []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
}

// reportingProblems writes the load problems a server's answer carries
// to the log, one a line, as the in-process host's are.
type reportingProblems struct {
	adapter.Firer
	log io.Writer
}

// Fire implements adapter.Firer.
func (r reportingProblems) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	res, err := r.Firer.Fire(ctx, event, payload)
	for _, p := range res.Problems {
		fmt.Fprintln(r.log, p)
	}
	return res, err
}
