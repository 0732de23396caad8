// Package std assembles the standard modules hook scripts can load —
// json, re, path, shell, tool, setting, time, log and state — for one host.
//
// Modules are built once per host with the host-wide resources they
// need: the clock (time, state), the logger (log) and the shared state
// store. They are immutable afterwards and shared by every script.
package std

import (
	"log/slog"
	"time"

	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/json"
	hhlog "github.com/hookhost/hookhost/stdlib/log"
	"github.com/hookhost/hookhost/stdlib/path"
	"github.com/hookhost/hookhost/stdlib/re"
	"github.com/hookhost/hookhost/stdlib/setting"
	"github.com/hookhost/hookhost/stdlib/shell"
	"github.com/hookhost/hookhost/stdlib/state"
	hhtime "github.com/hookhost/hookhost/stdlib/time"
	"github.com/hookhost/hookhost/stdlib/tool"
)

// Options are the host-wide resources of the standard modules.
type Options struct {
	// Now is the clock of the time and state modules; nil means time.Now.
	Now func() time.Time
	// Logger receives the log module's records; nil discards them.
	Logger *slog.Logger
	// Store is the state module's store, shared by all hooks of a host;
	// nil means a new store with default limits.
	Store *state.Store
	// Backend, when set, is the state module's store instead of Store:
	// one that several processes share (package redisstate).
	Backend state.Backend
}

// Modules returns the standard modules, in documentation order.
func Modules(opts Options) []stdlib.Module {
	if opts.Backend == nil {
		if opts.Store == nil {
			opts.Store = state.NewStore(state.Limits{}, opts.Now)
		}
		opts.Backend = state.Memory(opts.Store)
	}
	return []stdlib.Module{
		json.New(),
		re.New(),
		path.New(),
		shell.New(),
		tool.New(),
		setting.New(),
		hhtime.New(opts.Now),
		hhlog.New(opts.Logger),
		state.NewOver(opts.Backend),
	}
}
