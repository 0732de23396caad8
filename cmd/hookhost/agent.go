package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/codex"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/copilot"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/cursor"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/gemini"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/eventcache"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/initlog"
	"github.com/hookhost/hookhost/cmd/internal/autosock"
	"github.com/hookhost/hookhost/host"
)

// agentOptions are the options of the command-hook commands (claude,
// gemini, codex).
type agentOptions struct {
	commonOptions
	// FailOpen lets the agent proceed when hookhost itself fails, even at
	// the guard events, where such failures block by default.
	FailOpen bool
	// FailClosed is accepted for command lines written when failing open
	// was the default; it changes nothing.
	FailClosed bool
	serverOptions
	// PrintSettings prints the agent's configuration block and exits.
	PrintSettings bool
	// FullHook makes --print-settings --server auto print hookhost even
	// when the small command hook is installed beside it.
	FullHook bool
	// Log is where notes, logs and load problems go; empty means stderr,
	// or nowhere for agents that read stderr as an answer.
	Log string
	// Event is the agent's event, for an agent whose input does not name
	// it (adapter.Agent.EventFlag).
	Event string
	httpSettingsOptions

	dialect adapter.CommandDialect
}

// agentCommand is one agent's command: the dialect, which knows the
// agent (adapter.Agent), and the help's account of failures where the
// agent reads them its own way.
type agentCommand struct {
	dialect adapter.CommandDialect
	// failures, when set, replaces the help's account of the exit
	// statuses of hookhost's own failures (an agent that reads them its
	// own way).
	failures string
}

// agents are the command-hook commands, named by their dialects.
var agents = []agentCommand{
	{dialect: claude.Dialect{}},
	{dialect: gemini.Dialect{}},
	{dialect: codex.Dialect{}},
	{dialect: cursor.Dialect{}},
	{dialect: copilot.Dialect{}, failures: copilotFailures},
}

// copilotFailures is how hookhost copilot's failures reach Copilot CLI,
// which reads exit status 2 as a warning and any other non-zero status
// as a denial at preToolUse.
const copilotFailures = "the reason goes to stderr and, at the guard events\n" +
	"(%s), the denial is printed on stdout (Copilot's permissionDecision deny,\n" +
	"behavior deny or decision block) with exit status 2, which Copilot reads as a warning whose stdout\n" +
	"is the answer; elsewhere, and everywhere with --fail-open, nothing is printed and the exit status\n" +
	"is 1 (Copilot goes on), but 2 at preToolUse, where 1 would deny. A command line without --event,\n" +
	"or with an event Copilot does not have, exits 1."

// commandDialects are the dialects of agents, which serve answers at
// POST /v1/agents/{name} too.
func commandDialects() []adapter.CommandDialect {
	ds := make([]adapter.CommandDialect, len(agents))
	for i, a := range agents {
		ds[i] = a.dialect
	}
	return ds
}

