package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/hookhost/hookhost/host/isolate"
)

func main() {
	// The worker processes of isolated files are this binary too.
	isolate.RunWorkerIfRequestedWith(workerOptions())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runMain(ownProcess(ctx), os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// processKey marks the context of a command that runs in a process of
// its own (main's), where tuning the Go runtime for that one command
// (applyOneShotGC) touches nothing else. runMain run inside a longer-lived
// process, as the tests run it, leaves the runtime as it is.
type processKey struct{}

// ownProcess is ctx marked as main's (see processKey).
func ownProcess(ctx context.Context) context.Context {
	return context.WithValue(ctx, processKey{}, true)
}

// ownsProcess reports whether ctx is main's (see processKey).
func ownsProcess(ctx context.Context) bool {
	own, _ := ctx.Value(processKey{}).(bool)
	return own
}
