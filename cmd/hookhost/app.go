package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// version is what hookhost --version prints.
const version = "0.1.0-dev"

// defaultDir is the hooks directory when --dir is not given.
const defaultDir = "./hooks.d"

// runMain runs the hookhost command line args (args[0] is the program
// name) and returns the process exit code. It never exits the process.
func runMain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	if run := quickAgent(args, newRoot(stdin, stdout, stderr)); run != nil {
		err = recovering(func() error { return run(ctx) })
	} else {
		app := newApp(stdin, stdout, stderr)
		err = runApp(ctx, app, interspersed(app, args))
	}
	if err != nil {
		printError(stderr, err)
	}
	return exitCode(err)
}

// runApp runs app, turning a panic of the command into an internal error
// (see recovering).
func runApp(ctx context.Context, app *cli.App, args []string) error {
	return recovering(func() error { return app.RunContext(ctx, args) })
}

// recovering runs a command, turning its panic into an internal error
// (exit 1): left alone, the Go runtime would exit 2, which an agent's
// command hook reads as a decision ("block"). Only the command's own
// goroutine can be covered; docs/cli.md says what cannot.
func recovering(run func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, debug.Stack())
		}
	}()
	return run()
}

// newApp wires the commands. Errors come back from RunContext: nothing
// in the app exits the process.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := newRoot(stdin, stdout, stderr)
	app.Commands = []*cli.Command{newFireCommand(), newListCommand(), newCheckCommand(), newServeCommand()}
	for _, a := range agents {
		app.Commands = append(app.Commands, newAgentCommand(a))
	}
	app.Commands = append(app.Commands, newPicoclawCommand(), newTestCommand(), newInitCommand(), newDoctorCommand(), newReplayCommand())
	return app
}

// newRoot is the app without its commands: its text, streams and error
// handling.
func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:      "hookhost",
		Usage:     "run Lua and Starlark hook scripts on an agent's lifecycle events",
		Version:   version,
		UsageText: "hookhost COMMAND [flags] [arguments]",
		Description: "Loads the *.lua and *.star hook scripts of a directory (--dir, default ./hooks.d)\n" +
			"and fires events through them. \"hookhost COMMAND --help\" describes each command;\n" +
			"see also docs/cli.md.\n\n" +
			"Example:\n" +
			"   hookhost fire tool.execute.pre '{\"tool_name\":\"bash\",\"params\":{\"command\":\"rm -rf /\"}}' --json",
		Reader:         stdin,
		Writer:         stdout,
		ErrWriter:      stderr,
		ExitErrHandler: func(*cli.Context, error) {}, // runMain decides the exit code
		OnUsageError:   onUsageError,
		Action:         rootAction,
	}
}

// rootAction runs when no command was named: help for a bare
// "hookhost", a usage error for an unknown command.
func rootAction(c *cli.Context) error {
	if c.Args().Present() {
		return usageErrorf("unknown command %q (want %s; see hookhost --help)", c.Args().First(), commandNames(c.App.Commands))
	}
	return cli.ShowAppHelp(c)
}

// commandNames lists the commands as "a, b or c".
func commandNames(cmds []*cli.Command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// onUsageError turns urfave's flag errors into exit code 2.
func onUsageError(c *cli.Context, err error, _ bool) error {
	name := "hookhost"
	if c.Command != nil && c.Command.HelpName != "" {
		name = c.Command.HelpName
	}
	return usageErrorf("%v (see %s --help)", err, name)
}

// commonOptions are the flags every command shares.
type commonOptions struct {
	// Dir is the hooks directory.
	Dir string
	// Config is the operator's hookhost.yaml; empty means none. Until
	// validate it is --config as given; validate settles it (see
	// resolveConfig), and configFrom says where it was named.
	Config     string
	configFrom configSource
	// LogLevel is the least level of the host's logs written to stderr.
	LogLevel string

	level  slog.Level
	strict bool // set by the commands that have --strict
	// now, when set, is the clock the hooks see (replay's recorded time).
	now func() time.Time
	// load is how a command hook loads the hooks for one call (strict at
	// a guard event, the event cache's view and programs): set only on
	// the copy withLoad makes for that load.
	load adapter.Load
	// oneShot is set on the copy an agent command loads its hooks with in
	// process, to answer one event and exit, when the command runs in a
	// process of its own (see applyOneShotGC and processKey).
	oneShot bool
}

// withLoad is a copy of o that loads the hooks as l says.
func (o commonOptions) withLoad(l adapter.Load) *commonOptions {
	o.load = l
	return &o
}

func (o *commonOptions) flags() []cli.Flag {
	return []cli.Flag{
		// The defaults are resolvePaths', which tells a flag given from an
		// environment variable (urfave/cli would not).
		&cli.StringFlag{Name: "dir", Aliases: []string{"d"}, Destination: &o.Dir,
			DefaultText: "$" + dirEnv + ", else " + defaultDir, Usage: "the hooks directory `DIR`"},
		&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Destination: &o.Config,
			DefaultText: "$" + configEnv + ", else DIR/" + dirConfigName + " when it exists",
			Usage:       "the operator config `FILE`"},
		&cli.StringFlag{Name: "log-level", Value: "warn", Destination: &o.LogLevel,
			Usage: "log to stderr at `LEVEL` and above: debug, info, warn or error"},
	}
}

