package main

import (
	"context"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/host"
)

// listOptions are the options of hookhost list.
type listOptions struct {
	commonOptions
	// JSON prints the hooks as a JSON array of listEntry.
	JSON bool
}

func newListCommand() *cli.Command {
	opts := &listOptions{}
	return &cli.Command{
		Name:      "list",
		Usage:     "list every loaded hook",
		UsageText: "hookhost list [--dir DIR] [--config FILE] [--json]",
		Description: "Loads the hooks directory and lists every hook, enabled or not, sorted by id: its event,\n" +
			"priority, timeout and where that timeout came from, whether it is enabled or quarantined,\n" +
			"and the payload fields it takes. Files that fail to load are reported on stderr.\n\n" +
			"Examples:\n" +
			"   hookhost list --dir ./hooks.d\n" +
			"   hookhost list --config hookhost.yaml --json",
		Flags: append(opts.flags(),
			&cli.BoolFlag{Name: "json", Destination: &opts.JSON, Usage: "print a JSON array"}),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runList(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (o *listOptions) validate(args []string) error {
	if len(args) > 0 {
		return usageErrorf("list: takes no arguments, got %q (see hookhost list --help)", args[0])
	}
	return o.commonOptions.validate()
}

// runList loads the hooks and lists them. Like every command's run, it
// takes stdin, stdout and stderr explicitly; list reads no input.
func runList(ctx context.Context, opts *listOptions, _ io.Reader, stdout, stderr io.Writer) error {
	h, err := opts.openHost(ctx, stderr)
	if err != nil {
		return err
	}
	defer h.Close()
	printProblems(stderr, h.Problems())
	hooks := h.Hooks()
	if opts.JSON {
		err = writeHooksJSON(stdout, hooks)
	} else {
		err = writeHooks(stdout, hooks)
	}
	if err != nil {
		return failedErrorf("list: writing: %v", err)
	}
	return nil
}

// A listEntry is one element of the list --json array (docs/cli.md).
type listEntry struct {
	ID          string   `json:"id"`
	Event       string   `json:"event"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
	Priority    int64    `json:"priority"`
	TimeoutMS   float64  `json:"timeout_ms"`
	TimeoutFrom string   `json:"timeout_from"`
	Enabled     bool     `json:"enabled"`
	Quarantined bool     `json:"quarantined"`
	Params      []string `json:"params"`
}

func newListEntry(h host.HookInfo) listEntry {
	params := h.Params
	if params == nil {
		params = []string{}
	}
	return listEntry{ID: h.ID, Event: h.Event, File: h.File, Line: h.Line, Priority: h.Priority,
		TimeoutMS: milliseconds(h.Timeout), TimeoutFrom: h.TimeoutFrom, Enabled: h.Enabled,
		Quarantined: h.Quarantined, Params: params}
}

// milliseconds is d in milliseconds, to the microsecond, as the fire
// trace's duration_ms.
func milliseconds(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

// writeHooksJSON writes the hooks as one JSON array and a newline; no
// hooks is [].
func writeHooksJSON(w io.Writer, hooks []host.HookInfo) error {
	out := make([]listEntry, len(hooks))
	for i, h := range hooks {
		out[i] = newListEntry(h)
	}
	return writeJSONLine(w, out)
}
