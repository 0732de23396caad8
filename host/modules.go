package host

import (
	"log/slog"
	"time"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/state"
	"github.com/hookhost/hookhost/stdlib/std"
)

// modules is the set of modules scripts may load: the standard ones,
// then the embedder's, a later module replacing an earlier one of the
// same name.
func modules(opts Options, logger *slog.Logger, now func() time.Time, store state.Backend) []stdlib.Module {
	all := append(standardModules(logger, now, store), opts.Modules...)
	index := map[string]int{}
	var out []stdlib.Module
	for _, m := range all {
		if i, ok := index[m.Name]; ok {
			out[i] = m
			continue
		}
		index[m.Name] = len(out)
		out = append(out, m)
	}
	return out
}

// standardModules are the modules of package std, with the host's
// logger, clock and state backend (nil: a memory store of its own).
func standardModules(logger *slog.Logger, now func() time.Time, store state.Backend) []stdlib.Module {
	return std.Modules(std.Options{Now: now, Logger: logger, Backend: store})
}