func newAgentCommand(a agentCommand) *cli.Command {
	opts := &agentOptions{dialect: a.dialect}
	name, agent := a.dialect.Name(), a.dialect.Agent()
	logDefault := "stderr"
	if a.dialect.QuietStderr() {
		logDefault = "none: " + agent.Title + " reads stderr as an answer"
	}
	failures := "the reason goes to stderr and the exit status is 2, which blocks, at the guard events\n" +
		"(%s) and when stdin does not say which event it is;\n" +
		"1 (the agent proceeds) elsewhere, and everywhere with --fail-open."
	if a.failures != "" {
		failures = a.failures
	}
	usage := "hookhost " + name + " [--dir DIR] [--config FILE] [--server URL] [--fail-open] [--log FILE] [--print-settings]"
	flags := append(opts.flags(), opts.serverFlags()...)
	if agent.EventFlag != nil {
		usage = "hookhost " + name + " --event EVENT [--dir DIR] [--config FILE] [--server URL] [--fail-open] [--log FILE] [--print-settings]"
		flags = append(flags, &cli.StringFlag{Name: "event", Destination: &opts.Event,
			Usage: "the " + agent.Title + " event on stdin, which does not name it: `EVENT` is one of " + strings.Join(agent.EventFlag, ", ")})
	}
	return &cli.Command{
		Name:      name,
		Usage:     "answer one " + agent.Title + " command-hook event (stdin) through the hooks",
		UsageText: usage,
		Description: "Reads one " + agent.Title + " hook event as JSON on stdin, fires the hookhost event it maps to and\n" +
			"prints " + agent.Title + "'s answer on stdout: at most one JSON object, nothing when the hooks had no opinion.\n" +
			"Exit status 0 whenever it answered. When hookhost itself fails (stdin that is empty, not JSON, too\n" +
			"long or too deep; hooks that cannot be loaded, or a file among them that failed to load or\n" +
			"registers no hooks; a server that is down with no fallback or refuses; a fire that fails)\n" +
			fmt.Sprintf(failures, guardEvents(a.dialect)) + "\n" +
			"--fail-closed is accepted and changes nothing. --print-settings prints the " + agent.SettingsFile + " block\n" +
			"that runs this command for every mapped event. See docs/integrations/.",
		Flags: append(append(flags, opts.httpFlags(a.dialect)...),
			&cli.BoolFlag{Name: "fail-open", Destination: &opts.FailOpen,
				Usage: "let the agent proceed (exit 1) when hookhost itself fails, even at the guard events"},
			&cli.BoolFlag{Name: "fail-closed", Destination: &opts.FailClosed,
				Usage: "accepted and ignored: failing closed at the guard events is the default"},
			&cli.BoolFlag{Name: "print-settings", Destination: &opts.PrintSettings,
				Usage: "print the " + agent.SettingsFile + " block that wires every event to this command"},
			&cli.BoolFlag{Name: "full-hook", Destination: &opts.FullHook,
				Usage: "with --print-settings --server auto: print hookhost itself, not the small " + smallHook + " installed beside it"},
			&cli.StringFlag{Name: "log", Destination: &opts.Log,
				Usage: "append notes, logs and load problems to `FILE` (default: " + logDefault + ")"}),
		HideHelpCommand: true,
		OnUsageError: func(c *cli.Context, err error, sub bool) error {
			return failOpen(onUsageError(c, err, sub))
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				where := "comes on stdin"
				if agent.EventFlag != nil {
					where = "is named by --event"
				}
				return failOpen(usageErrorf("%s: want no arguments, got %q (the event %s)", name, c.Args().First(), where))
			}
			if err := opts.validate(); err != nil {
				return failOpen(err)
			}
			if err := opts.validateServer(); err != nil {
				return failOpen(err)
			}
			if err := opts.validateEvent(agent.EventFlag); err != nil {
				return failOpen(err)
			}
			if err := opts.validateHTTP(opts.PrintSettings); err != nil {
				return failOpen(err)
			}
			return runAgent(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// failOpen makes a usage error exit 1: an agent reads exit 2 as "block",
// and a mistake in the hook's command line must not block every call
// (--fail-closed cannot be trusted when the line did not parse).
func failOpen(err error) error {
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitUsage {
		return &exitError{code: exitFailed, err: ee.err, bare: ee.bare}
	}
	return err
}

// runAgent answers one event, or prints the settings.
func runAgent(ctx context.Context, opts *agentOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if d, ok := opts.dialect.(adapter.HTTPDialect); ok && opts.PrintSettings && opts.HTTP != "" {
		return printHTTPSettings(d, opts.httpSettingsOptions, stdout)
	}
	if opts.PrintSettings {
		return printSettings(opts, stdout)
	}
	logw, closeLog, err := opts.openLog(stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	if opts.dialect.QuietStderr() {
		initlog.Release(logw)
	}
	err = adapter.RunCommand(ctx, adapter.CommandOptions{
		Dialect: opts.dialect, Connect: opts.connector(logw), FailOpen: opts.FailOpen, Log: logw, Event: opts.Event,
	}, stdin, stdout)
	var f *adapter.Failure
	if errors.As(err, &f) {
		code := f.Status
		if code == 0 { // a Failure built without one: never let it read as success
			code = exitFailed
			if f.Block {
				code = exitUsage
			}
		}
		return &exitError{code: code, err: err}
	}
	return err
}

// validateEvent checks --event against the agent's events: required
// when the agent has the flag (but for --print-settings, which wires
// every event), one of them.
func (o *agentOptions) validateEvent(events []string) error {
	switch {
	case events == nil || o.PrintSettings && o.Event == "":
		return nil
	case o.Event == "":
		return usageErrorf("%s: want --event EVENT: the event on stdin does not say which it is", o.dialect.Name())
	case !slices.Contains(events, o.Event):
		return usageErrorf("%s: --event %q: not a %s event (want one of %s)", o.dialect.Name(), o.Event, o.dialect.Name(), strings.Join(events, ", "))
	}
	return nil
}

// openLog opens --log for appending; without it, stderr, or nothing for
// an agent that reads stderr.
func (o *agentOptions) openLog(stderr io.Writer) (io.Writer, func(), error) {
	switch {
	case o.Log != "":
		f, err := os.OpenFile(o.Log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, nil, &exitError{code: exitFailed, err: fmt.Errorf("--log: %w", err)}
		}
		return f, func() { f.Close() }, nil
	case o.dialect.QuietStderr():
		return io.Discard, func() {}, nil
	}
	return stderr, func() {}, nil
}

// connector is how this command fires (adapter.NewConnector): its
// flags mapped to options. Load problems go to logw.
func (o *agentOptions) connector(logw io.Writer) adapter.Connector {
	return adapter.NewConnector(adapter.ConnectOptions{
		Server:     o.serverOptions.options(o.Dir, o.Config, logw),
		FailOpen:   o.FailOpen,
		EventCache: eventCachePath(),
		CacheSalt:  o.cacheSalt,
		Load: func(ctx context.Context, l adapter.Load) (*host.Host, error) {
			c := o.commonOptions.withLoad(l)
			c.oneShot = ownsProcess(ctx)
			return c.openHost(ctx, logw)
		},
		GuardProblems: func(h *host.Host) error { return guardProblems(h) },
	})
}

// guardEvents lists a dialect's guard events, for the help text.
func guardEvents(d adapter.CommandDialect) string {
	var names []string
	table := d.Table()
	for _, name := range adapter.SortedKeys(table) {
		if table[name].Guard {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// absPaths are --dir and --config made absolute, as hookhost-hook makes
// them (autosock.Abs): the socket of --server auto is named after them.
func (o *agentOptions) absPaths() (dir, cfg string, err error) {
	if dir, err = autosock.Abs(o.Dir); err != nil {
		return "", "", usageErrorf("--dir: %v", err)
	}
	if o.Config != "" {
		if cfg, err = autosock.Abs(o.Config); err != nil {
			return "", "", usageErrorf("--config: %v", err)
		}
	}
	return dir, cfg, nil
}

// eventCacheEnv names the event cache file; "off" disables it.
const eventCacheEnv = "HOOKHOST_EVENT_CACHE"

// eventCachePath is the event cache file: $HOOKHOST_EVENT_CACHE, else
// the user's default; empty for none ("off", or no cache directory).
func eventCachePath() string {
	switch path := os.Getenv(eventCacheEnv); path {
	case "off":
		return ""
	case "":
		return eventcache.DefaultPath()
	default:
		return path
	}
}

// cacheSalt is what a file's registrations depend on besides its source:
// the operator config and the hookhost executable.
func (o *agentOptions) cacheSalt() []byte {
	var salt []byte
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			salt = fmt.Appendf(salt, "%s %d %d\x00", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	if o.Config != "" {
		cfg, _ := os.ReadFile(o.Config)
		salt = append(salt, cfg...)
	}
	return salt
}

// printSettings prints the agent's configuration block that runs this
// command, with the directory and config made absolute (agents run hooks
// from the project's directory, or the event's cwd).
func printSettings(opts *agentOptions, stdout io.Writer) error {
	cmd := []string{hookCommand(opts), opts.dialect.Name()}
	dir, cfg, err := opts.absPaths()
	if err != nil {
		return err
	}
	cmd = append(cmd, "--dir", shellQuote(dir))
	if cfg != "" && opts.configFrom != configFromDir { // the command finds DIR/hookhost.yaml itself
		cmd = append(cmd, "--config", shellQuote(cfg))
	}
	if opts.Server != "" {
		cmd = append(cmd, "--server", shellQuote(opts.Server))
		if opts.Timeout != adapter.RequestTimeout {
			cmd = append(cmd, "--server-timeout", opts.Timeout.String())
		}
		if opts.Server == "auto" && opts.AutoIdleExit != adapter.AutoIdleExit {
			cmd = append(cmd, "--auto-idle-exit", opts.AutoIdleExit.String())
		}
	}
	if opts.FailOpen {
		cmd = append(cmd, "--fail-open")
	}
	if opts.Log != "" {
		log, err := filepath.Abs(opts.Log)
		if err != nil {
			return usageErrorf("--log: %v", err)
		}
		cmd = append(cmd, "--log", shellQuote(log))
	}
	return writeIndented(stdout, opts.dialect.Settings(strings.Join(cmd, " ")))
}

// smallHook is the small command hook (cmd/hookhost-hook): it answers
// through the --server auto server, linking almost nothing, and runs
// this hookhost, installed beside it, for everything else.
const smallHook = "hookhost-hook"

// hookCommand is the command the printed settings run: the small command
// hook for --server auto when it is installed beside this hookhost
// (unless --full-hook), hookhost otherwise.
func hookCommand(opts *agentOptions) string {
	if opts.Server != "auto" || opts.FullHook {
		return "hookhost"
	}
	exe, err := os.Executable()
	if err != nil {
		return "hookhost"
	}
	fi, err := os.Stat(filepath.Join(filepath.Dir(exe), smallHook))
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "hookhost"
	}
	return smallHook
}

// shellQuote quotes s for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeIndented(w io.Writer, v any) error {
	if _, err := fmt.Fprintln(w, jsonText(v, true)); err != nil {
		return failedErrorf("writing the settings: %v", err)
	}
	return nil
}

// guardProblems is why the hooks h loaded must not decide a guard event:
// the files with no good version, which strict mode lists (the host
// counts a file that registers no hook, as an emptied guard does, among
// them). Nil when there is none.
func guardProblems(h interface{ Status() host.Status }) error {
	bad := h.Status().Unhealthy()
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("the hooks cannot guard this event: %s", strings.Join(bad, "; "))
}