// validate checks the flags and settles the directory and the config
// (resolvePaths); a command's DIR argument is taken first (takeDir).
func (o *commonOptions) validate() error {
	o.resolvePaths(os.Getenv)
	if err := o.level.UnmarshalText([]byte(o.LogLevel)); err != nil {
		return usageErrorf("--log-level %q: want debug, info, warn or error", o.LogLevel)
	}
	return nil
}

// openHost loads the config and the scripts. Failures are usage errors
// (exit 2): config errors are printed one a line, as file:line: message.
// The scripts' own load problems do not fail it: they are printed on
// stderr as the host reports them (see problemPrinter).
func (o *commonOptions) openHost(ctx context.Context, stderr io.Writer) (*host.Host, error) {
	cfg, err := o.loadConfig()
	if err != nil {
		return nil, err
	}
	h, _, err := o.newHost(ctx, cfg, stderr, stderr)
	return h, err
}

// loadConfig reads --config; nil when there is none.
func (o *commonOptions) loadConfig() (*host.Config, error) {
	if o.Config == "" {
		return nil, nil
	}
	cfg, err := host.LoadConfig(o.Config)
	if err != nil {
		return nil, configError(err)
	}
	return cfg, nil
}

// newHost makes the host; the load problems its first reload reports go
// to problems, and so do the config's hooks entries that match nothing
// (unmatchedConfig), all counted in the printer; its logs go to stderr.
func (o *commonOptions) newHost(ctx context.Context, cfg *host.Config, problems, stderr io.Writer) (*host.Host, *problemPrinter, error) {
	printer := &problemPrinter{w: problems}
	applyMemoryLimit(cfg)
	if o.oneShot {
		applyOneShotGC(cfg)
	}
	hopts := host.Options{Dir: o.Dir, Config: cfg, Logger: newLogger(stderr, o.level), Observer: printer,
		Strict: o.strict || o.load.Strict, Programs: o.load.Programs, Now: o.now, OpenState: openState(nil)}
	if o.load.FS != nil {
		hopts.Dir, hopts.FS, hopts.HooksDir = "", o.load.FS, o.Dir // the plan's files are DIR's
	}
	h, err := host.New(ctx, hopts)
	if err != nil {
		return nil, nil, configError(err)
	}
	printer.n += printProblems(problems, unmatchedConfig(cfg, h.Files(), h.Hooks(), o.load.Hidden))
	return h, printer, nil
}

// applyMemoryLimit hands the config's heap budget to the Go runtime as
// its soft memory limit, unless GOMEMLIMIT chose one: the collector then
// works harder as the heap nears the budget, so that garbage is freed
// before the host's watchdog counts it against the hooks.
func applyMemoryLimit(cfg *host.Config) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cfg.MemoryLimit())
	}
}

// oneShotGCPercent is the collector's GOGC for an agent command that
// loads its hooks in process to answer one event: its heap reaches a few
// MiB (the shipped packs, about 4) and the process exits, so a collection
// started at Go's 4 MiB first goal is work thrown away, about a tenth of
// the command's time. At 400 the first goal is 16 MiB.
const oneShotGCPercent = 400

