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
	code := runMain(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
