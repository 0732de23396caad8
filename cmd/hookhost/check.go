package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// checkOptions are the options of hookhost check.
type checkOptions struct {
	commonOptions
}

func newCheckCommand() *cli.Command {
	opts := &checkOptions{}
	return &cli.Command{
		Name:      "check",
		Usage:     "compile and validate every script and the config",
		ArgsUsage: "[DIR]",
		UsageText: "hookhost check [DIR] [--config FILE]",
		Description: "Compiles every script of the hooks directory DIR (or --dir), runs its top level and validates\n" +
			"what it registers against the events and the config (--config, else $HOOKHOST_CONFIG, else\n" +
			"DIR/hookhost.yaml when it exists; stderr names the one read, as \"config: FILE (why)\").\n" +
			"Prints each problem on stdout as file:line: message and exits 1 when there is any; prints\n" +
			"\"ok: N files, M hooks\" and exits 0 otherwise. A bad config or an unreadable directory exits 2.\n" +
			"On stderr, without changing the exit status: \"warning: \" for a hook parameter that is no field of\n" +
			"its event nor of any agent's payload (it is always nil; the closest fields are suggested), \"note: \"\n" +
			"for a hook that could deny but fails open (an error or a timeout lets the call through).\n\n" +
			"Examples:\n" +
			"   hookhost check ./hooks.d\n" +
			"   hookhost check --dir ./hooks.d --config hookhost.yaml",
		Flags:           opts.flags(),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runCheck(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (o *checkOptions) validate(args []string) error {
	if err := o.takeDir("check", args); err != nil {
		return err
	}
	return o.commonOptions.validate()
}

// runCheck loads everything and reports every problem on stdout.
func runCheck(ctx context.Context, opts *checkOptions, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, err := opts.loadConfig()
	if err != nil {
		return err
	}
	if cfg != nil { // which file is checked: one found in the directory is read unasked
		fmt.Fprintf(stderr, "config: %s\n", opts.configNote())
	}
	h, loaded, err := opts.newHost(ctx, cfg, stdout, stderr)
	if err != nil {
		return err
	}
	defer h.Close()
	for _, note := range loaded.notes {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	files, hooks := h.Files(), h.Hooks()
	// Warnings and notes never change the exit status: a parameter may
	// be a custom event's or an agent's extra field, and failing open
	// may be the operator's choice.
	for _, w := range paramWarnings(hooks, h.Events()) {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	for _, n := range failOpenNotes(hooks, h.Events()) {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	if n := loaded.n; n > 0 {
		return failedErrorf("check: %d %s", n, plural(n, "problem", "problems"))
	}
	_, err = fmt.Fprintf(stdout, "ok: %d %s, %d %s\n", len(files), plural(len(files), "file", "files"),
		len(hooks), plural(len(hooks), "hook", "hooks"))
	if err != nil {
		return failedErrorf("check: writing: %v", err)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
