package main

import (
	"log/slog"

	"github.com/hookhost/hookhost/host"
)

// logObserver writes what the host reports about reloads and quarantine
// to serve's log; fires go to the metrics and the decision log.
type logObserver struct {
	host.NopObserver // for FireDone
	logger           *slog.Logger
}

var _ host.Observer = logObserver{}

// ReloadDone logs the reload: each file that failed at warn (with its
// file:line error), the outcome at info, a reload that could not run at
// error.
func (l logObserver) ReloadDone(r host.ReloadReport) {
	if r.Err != nil {
		l.logger.Error("reload failed; the previous hooks keep serving", "trigger", r.Trigger,
			"generation", r.Generation, "error", r.Err)
		return
	}
	changed := 0
	for _, f := range r.Files {
		switch f.Outcome {
		case host.FileFailed:
			l.logger.Warn("hook file failed to load", "file", f.Path, "error", f.Err,
				"serving", orNone(f.Version))
		case host.FileUnchanged:
		default:
			changed++
		}
	}
	if r.Config.Err != nil && !r.Config.Unchanged {
		l.logger.Warn("config failed to load; the last good config stays live", "file", r.Config.Path, "error", r.Config.Err)
	}
	l.logger.Info("reloaded", "trigger", r.Trigger, "generation", r.Generation, "published", r.Published,
		"files_changed", changed, "ok", r.OK(), "duration", r.Duration.String())
}

// QuarantineChanged logs quarantines at warn and releases at info.
func (l logObserver) QuarantineChanged(r host.QuarantineReport) {
	if r.Quarantined {
		l.logger.Warn("hook quarantined", "hook", r.Hook)
		return
	}
	l.logger.Info("hook released from quarantine", "hook", r.Hook)
}

func orNone(version string) string {
	if version == "" {
		return "none"
	}
	return version
}
