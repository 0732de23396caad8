package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/doctor"
)

// doctorOptions are the options of hookhost doctor.
type doctorOptions struct {
	// Settings are the settings files to read instead of the agent's own.
	Settings cli.StringSlice
	// Canary is the command the canary tool call runs (never run).
	Canary string
	// JSON prints the report as one JSON object.
	JSON bool
	// Project is the directory the agent runs in; empty: the working
	// directory.
	Project string
	// ManagedDir is where the agent's managed settings are; empty: the
	// agent's own place on this system.
	ManagedDir string

	agent doctor.Agent
}

func newDoctorCommand() *cli.Command {
	opts := &doctorOptions{}
	return &cli.Command{
		Name:      "doctor",
		Usage:     "prove that an agent's hooks enforce: send a canary through every guard entry of its settings",
		UsageText: "hookhost doctor AGENT [--settings FILE]... [--project DIR] [--managed-dir DIR] [--canary CMD] [--json]",
		Description: "Reads AGENT's settings (" + strings.Join(doctorAgents(), ", ") + "; by default the user's and the project's\n" +
			"files, where the agent reads them), finds the hook entries on its guard event (before a tool call)\n" +
			"and sends each a canary — a shell tool call running \"rm -rf /\" or --canary CMD, as a string in the\n" +
			"event; nothing runs it — through exactly what the agent would run: the entry's command through sh -c\n" +
			"in the project directory, with its timeout and environment, or a POST to its URL with its headers.\n" +
			"The answer is read as the agent reads it. Each entry is ENFORCING (the canary is denied or asked)\n" +
			"or NOT ENFORCING, with the reason; entries that are not hookhost's are checked too: one that is broken\n" +
			"(not found, an error status, a timeout) counts, one that runs with no opinion (a logger) does not.\n" +
			"The hooks run: they see the canary event as the agent would send it.\n\n" +
			"Exit status: 0 when some entry stops the canary, every hookhost entry enforces and none is broken;\n" +
			"1 when not;\n" +
			"2 when a settings file cannot be read or parsed (or a usage error).\n\n" +
			"Examples:\n" +
			"   hookhost doctor claude\n" +
			"   hookhost doctor codex --settings ~/.codex/hooks.json --json",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "settings", Destination: &opts.Settings,
				Usage: "read the settings `FILE` instead of the agent's own (repeatable)"},
			&cli.StringFlag{Name: "project", Destination: &opts.Project,
				Usage: "the project `DIR` the agent runs in, where it reads project settings and runs its hooks (default: the working directory)"},
			&cli.StringFlag{Name: "canary", Value: doctor.DefaultCanary, Destination: &opts.Canary,
				Usage: "the shell command `CMD` the canary tool call asks to run (a string in the event: never run)"},
			&cli.StringFlag{Name: "managed-dir", Destination: &opts.ManagedDir,
				Usage: "read the agent's managed settings from `DIR` (Claude Code; default: where the agent reads them on this system, when no --settings is given)"},
			&cli.BoolFlag{Name: "json", Destination: &opts.JSON, Usage: "print the report as one JSON object"},
		},
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runDoctor(c.Context, opts, c.App.Writer)
		},
	}
}

// doctorAgents are the agents doctor knows, sorted.
func doctorAgents() []string {
	var names []string
	for name := range doctor.Agents {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func (o *doctorOptions) validate(args []string) error {
	if len(args) != 1 {
		return usageErrorf("doctor: want one agent (%s), got %d arguments", strings.Join(doctorAgents(), ", "), len(args))
	}
	a, ok := doctor.Agents[args[0]]
	if !ok {
		return usageErrorf("doctor: unknown agent %q (want %s)", args[0], strings.Join(doctorAgents(), ", "))
	}
	o.agent = a
	if strings.TrimSpace(o.Canary) == "" {
		return usageErrorf("doctor: --canary: want a command")
	}
	return nil
}

// runDoctor checks the agent's hooks and prints the report.
func runDoctor(ctx context.Context, opts *doctorOptions, stdout io.Writer) error {
	d, err := doctor.Defaults()
	if err != nil {
		return failedErrorf("doctor: %v", err)
	}
	if opts.Project != "" {
		if d.Project, err = filepath.Abs(opts.Project); err != nil {
			return usageErrorf("doctor: --project: %v", err)
		}
	}
	d.Files, d.Canary, d.ManagedDir = opts.Settings.Value(), opts.Canary, opts.ManagedDir
	rep, err := doctor.Check(ctx, opts.agent, d)
	var se *doctor.SettingsError
	switch {
	case errors.As(err, &se):
		return usageErrorf("doctor: %v", err)
	case err != nil:
		return failedErrorf("doctor: %v", err)
	}
	if opts.JSON {
		_, err = fmt.Fprintln(stdout, jsonText(rep, false))
	} else {
		err = doctor.WriteText(stdout, rep, opts.agent.Title)
	}
	if err != nil {
		return failedErrorf("doctor: writing the report: %v", err)
	}
	if !rep.Enforcing {
		return &exitError{code: exitFailed, err: errors.New("")} // the report said why
	}
	return nil
}
