package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/host"
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
		UsageText: "hookhost check [--dir DIR] [--config FILE]",
		Description: "Compiles every script of the hooks directory, runs its top level and validates what it\n" +
			"registers against the events (and the config, with --config). Prints each problem on stdout\n" +
			"as file:line: message and exits 1 when there is any; prints \"ok: N files, M hooks\" and exits\n" +
			"0 otherwise. A bad config or an unreadable directory exits 2.\n\n" +
			"Examples:\n" +
			"   hookhost check --dir ./hooks.d\n" +
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
	if len(args) > 0 {
		return usageErrorf("check: takes no arguments, got %q (see hookhost check --help)", args[0])
	}
	return o.commonOptions.validate()
}

// runCheck loads everything and reports every problem on stdout.
func runCheck(ctx context.Context, opts *checkOptions, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, err := opts.loadConfig()
	if err != nil {
		return err
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
	if n := loaded.n + printProblems(stdout, unmatchedConfig(cfg, files, hooks)); n > 0 {
		return failedErrorf("check: %d %s", n, plural(n, "problem", "problems"))
	}
	_, err = fmt.Fprintf(stdout, "ok: %d %s, %d %s\n", len(files), plural(len(files), "file", "files"),
		len(hooks), plural(len(hooks), "hook", "hooks"))
	if err != nil {
		return failedErrorf("check: writing: %v", err)
	}
	return nil
}

// unmatchedConfig reports the config's hooks entries that name no
// loaded file or hook, in the order of the file: they would silently
// configure nothing. A hook id in a file that never compiled cannot be
// checked and is left alone.
func unmatchedConfig(cfg *host.Config, files []host.FileStatus, hooks []host.HookInfo) []error {
	if cfg == nil {
		return nil
	}
	byPath := map[string]host.FileStatus{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.ID] = true
	}
	keys := slices.Sorted(maps.Keys(cfg.Hooks))
	slices.SortStableFunc(keys, func(a, b string) int { return cfg.Hooks[a].Line - cfg.Hooks[b].Line })
	var errs []error
	for _, key := range keys {
		if msg := unmatched(key, byPath, ids); msg != "" {
			errs = append(errs, &host.ConfigError{File: cfg.Path, Line: cfg.Hooks[key].Line,
				Msg: fmt.Sprintf("hooks.%s: %s", key, msg)})
		}
	}
	return errs
}

// unmatched says why a hooks key matches nothing, or "" when it matches
// (or cannot be checked).
func unmatched(key string, files map[string]host.FileStatus, ids map[string]bool) string {
	if _, ok := files[key]; ok || ids[key] {
		return ""
	}
	if strings.HasSuffix(key, "/") { // a hook pack
		for path := range files {
			if strings.HasPrefix(path, key) {
				return ""
			}
		}
		return fmt.Sprintf("no hook pack %s in the hooks directory", key)
	}
	for path, f := range files {
		if name, ok := strings.CutPrefix(key, path+":"); ok {
			if f.Version == "" {
				return ""
			}
			return fmt.Sprintf("%s registers no hook named %q", path, name)
		}
	}
	file := key
	for _, ext := range []string{".lua:", ".star:"} {
		if i := strings.Index(key, ext); i > 0 {
			file = key[:i+len(ext)-1]
			break
		}
	}
	return fmt.Sprintf("no script file %s in the hooks directory", file)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
