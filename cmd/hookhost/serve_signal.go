package main

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyHangup delivers SIGHUP on the channel until stop is called.
func notifyHangup() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	return ch, func() { signal.Stop(ch) }
}

// notifyStop delivers SIGTERM and SIGINT on the channel until stop is
// called, besides ending the command's context (main's
// signal.NotifyContext): serve counts them, the second cancels the
// drain.
func notifyStop() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGTERM, os.Interrupt)
	return ch, func() { signal.Stop(ch) }
}
