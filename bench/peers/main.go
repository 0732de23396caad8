// Command peers scores guardrail programs on hookhost's labeled corpus
// of shell lines (bench/corpus): each line is sent to each program as a
// Claude Code PreToolUse Bash event on standard input, the way Claude
// Code runs a command hook, and the answer is read as Claude Code reads
// it (corpus.Stopped). It prints one Markdown table of stop and pass
// rates per theme, the programs side by side, and then every line each
// program decided against its label.
//
// compare.sh builds hookhost, installs the peers and runs this; it is
// not run by CI (it needs the network for npm). Usage:
//
//	go run ./bench/peers -cwd DIR -tool 'NAME=PROGRAM ARG…' [-tool …]
//
// A tool's command line is split at spaces (no quoting). Each program
// runs with the environment it is given, in the workspace DIR, which the
// event names as its cwd and must exist (some peers check it).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/hookhost/hookhost/bench/corpus"
)

// A program is one guardrail under test.
type program struct {
	name string
	argv []string
}

// tools collects -tool flags.
type tools []program

func (t *tools) String() string { return fmt.Sprint(*t) }

func (t *tools) Set(s string) error {
	name, cmd, ok := strings.Cut(s, "=")
	argv := strings.Fields(cmd)
	if !ok || name == "" || len(argv) == 0 {
		return fmt.Errorf("-tool %q: want NAME=PROGRAM [ARG…]", s)
	}
	*t = append(*t, program{name: name, argv: argv})
	return nil
}

// options are the command's flags.
type options struct {
	cwd     string
	tools   tools
	jobs    int
	timeout time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.cwd, "cwd", "", "the workspace the events name as cwd (must exist)")
	flag.Var(&o.tools, "tool", "NAME=PROGRAM [ARG…], a guardrail to score (repeatable)")
	flag.IntVar(&o.jobs, "j", 2, "lines answered at once, per program")
	flag.DurationVar(&o.timeout, "timeout", 20*time.Second, "time a program has to answer one line")
	flag.Parse()
	lines, err := corpus.Lines()
	if err == nil {
		err = run(context.Background(), o, lines, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

// run scores every tool on lines and writes the report to w.
func run(ctx context.Context, o options, lines []corpus.Line, w io.Writer) error {
	if o.cwd == "" || len(o.tools) == 0 || o.jobs < 1 {
		return errors.New("want -cwd DIR and at least one -tool, and -j of 1 or more")
	}
	if fi, err := os.Stat(o.cwd); err != nil || !fi.IsDir() {
		return fmt.Errorf("-cwd %s: not a directory", o.cwd)
	}
	var err error
	names := make([]string, len(o.tools))
	tallies := make([]*corpus.Tally, len(o.tools))
	for i, p := range o.tools {
		names[i] = p.name
		if tallies[i], err = score(ctx, o, p, lines); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
	}
	fmt.Fprintf(w, "%d lines, %s\n\n", len(lines), time.Now().UTC().Format("2006-01-02 15:04 MST"))
	if err := corpus.Table(w, names, tallies); err != nil {
		return err
	}
	for i, t := range tallies {
		fmt.Fprintf(w, "\n%s: %d lines decided against their label\n", names[i], len(t.Misses()))
		for _, m := range t.Misses() {
			fmt.Fprintf(w, "  %-26s %-4s got %-8s %s\n", m.Theme, m.Want, m.Got, m.Command)
		}
	}
	return nil
}

// score runs every line through p, o.jobs at a time.
func score(ctx context.Context, o options, p program, lines []corpus.Line) (*corpus.Tally, error) {
	type answer struct {
		stopped bool
		what    string
		err     error
	}
	answers := make([]answer, len(lines))
	next := make(chan int)
	var wg sync.WaitGroup
	for range o.jobs {
		wg.Go(func() {
			for i := range next {
				s, what, err := ask(ctx, o, p, lines[i].Command)
				answers[i] = answer{s, what, err}
			}
		})
	}
	for i := range lines {
		next <- i
	}
	close(next)
	wg.Wait()
	var t corpus.Tally
	for i, l := range lines {
		if a := answers[i]; a.err != nil {
			return nil, fmt.Errorf("%q: %w", l.Command, a.err)
		}
		t.Add(l, answers[i].stopped, answers[i].what)
	}
	return &t, nil
}

// ask sends one line to p and reads its answer.
func ask(ctx context.Context, o options, p program, line string) (bool, string, error) {
	event, err := json.Marshal(corpus.Event(line, o.cwd))
	if err != nil {
		return false, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.argv[0], p.argv[1:]...)
	cmd.Dir = o.cwd
	cmd.Stdin = bytes.NewReader(event)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err = cmd.Run()
	exit := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return false, "", fmt.Errorf("no answer within %s", o.timeout)
	case errors.As(err, &ee):
		exit = ee.ExitCode()
	case err != nil:
		return false, "", err
	}
	stopped, what := corpus.Stopped(exit, stdout.Bytes())
	return stopped, what, nil
}
