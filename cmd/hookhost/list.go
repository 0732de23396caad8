package main

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// listOptions are the options of hookhost list.
type listOptions struct {
	commonOptions
	// JSON prints the hooks as a JSON array of wire.HookEntry.
	JSON bool
}

func newListCommand() *cli.Command {
	opts := &listOptions{}
	return &cli.Command{
		Name:      "list",
		Usage:     "list every loaded hook",
		ArgsUsage: "[DIR]",
		UsageText: "hookhost list [DIR] [--config FILE] [--json]",
		Description: "Loads the hooks directory DIR (or --dir) and lists every hook, enabled or not, sorted by id:\n" +
			"its event, priority, timeout and where that timeout came from, whether it is enabled or\n" +
			"quarantined, and the payload fields it takes. Files that fail to load, and config entries\n" +
			"that match no file or hook, are reported on stderr.\n\n" +
			"Examples:\n" +
			"   hookhost list ./hooks.d\n" +
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
	if err := o.takeDir("list", args); err != nil {
		return err
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

// writeHooksJSON writes the hooks as one JSON array and a newline; no
// hooks is [].
func writeHooksJSON(w io.Writer, hooks []host.HookInfo) error {
	return wire.WriteJSONLine(w, wire.HookEntries(hooks))
}
