package adapter

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
	"github.com/hookhost/hookhost/host"
)

// "--server auto": one "hookhost serve" per user and hooks directory,
// on a Unix socket in a directory only the user can enter, started in
// the background by the first command hook that finds none and exiting
// by itself when idle. State (the state module: counters, rate limits)
// then lives across the command hooks' processes.

// AutoIdleExit is how long an automatically started server waits for a
// request before it exits.
const AutoIdleExit = 10 * time.Minute

// AutoStartWait bounds the wait for a server just started to answer.
const AutoStartWait = 2 * time.Second

// AutoSocket is the socket of the server for the hooks directory dir and
// the config file config (both absolute; config may be empty), in a
// directory only the user can enter (see package autosock, which
// hookhost-hook shares).
func AutoSocket(dir, config string) (string, error) {
	return autosock.Path(dir, config)
}

// privateDir makes sure dir exists, is a directory (not a symlink), is
// owned by this user and is closed to everyone else.
func privateDir(dir string) error { return autosock.PrivateDir(dir) }

// Answers reports whether something accepts connections on the socket.
func Answers(sock string) bool {
	c, err := net.DialTimeout("unix", sock, ConnectTimeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// A ServerCommand is the server that --server auto starts.
type ServerCommand struct {
	// Exe is hookhost's own executable.
	Exe string
	// Socket is where it listens (AutoSocket).
	Socket string
	// Dir and Config are the hooks directory and the config file (may be
	// empty), absolute.
	Dir, Config string
	// IdleExit is how long it waits for a request before it exits; zero
	// means AutoIdleExit.
	IdleExit time.Duration
	// Env is the server's environment; nil inherits this process's. The
	// caller leaves out what would make the server want a token its
	// clients do not send: the socket's private directory is the door.
	Env []string
}

// StartServer starts s.Exe as "serve" on s.Socket, detached from this
// process (its own session, stdin closed, its log appended to the
// socket's name with .log), and waits until it answers, at most
// AutoStartWait. Several command hooks may start one at once: every
// server but the first finds the socket taken and exits, and every
// waiter sees the first.
func StartServer(ctx context.Context, s ServerCommand) error {
	idle := s.IdleExit
	if idle <= 0 {
		idle = AutoIdleExit
	}
	// --strict: the agents' guard events deny while a file has no good
	// version, as they fail closed when the hooks load in the agent's
	// own process.
	args := []string{"serve", "--http", "unix:" + s.Socket, "--idle-exit", idle.String(), "--dir", s.Dir, "--strict"}
	if s.Config != "" {
		args = append(args, "--config", s.Config)
	}
	sock := s.Socket
	logf, err := os.OpenFile(sock[:len(sock)-len(filepath.Ext(sock))]+".log", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(s.Exe, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = s.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting hookhost serve: %w", err)
	}
	cmd.Process.Release()
	return waitFor(ctx, sock)
}

func waitFor(ctx context.Context, sock string) error {
	deadline := time.Now().Add(AutoStartWait)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		if Answers(sock) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("hookhost serve did not answer on %s within %s", sock, AutoStartWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// Starting fires through Firer, and when no server accepts, runs Start
// (StartServer) and tries once more. A server that cannot be started is
// ErrUnavailable, so that a Fallback around it loads the hooks instead.
type Starting struct {
	Firer
	Start func(ctx context.Context) error
}

// Fire implements Firer.
func (s Starting) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	res, err := s.Firer.Fire(ctx, event, payload)
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNoAnswer) || errors.Is(err, ErrBusy) {
		return res, err // a server that accepted and hung, or is busy, runs: starting another cannot help
	}
	if serr := s.Start(ctx); serr != nil {
		return host.Result{}, fmt.Errorf("%w: %w", ErrUnavailable, serr)
	}
	return s.Firer.Fire(ctx, event, payload)
}

// OwnServer fires through the server that --server auto started. That
// server is this user's own, behind a directory only the user can enter,
// and runs without a token; one that answers 401 anyway was started with
// one (by an older hookhost that let it inherit $HOOKHOST_TOKEN), and
// its refusal is no impostor's: it counts as unavailable, so that a
// Fallback loads the hooks in this process instead.
type OwnServer struct{ Firer }

// Fire implements Firer.
func (o OwnServer) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	res, err := o.Firer.Fire(ctx, event, payload)
	if errors.Is(err, ErrUnauthorized) {
		return res, fmt.Errorf("%w: the server --server auto started refuses its clients (%v): it was started with a token",
			ErrUnavailable, err)
	}
	return res, err
}
