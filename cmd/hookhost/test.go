package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/testrun"
	"github.com/hookhost/hookhost/host/wire"
)

// testOptions are the options of hookhost test.
type testOptions struct {
	commonOptions
	// Run selects tests by name (a regular expression); empty runs all.
	Run string
	// Verbose lists every test, not only the failures.
	Verbose bool
	// JSON prints one JSON object per test, then a summary object.
	JSON bool
	// Coverage reports the hooks no test fired.
	Coverage bool
	// Timeout bounds each test.
	Timeout time.Duration

	match *regexp.Regexp
}

func newTestCommand() *cli.Command {
	opts := &testOptions{}
	return &cli.Command{
		Name:      "test",
		Usage:     "run the tests next to the hooks",
		ArgsUsage: "[DIR]",
		UsageText: "hookhost test [DIR] [--config FILE] [-run REGEX] [-v] [--json] [--coverage] [--timeout D]",
		Description: "Runs the test files of the hooks directory DIR (default ./hooks.d) and of its hook packs, one\n" +
			"level down: *_test.lua and *_test.star files, whose top-level test_* functions fire events\n" +
			"through the real hooks with hook.fire and check the results with the expect module, and\n" +
			"*_test.yaml / *_test.json table tests. Prints each failure with the decision and trace of\n" +
			"its last fire, then \"N passed, N failed\" as the last line. Exit status: 0 when every test\n" +
			"passed, 1 when any failed, 2 when a test or hook file does not load or the flags are wrong.\n" +
			"See docs/testing.md.\n\n" +
			"Examples:\n" +
			"   hookhost test\n" +
			"   hookhost test ./hooks.d -run 'rm|root' -v\n" +
			"   hookhost test --config hookhost.yaml --coverage",
		Flags: append(opts.flags(),
			&cli.StringFlag{Name: "run", Destination: &opts.Run, Usage: "run only the tests whose names match `REGEX`"},
			&cli.BoolFlag{Name: "v", Aliases: []string{"verbose"}, Destination: &opts.Verbose, Usage: "list every test, not only failures"},
			&cli.BoolFlag{Name: "json", Destination: &opts.JSON, Usage: "print one JSON object per test, then a summary object"},
			&cli.BoolFlag{Name: "coverage", Destination: &opts.Coverage, Usage: "report, per hook file, the hooks no test fired"},
			&cli.DurationFlag{Name: "timeout", Value: testrun.DefaultTimeout, Destination: &opts.Timeout,
				Usage: "bound each test by `D`"}),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runTest(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// validate takes the optional DIR argument, which may stand in for
// --dir but not contradict it, and checks the flags.
func (o *testOptions) validate(args []string) error {
	if err := o.takeDir("test", args); err != nil {
		return err
	}
	if o.Run != "" {
		re, err := regexp.Compile(o.Run)
		if err != nil {
			return usageErrorf("-run %q: %v", o.Run, err)
		}
		o.match = re
	}
	if o.Timeout <= 0 {
		return usageErrorf("--timeout %v: want a positive duration", o.Timeout)
	}
	return o.commonOptions.validate()
}

// runTest runs the tests and prints their results on stdout.
func runTest(ctx context.Context, opts *testOptions, _ io.Reader, stdout, stderr io.Writer) error {
	cfg, err := opts.loadConfig()
	if err != nil {
		return err
	}
	p := &testPrinter{w: &errWriter{w: stdout}, opts: opts}
	report, err := testrun.Run(ctx, testrun.Options{Dir: opts.Dir, Config: cfg, Logger: newLogger(stderr, opts.level),
		Match: opts.match, Timeout: opts.Timeout, OnResult: p.result})
	if err != nil && report == nil {
		return configError(err)
	}
	// Everything for stderr goes first, so that with stderr merged into
	// stdout (2>&1 in CI) the summary is still the last line.
	broken := printProblems(stderr, report.Problems) + printProblems(stderr, report.LoadErrors)
	// Config entries that match nothing are reported as every command
	// reports them; the tests still decide the exit status.
	printProblems(stderr, unmatchedConfig(cfg, report.Files, report.Hooks, nil))
	if broken > 0 {
		fmt.Fprintf(stderr, "hookhost: test: %d %s did not load\n", broken, plural(broken, "file", "files"))
	} else if len(report.Results) == 0 && err == nil {
		fmt.Fprintf(stderr, "hookhost: test: no tests ran in %s\n", opts.Dir)
	}
	p.summary(report)
	switch {
	case p.w.err != nil:
		return failedErrorf("test: writing: %v", p.w.err)
	case err != nil:
		return failedErrorf("test interrupted: %v", err)
	case broken > 0:
		return &exitError{code: exitUsage, err: errEmpty}
	case report.Failed() > 0:
		return &exitError{code: exitFailed, err: errEmpty}
	}
	return nil
}

// errEmpty is the error of a command that has already said everything
// (printError prints nothing for it).
var errEmpty = fmt.Errorf("")

// A testPrinter writes results as they come, then the summary.
type testPrinter struct {
	w    *errWriter
	opts *testOptions
}

// testJSON is the --json object of one test.
type testJSON struct {
	File       string  `json:"file"`
	Name       string  `json:"name"`
	Line       int     `json:"line"`
	Outcome    string  `json:"outcome"`
	DurationMS float64 `json:"duration_ms"`
	Failure    string  `json:"failure,omitempty"`
}

func (p *testPrinter) result(res testrun.Result) {
	if p.opts.JSON {
		wire.WriteJSONLine(p.w, testJSON{File: res.File, Name: res.Name, Line: res.Line, Outcome: string(res.Outcome),
			DurationMS: float64(res.Duration.Microseconds()) / 1000, Failure: failureDetail(res)})
		return
	}
	if res.Outcome == testrun.Pass {
		if p.opts.Verbose {
			fmt.Fprintf(p.w, "ok    %s:%d: %s (%s)\n", res.File, res.Line, res.Name, formatDuration(res.Duration))
		}
		return
	}
	label := "FAIL "
	if res.Outcome == testrun.Error {
		label = "ERROR"
	}
	fmt.Fprintf(p.w, "%s %s:%d: %s (%s)\n", label, res.File, res.Line, res.Name, formatDuration(res.Duration))
	for line := range strings.Lines(failureDetail(res)) {
		fmt.Fprintf(p.w, "    %s", line)
	}
}

// failureDetail is why a test did not pass, with the decision and trace
// of its last fire; empty for a test that passed.
func failureDetail(res testrun.Result) string {
	if res.Outcome == testrun.Pass {
		return ""
	}
	var b strings.Builder
	b.WriteString(res.Failure + "\n")
	if n := len(res.Fires); n > 0 {
		f := res.Fires[n-1]
		fmt.Fprintf(&b, "last fire: %s %s\n", f.Event, jsonText(f.Payload, false))
		writeTrace(&b, f.Result.Trace)
		writeDecision(&b, f.Result.Decision)
	}
	return b.String()
}

// summary writes the coverage, when asked for, then the counts: the
// last line, "N passed, N failed", or with --json the summary object.
func (p *testPrinter) summary(r *testrun.Report) {
	if p.opts.JSON {
		wire.WriteJSONLine(p.w, summaryJSON(r, p.opts.Coverage))
		return
	}
	if p.opts.Coverage {
		writeCoverage(p.w, r.Coverage())
	}
	fmt.Fprintf(p.w, "%d passed, %d failed\n", r.Passed(), r.Failed())
}
