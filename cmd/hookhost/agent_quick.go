package main

import (
	"context"
	"flag"
	"io"

	"github.com/urfave/cli/v2"
)

// An agent command (claude, gemini, codex) starts for every tool call, and
// urfave/cli's way to a command's action — setting up the app and every
// command, then looking each flag up under each of its names, with
// allocations, for flag actions and required flags — costs a command hook
// a measurable part of its start (docs/performance.md, "Command-hook
// start-up"). So an agent command line that needs nothing but its flags
// parsed is parsed here, with the command's own flag definitions applied
// to a flag.FlagSet as urfave/cli applies them (environment variables
// included), and the command's own action runs. Anything else — help, a
// flag that does not parse or is not defined, an environment variable
// that does not parse, an argument, one flag given under two of its
// names — goes to urfave/cli, which handles and reports it as always.

// quickAgent returns the run of the agent command line args, or nil when
// urfave/cli must handle it. app gives the action its streams (urfave/cli
// would replace a nil one with the process's own).
func quickAgent(args []string, app *cli.App) func(context.Context) error {
	if len(args) < 2 || app.Reader == nil || app.Writer == nil || app.ErrWriter == nil {
		return nil
	}
	a, ok := agentNamed(args[1])
	if !ok {
		return nil
	}
	cmd := newAgentCommand(a)
	set := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range cmd.Flags {
		if f.Apply(set) != nil {
			return nil
		}
	}
	if set.Parse(args[2:]) != nil || set.NArg() > 0 || twoSpellings(cmd.Flags, set) {
		return nil
	}
	c := cli.NewContext(app, set, nil)
	return func(ctx context.Context) error {
		c.Context = ctx
		return cmd.Action(c)
	}
}

// agentNamed is the agent command called name.
func agentNamed(name string) (agentCommand, bool) {
	for _, a := range agents {
		if a.dialect.Name() == name {
			return a, true
		}
	}
	return agentCommand{}, false
}

// twoSpellings reports whether one flag was given under two of its names
// ("--dir a -d b"), which urfave/cli refuses.
func twoSpellings(flags []cli.Flag, set *flag.FlagSet) bool {
	given := map[string]bool{}
	set.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, f := range flags {
		n := 0
		for _, name := range f.Names() {
			if given[name] {
				n++
			}
		}
		if n > 1 {
			return true
		}
	}
	return false
}
