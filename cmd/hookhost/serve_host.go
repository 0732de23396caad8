package main

import (
	"context"
	"log/slog"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/metrics"
	"github.com/hookhost/hookhost/host"
)

// openServedHost loads the config and the scripts; the host reports to
// the metrics, the decision log and serve's log.
func (o *serveOptions) openServedHost(ctx context.Context, logger *slog.Logger, m *metrics.Metrics, dlog *decisions) (*host.Host, error) {
	h, err := host.New(ctx, host.Options{Dir: o.Dir, ConfigPath: o.Config, Strict: o.Strict, Logger: logger,
		Observer: host.Observers(m, logObserver{logger}, dlog.observer()), OpenState: openState(m)})
	if err != nil {
		return nil, configError(err)
	}
	return h, nil
}
