package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/scaffold"
)

// initOptions are the options of hookhost init.
type initOptions struct {
	// Dir is the hooks directory to create or fill.
	Dir string
}

func newInitCommand() *cli.Command {
	opts := &initOptions{}
	return &cli.Command{
		Name:      "init",
		Usage:     "scaffold a hooks directory: a guardrail in each language, their tests, a config, editor support",
		ArgsUsage: "[DIR]",
		UsageText: "hookhost init [DIR]",
		Description: "Writes into DIR (default ./hooks.d, created if needed) a Lua guardrail (guard.lua) with its\n" +
			"script test (guard_test.lua), a Starlark guardrail (workspace.star) with its table test\n" +
			"(workspace_test.yaml), a commented hookhost.yaml that explains every key, and the LuaLS\n" +
			"annotations (.luarc.json and .luals/) for lua-language-server. It never overwrites: when any\n" +
			"of those files exists it writes nothing and exits 2 naming it.\n\n" +
			"Examples:\n" +
			"   hookhost init\n" +
			"   hookhost init ./hooks.d && hookhost test ./hooks.d",
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runInit(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

func (o *initOptions) validate(args []string) error {
	if len(args) > 1 {
		return usageErrorf("init: want at most one directory, got %d arguments (see hookhost init --help)", len(args))
	}
	o.Dir = defaultDir
	if len(args) == 1 {
		o.Dir = args[0]
	}
	if o.Dir == "" {
		return usageErrorf("init: the directory name is empty")
	}
	return nil
}

// runInit writes the scaffold and lists what it wrote on stdout.
func runInit(_ context.Context, opts *initOptions, _ io.Reader, stdout, _ io.Writer) error {
	written, err := scaffold.Write(opts.Dir)
	var exists *scaffold.ExistsError
	switch {
	case errors.As(err, &exists):
		return usageErrorf("init: %v", err)
	case err != nil:
		return failedErrorf("init: %v", err)
	}
	w := &errWriter{w: stdout}
	for _, p := range written {
		fmt.Fprintf(w, "wrote %s\n", p)
	}
	fmt.Fprintf(w, "next: hookhost test %s\n", opts.Dir)
	if w.err != nil {
		return failedErrorf("init: writing: %v", w.err)
	}
	return nil
}
