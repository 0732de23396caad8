package adapter

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/eventcache"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/scripting"
)

// ServerOptions say which running hookhost serve a command fires
// through (--server and its flags).
type ServerOptions struct {
	// Server is a URL, unix:PATH or "auto" (the user's own server for Dir
	// and Config, started when it does not answer); empty means none.
	Server string
	// Token is proven to a server over TCP, never sent ($HOOKHOST_TOKEN).
	Token string
	// Timeout bounds each request, from connecting to the answer.
	Timeout time.Duration
	// AutoIdleExit is how long a server started for "auto" waits for a
	// request before it exits, and AutoEnv its environment.
	AutoIdleExit time.Duration
	AutoEnv      []string
	// Dir and Config are the hooks directory and the config ("" for
	// none): "auto" names its server by them, and starts it with them.
	Dir, Config string
	// Log receives the server's load problems and the fallback's note.
	Log io.Writer
}

// ServerFirer is the Firer of a server: the server, and the Firer local
// opens (the hooks loaded in this process, which fail closed at guard
// events on their own) when it is unavailable. A server that fails
// authentication never falls back. For "auto", a server that cannot be
// named (no private runtime directory) means local at once.
func ServerFirer(ctx context.Context, opts ServerOptions, local func(context.Context) (Firer, error)) (Firer, error) {
	if opts.Server != "auto" {
		r, err := NewRemote(opts.Server, opts.Token)
		if err != nil {
			return nil, err
		}
		r.Timeout, r.Log = opts.Timeout, opts.Log
		return &Fallback{Primary: reportingProblems{r, opts.Log}, Local: local, Log: opts.Log}, nil
	}
	sock, err := AutoSocket(opts.Dir, opts.Config)
	if err != nil {
		fmt.Fprintf(opts.Log, "hookhost: --server auto: %v; loading the hooks in this process\n", err)
		return local(ctx)
	}
	r, err := NewRemote("unix:"+sock, "")
	if err != nil {
		return nil, err
	}
	r.Timeout = opts.Timeout
	start := func(ctx context.Context) error {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		return StartServer(ctx, ServerCommand{Exe: exe, Socket: sock, Dir: opts.Dir, Config: opts.Config,
			IdleExit: opts.AutoIdleExit, Env: opts.AutoEnv})
	}
	own := OwnServer{Firer: Starting{Firer: r, Start: start}}
	return &Fallback{Primary: reportingProblems{own, opts.Log}, Local: local, Log: opts.Log}, nil
}

// reportingProblems writes the load problems a server's answer carries
// to the log, one a line, as the in-process host's are.
type reportingProblems struct {
	Firer
	log io.Writer
}

// Fire implements Firer.
func (r reportingProblems) Fire(ctx context.Context, event string, payload map[string]any) (host.Result, error) {
	res, err := r.Firer.Fire(ctx, event, payload)
	for _, p := range res.Problems {
		fmt.Fprintln(r.log, p)
	}
	return res, err
}

// A Load is how the hooks load in this process for one call.
type Load struct {
	// Strict loads in strict mode: at a guard event, unless failing open.
	Strict bool
	// FS, when set, serves the scripts instead of the hooks directory:
	// the files the call's event needs (the event cache's view).
	FS fs.FS
	// Programs, when set, keeps compiled programs across runs.
	Programs scripting.ProgramCache
	// Hidden are the script files FS leaves out, which a config entry
	// may name though the host does not see them.
	Hidden []string
}

// ConnectOptions configure NewConnector: how a command hook fires.
type ConnectOptions struct {
	// Server is the server to fire through; Server.Server empty fires in
	// this process. Its Dir and Config are made absolute here.
	Server ServerOptions
	// FailOpen lets hooks that are not fit to guard decide a guard event
	// (they load without strict mode).
	FailOpen bool
	// EventCache is the event cache file; empty for none.
	EventCache string
	// CacheSalt is what a file's registrations depend on besides its
	// source (the config, the executable); asked only with EventCache.
	CacheSalt func() []byte
	// Load loads the hooks in this process as l says.
	Load func(ctx context.Context, l Load) (*host.Host, error)
	// GuardProblems is why hooks h loaded must not decide a guard event;
	// nil when they may.
	GuardProblems func(h *host.Host) error
}

// NewConnector is how a command hook fires: through the server of
// opts.Server, with the hooks loaded in this process as the fallback, or
// without a server through those hooks alone. Loaded here, they load
// only the files the call's event needs when the event cache knows the
// others, and at a guard event (unless FailOpen) in strict mode, and
// must be fit to guard: a one-shot process has no last good version of a
// file that failed to load, and without it the file's guards would
// simply be missing.
func NewConnector(opts ConnectOptions) Connector {
	return func(ctx context.Context, call Call) (Firer, error) {
		local := func(ctx context.Context) (Firer, error) {
			h, err := opts.loadFor(ctx, call)
			if err != nil {
				return nil, err // not a nil *host.Host in an interface, which Close would call
			}
			return h, nil
		}
		if opts.Server.Server == "" {
			return local(ctx)
		}
		server := opts.Server
		var err error
		if server.Dir, err = filepath.Abs(server.Dir); err != nil {
			return nil, fmt.Errorf("--dir: %v", err)
		}
		if server.Config != "" {
			if server.Config, err = filepath.Abs(server.Config); err != nil {
				return nil, fmt.Errorf("--config: %v", err)
			}
		}
		return ServerFirer(ctx, server, local)
	}
}

// loadFor loads the hooks for call (see NewConnector).
func (o ConnectOptions) loadFor(ctx context.Context, call Call) (*host.Host, error) {
	guard := call.Guard && !o.FailOpen
	h, err := o.loadForEvent(ctx, call.Event, guard)
	if err != nil || !guard {
		return h, err
	}
	if err := o.GuardProblems(h); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// loadForEvent loads the hooks, compiling only the files whose hooks can
// fire for event when the event cache knows the others, and the others
// from the programs it keeps when it has them (see package eventcache),
// and teaches the cache what this load learnt.
func (o ConnectOptions) loadForEvent(ctx context.Context, event string, strict bool) (*host.Host, error) {
	l := Load{Strict: strict}
	cache, plan, ok, release := o.plan(event)
	defer release()
	if ok {
		l.FS, l.Programs, l.Hidden = plan.FS, cache.Programs(plan), plan.Hidden
	}
	h, err := o.Load(ctx, l)
	if err != nil || !ok {
		return h, err
	}
	cache.Learn(plan, h.Files(), h.Hooks())
	cache.Save() // best effort: a cache that cannot be written only costs time
	return h, nil
}

// plan opens the event cache and plans the directory's view for event;
// ok is false when there is no cache or the directory cannot be read
// (then the host loads the directory itself and reports what is wrong).
// The view holds the directory open, for the plan and the load, until
// release (see host.HoldDirFS).
func (o ConnectOptions) plan(event string) (_ *eventcache.Cache, _ eventcache.Plan, ok bool, release func()) {
	if o.EventCache == "" {
		return nil, eventcache.Plan{}, false, func() {}
	}
	cache := eventcache.Open(o.EventCache)
	dir := host.DirFS(o.Server.Dir)
	release = host.HoldDirFS(dir)
	plan, err := cache.Plan(dir, o.CacheSalt(), event, host.IsScript)
	if err != nil {
		release()
		return nil, eventcache.Plan{}, false, func() {}
	}
	return cache, plan, true, release
}
