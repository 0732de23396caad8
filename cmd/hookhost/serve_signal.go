package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/hookhost/hookhost/host"
)

// notifyHangup delivers SIGHUP on the channel until stop is called.
func notifyHangup() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	return ch, func() { signal.Stop(ch) }
}

// releaseAll lifts every quarantine and returns the ids it released.
// It loops over the quarantined ids until host.Host has a ReleaseAll of
// its own; then it should call that (one pass, under the host's lock).
func releaseAll(h *host.Host) []string {
	var out []string
	for _, id := range h.Quarantined() {
		if h.Release(id) {
			out = append(out, id)
		}
	}
	return out
}
