package main

import (
	"context"
	"log/slog"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/metrics"
	"github.com/hookhost/hookhost/host"
)

// openServedHost loads the config and the scripts; the host reports to
// the metrics, the decision log, serve's log and the config audit
// (o.audit, which audited then uses).
func (o *serveOptions) openServedHost(ctx context.Context, logger *slog.Logger, m *metrics.Metrics, dlog *decisions) (*host.Host, error) {
	o.audit = newConfigAudit(o.Config, logger)
	notes := newHookNotes(logger)
	h, err := host.New(ctx, host.Options{Dir: o.Dir, ConfigPath: o.Config, Strict: o.Strict, Logger: logger,
		Observer: host.Observers(m, logObserver{logger: logger}, dlog.observer(), o.audit, notes), OpenState: openState(m)})
	if err != nil {
		return nil, configError(err)
	}
	o.audit.start(h)
	notes.start(h)
	return h, nil
}

// audited is h as the server and the metrics see it: its status lists
// the config entries that match nothing among its problems.
func (o *serveOptions) audited(h *host.Host) auditedHost { return auditedHost{Host: h, audit: o.audit} }
