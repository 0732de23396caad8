package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/host"
	"github.com/hookhost/hookhost/host/wire"
)

// fireOptions are the options of hookhost fire.
type fireOptions struct {
	commonOptions
	// JSON prints the result as the fire --json object.
	JSON bool
	// Event is the event to fire.
	Event string
	// Payload is the payload argument: a JSON object, "-" for stdin, or
	// empty for {}.
	Payload string
}

func newFireCommand() *cli.Command {
	opts := &fireOptions{}
	return &cli.Command{
		Name:      "fire",
		Usage:     "fire one event through the hooks and print the decision",
		ArgsUsage: "EVENT [PAYLOAD | -]",
		UsageText: "hookhost fire [--dir DIR] [--config FILE] [--json] [--strict] EVENT [PAYLOAD | -]",
		Description: "Loads the hooks directory, fires EVENT once with PAYLOAD (a JSON object; \"-\" reads it\n" +
			"from stdin; omitted means {}) and prints the trace and the decision. With --json it prints\n" +
			"exactly one JSON object on stdout: event, decision, payload, messages, trace, and problems\n" +
			"(the files that failed to load) when there are any. With --strict (or strict: true in the\n" +
			"config), while a file has no good version, an event that allows deny is denied.\n" +
			"Flags may come before or after the arguments. Exit status: 0 when the fire ran,\n" +
			"2 for a usage error (unknown event, bad payload, bad config, unreadable directory).\n\n" +
			"Examples:\n" +
			"   hookhost fire tool.execute.pre '{\"tool_name\":\"bash\",\"params\":{\"command\":\"rm -rf /\"}}' --json\n" +
			"   echo '{\"prompt\":\"hello\"}' | hookhost fire --dir ./hooks.d turn.pre -",
		Flags: append(opts.flags(),
			&cli.BoolFlag{Name: "json", Destination: &opts.JSON, Usage: "print the result as one JSON object"},
			&cli.BoolFlag{Name: "strict", Destination: &opts.strict,
				Usage: "deny every event that allows deny while a hook file has no good version"}),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runFire(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// validate checks the flags and takes the positional arguments.
func (o *fireOptions) validate(args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return usageErrorf("fire: want EVENT [PAYLOAD | -], got %d arguments (see hookhost fire --help)", len(args))
	}
	o.Event = args[0]
	if len(args) == 2 {
		o.Payload = args[1]
	}
	if o.Event == "" {
		return usageErrorf("fire: the event name is empty")
	}
	return o.commonOptions.validate()
}

// runFire loads the hooks, fires once and prints the result.
func runFire(ctx context.Context, opts *fireOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	payload, err := wire.ReadPayload(opts.Payload, stdin)
	if err != nil {
		return usageError(err)
	}
	h, err := opts.openHost(ctx, stderr)
	if err != nil {
		return err
	}
	defer h.Close()
	res, err := h.Fire(ctx, opts.Event, payload)
	switch {
	case errors.Is(err, host.ErrUnknownEvent):
		return usageErrorf("fire: unknown event %q (known events: %s)", opts.Event, eventNames(h.Events()))
	case errors.Is(err, host.ErrBadPayload):
		return usageError(err)
	case errors.Is(err, host.ErrClosed):
		return failedErrorf("fire: %v", err)
	}
	if werr := printResult(stdout, opts.JSON, payload, res); werr != nil {
		return failedErrorf("fire: writing the result: %v", werr)
	}
	if err != nil { // ctx ended (an interrupt): the result holds what ran
		return failedErrorf("fire interrupted: %v", err)
	}
	return nil
}

func printResult(w io.Writer, asJSON bool, payload map[string]any, res host.Result) error {
	if !asJSON {
		return writeResult(w, payload, res)
	}
	return wire.WriteJSONLine(w, res)
}

func eventNames(specs []host.EventSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}
