package main

import (
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/hookhost/hookhost/host"
)

// A hookNotes logs, once each, what check warns of and notes about the
// hooks serve runs (paramWarnings, failOpenNotes): at start and after
// every reload that brings a new one. Nothing here changes what serves.
type hookNotes struct {
	host.NopObserver // for fires and quarantines
	logger           *slog.Logger
	host             atomic.Pointer[host.Host]

	mu     sync.Mutex
	logged map[string]bool // the lines logged, kept while they hold
}

var _ host.Observer = (*hookNotes)(nil)

func newHookNotes(logger *slog.Logger) *hookNotes {
	return &hookNotes{logger: logger, logged: map[string]bool{}}
}

// start notes h's first load; later reloads are noted as reported.
func (n *hookNotes) start(h *host.Host) {
	n.host.Store(h)
	n.note(h)
}

// ReloadDone notes the hooks of a published snapshot (the first load is
// noted by start, once the host exists).
func (n *hookNotes) ReloadDone(r host.ReloadReport) {
	if h := n.host.Load(); h != nil && r.Published {
		n.note(h)
	}
}

// note logs the lines that hold now and were not logged while they held
// before: a hook fixed and broken again is noted again.
func (n *hookNotes) note(h *host.Host) {
	hooks, events := h.Hooks(), h.Events()
	n.mu.Lock()
	defer n.mu.Unlock()
	now := map[string]bool{}
	for _, w := range paramWarnings(hooks, events) {
		now[w] = true
		if !n.logged[w] {
			n.logger.Info("hook parameter names no field of its event nor of any agent's payload", "note", w)
		}
	}
	for _, w := range failOpenNotes(hooks, events) {
		now[w] = true
		if !n.logged[w] {
			n.logger.Info("hook that could deny fails open", "note", w)
		}
	}
	n.logged = now
}
