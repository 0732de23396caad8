package main

import (
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
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

// options are the server options for the hooks directory dir and the
// config cfg (as given: adapter.NewConnector makes them absolute).
func (s *serverOptions) options(dir, cfg string, logw io.Writer) adapter.ServerOptions {
	opts := adapter.ServerOptions{Server: s.Server, Token: strings.TrimSpace(os.Getenv(tokenEnv)), Timeout: s.Timeout,
		AutoIdleExit: s.AutoIdleExit, Dir: dir, Config: cfg, Log: logw}
	if s.Server == "auto" {
		opts.AutoEnv = withoutEnv(os.Environ(), tokenEnv)
	}
	return opts
}

// withoutEnv is env less the variable name: the auto server must not
// inherit the token that $HOOKHOST_TOKEN gives a server the user runs,
// since its own clients send none (its socket's private directory is
// its door).
func withoutEnv(env []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
}