// applyOneShotGC raises the collector's GOGC for a one-shot agent command
// (oneShotGCPercent), unless the environment chose one.
//
// The host's watchdog (host/heapblame.go) interrupts the running hooks
// when the heap it samples (live objects and garbage not yet swept)
// passes limits.memory, so garbage left to pile up could be counted
// against a legit hook. What keeps it from piling up past the budget is
// the soft memory limit applyMemoryLimit sets to the same figure: the
// collector's goal is the lower of GOGC's (live heap x (1 + GOGC/100))
// and the soft limit's (the budget less the runtime's own memory, less
// a margin). A larger GOGC raises only the first; near the budget the
// soft limit's goal is the one that binds, as it already was for a live
// heap over half the budget at GOGC=100. So GOGC is raised only when the
// soft limit in force is no higher than the budget: a GOMEMLIMIT above
// it would leave GOGC's goal as the only bound, and 400 would let
// garbage reach the budget from a fifth of it live (claude_gc.txtar runs
// both). serve keeps Go's default: its heap lives on, and its latency
// is not its start. So does runMain run inside another process (the
// tests): GOGC is the whole process's.
func applyOneShotGC(cfg *host.Config) {
	if percent, ok := oneShotGC(os.Getenv("GOGC"), debug.SetMemoryLimit(-1), cfg.MemoryLimit()); ok {
		debug.SetGCPercent(percent)
	}
}

// oneShotGC is the GOGC applyOneShotGC sets, given $GOGC, the soft memory
// limit in force and the heap budget (limits.memory); ok is false to
// leave the collector as it is.
func oneShotGC(gogcEnv string, softLimit, budget int64) (percent int, ok bool) {
	if gogcEnv != "" || softLimit > budget {
		return 0, false
	}
	return oneShotGCPercent, true
}

// configError is a usage error; one made of config errors is printed
// bare, since each already reads file:line: message.
func configError(err error) error {
	var ce *host.ConfigError
	if errors.As(err, &ce) {
		return bareUsageError(err)
	}
	return usageError(errors.New(strings.TrimPrefix(err.Error(), "host: ")))
}

// A problemPrinter is the commands' observer of the host: it writes each
// file a reload failed to load, one problem a line, as file:line:
// message (file relative to the hooks directory), and counts them.
type problemPrinter struct {
	host.NopObserver // fires and quarantines are not problems
	w                io.Writer
	n                int
	notes            []string // what the scan left out, for the commands that show it
}

// ReloadDone prints the problems of the files the reload failed to load
// and keeps its notes.
func (p *problemPrinter) ReloadDone(r host.ReloadReport) {
	for _, f := range r.Files {
		if f.Outcome == host.FileFailed {
			p.n += printProblems(p.w, []error{f.Err})
		}
	}
	p.notes = r.Notes
}

// printProblems writes each problem on its own line (joined errors one
// per line) and returns how many there were.
func printProblems(w io.Writer, problems []error) int {
	n := 0
	for _, p := range problems {
		for _, e := range flatten(p) {
			fmt.Fprintln(w, e)
			n++
		}
	}
	return n
}

// newLogger is the host's logger: text on stderr, from level up, without
// timestamps (one-shot commands).
func newLogger(stderr io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level, ReplaceAttr: dropTime}))
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// interspersed lets flags follow the positional arguments, as in
// "hookhost fire EVENT PAYLOAD --json": urfave/cli v2 stops parsing
// flags at the first positional argument, so the command's flags (with
// their values) are moved before its positional arguments, which follow
// a "--". A "--" given by the caller still ends the flags; "-" is a
// positional argument (stdin).
func interspersed(app *cli.App, args []string) []string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args
		}
		if strings.HasPrefix(a, "-") {
			continue // the app's own flags are all booleans
		}
		cmd := app.Command(a)
		if cmd == nil {
			return args
		}
		out := append([]string(nil), args[:i+1]...)
		return append(out, reorder(cmd.Flags, args[i+1:])...)
	}
	return args
}

// reorder puts the flags of args first, then "--" and the positional
// arguments in their order.
func reorder(flags []cli.Flag, args []string) []string {
	var fl, pos []string
	help := false // a flag, not a flag's value ("--dir h"), asks for help
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case a == wire.StdinPayload || !strings.HasPrefix(a, "-"):
			pos = append(pos, a)
		default:
			fl = append(fl, a)
			help = help || isHelpFlag(a)
			if !takesValue(flags, a) {
				continue
			}
			if i+1 == len(args) {
				return fl // the flag's value is missing: let the flag parser say so
			}
			fl = append(fl, args[i+1])
			i++
		}
	}
	if len(pos) == 0 || help {
		return fl // --help shows the command's help whatever else is there
	}
	return append(append(fl, "--"), pos...)
}

func isHelpFlag(arg string) bool {
	return slices.Contains(cli.HelpFlag.Names(), strings.TrimLeft(arg, "-"))
}

// takesValue reports whether the flag arg (such as "--dir") reads the
// next argument as its value.
func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			_, isBool := f.(*cli.BoolFlag)
			return !isBool
		}
	}
	return false
}
