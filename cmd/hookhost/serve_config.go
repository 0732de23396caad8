package main

import (
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hookhost/hookhost/host"
)

// A configAudit keeps serve's list of the config's hooks entries that
// match no file or hook (unmatchedConfig), checked again after every
// reload, since an edit of a script or of the config can make an entry
// match or stop matching. It logs each entry when it starts matching
// nothing, and /v1/status lists them among its problems (auditedHost).
// The host reads the config itself (it hot-reloads it), so the audit
// reads the file again after each reload that found it good; while an
// edit of it fails, the last good one stays live, for the host and here.
type configAudit struct {
	host.NopObserver // for fires and quarantines
	path             string
	logger           *slog.Logger
	host             atomic.Pointer[host.Host]

	mu       sync.Mutex
	cfg      *host.Config // the last good config read
	problems []string     // file:line: message, one an entry
}

var _ host.Observer = (*configAudit)(nil)

func newConfigAudit(path string, logger *slog.Logger) *configAudit {
	return &configAudit{path: path, logger: logger}
}

// start checks the config against h's first load; later reloads are
// checked as they are reported.
func (a *configAudit) start(h *host.Host) {
	a.host.Store(h)
	a.check(h, true)
}

// ReloadDone checks again (the reload of host.New is checked by start,
// once the host exists).
func (a *configAudit) ReloadDone(r host.ReloadReport) {
	if h := a.host.Load(); h != nil && r.Err == nil {
		a.check(h, r.Config.Err == nil)
	}
}

// check compares the config with the hooks h serves, reading the config
// file again when reread.
func (a *configAudit) check(h *host.Host, reread bool) {
	if a.path == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if reread {
		if cfg, err := host.LoadConfig(a.path); err == nil {
			a.cfg = cfg
		}
	}
	var now []string
	for _, err := range unmatchedConfig(a.cfg, h.Files(), h.Hooks(), nil) {
		line := err.Error()
		now = append(now, line)
		if !slices.Contains(a.problems, line) {
			a.logger.Warn("config entry matches no hook file or hook; it configures nothing", "problem", line)
		}
	}
	a.problems = now
}

// lines are the entries that match nothing now.
func (a *configAudit) lines() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.problems)
}

// An auditedHost is the host as serve's server sees it: its status's
// problems include the config entries that match nothing.
type auditedHost struct {
	*host.Host
	audit *configAudit
}

// Status is the host's status with the audit's problems added.
func (h auditedHost) Status() host.Status {
	st := h.Host.Status()
	if extra := h.audit.lines(); len(extra) > 0 {
		st.Problems = append(slices.Clone(st.Problems), extra...)
	}
	return st
}
