package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/decisionlog"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/replay"
	"github.com/hookhost/hookhost/host/wire"
)

// replayOptions are the options of hookhost replay.
type replayOptions struct {
	commonOptions
	// JSON prints one JSON object per changed fire.
	JSON bool
	// Since and Until are the window of recorded times (RFC 3339), as
	// given; Limit bounds the fires replayed.
	Since, Until string
	Limit        int
	// Progress reports progress on stderr even when it is not a terminal.
	Progress bool
	// Logs are the decision logs, in order; "-" is stdin.
	Logs []string

	window replay.Options
}

// progressEvery is how often progress is reported.
const progressEvery = 2 * time.Second

func newReplayCommand() *cli.Command {
	opts := &replayOptions{}
	return &cli.Command{
		Name:      "replay",
		Usage:     "re-decide the fires of a decision log against the hooks, and show what changed",
		ArgsUsage: "LOG...",
		UsageText: "hookhost replay [--dir DIR] [--config FILE] [--json] [--since T] [--until T] [--limit N] [--progress] LOG...",
		Description: "Reads decision logs written by hookhost serve --decision-log-payload (several files are\n" +
			"read in order; \"-\" reads stdin; gzip-compressed files are read as they are), fires each\n" +
			"line's event and payload through the hooks of DIR with its config, one fire after another,\n" +
			"and prints each fire whose final action differs from the recorded one: its time, event and\n" +
			"payload, then the decision before → after. The last line counts them: \"N fires replayed,\n" +
			"M changed (X newly denied, Y no longer denied, Z other)\". With --json each change is one\n" +
			"JSON object on stdout (time, event, payload, before, after, log, line) and the summary goes\n" +
			"to stderr. Hooks see each fire's recorded time as the current time; the state module starts\n" +
			"empty, so rate-limit decisions may differ from the recorded ones.\n" +
			"Exit status: 0 when nothing changed, 1 when a decision changed, 2 when a line could not be\n" +
			"replayed (each is named LOG:LINE: why on stderr, and the other lines are still replayed),\n" +
			"a hook file did not load, or the flags are wrong.\n\n" +
			"Examples:\n" +
			"   hookhost replay --dir ./hooks.d.new decisions.jsonl\n" +
			"   hookhost replay --config candidate.yaml --since 2026-12-01T00:00:00Z decisions.jsonl.1 decisions.jsonl\n" +
			"   zcat decisions.jsonl.*.gz | hookhost replay --json - > changes.jsonl",
		Flags: append(opts.flags(),
			&cli.BoolFlag{Name: "json", Destination: &opts.JSON, Usage: "print one JSON object per changed fire; the summary goes to stderr"},
			&cli.StringFlag{Name: "since", Destination: &opts.Since, Usage: "replay the fires recorded at `TIME` (RFC 3339) or later"},
			&cli.StringFlag{Name: "until", Destination: &opts.Until, Usage: "replay the fires recorded before `TIME` (RFC 3339)"},
			&cli.IntFlag{Name: "limit", Destination: &opts.Limit, Usage: "stop after `N` fires (0: no limit)"},
			&cli.BoolFlag{Name: "progress", Destination: &opts.Progress,
				Usage: "report progress on stderr every few seconds (the default when stderr is a terminal)"}),
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			if err := opts.validate(c.Args().Slice()); err != nil {
				return err
			}
			return runReplay(c.Context, opts, c.App.Reader, c.App.Writer, c.App.ErrWriter)
		},
	}
}

// validate checks the flags and takes the logs.
func (o *replayOptions) validate(args []string) error {
	if len(args) == 0 {
		return usageErrorf("replay: want at least one decision log (- for stdin) (see hookhost replay --help)")
	}
	stdin := 0
	for _, a := range args {
		if a == wire.StdinPayload {
			stdin++
		}
	}
	if stdin > 1 {
		return usageErrorf("replay: stdin (-) can be read once")
	}
	o.Logs = args
	var err error
	if o.window.Since, err = parseWindow("--since", o.Since); err != nil {
		return err
	}
	if o.window.Until, err = parseWindow("--until", o.Until); err != nil {
		return err
	}
	if !o.window.Since.IsZero() && !o.window.Until.IsZero() && !o.window.Since.Before(o.window.Until) {
		return usageErrorf("--since %s is not before --until %s: the window is empty", o.Since, o.Until)
	}
	if o.Limit < 0 {
		return usageErrorf("--limit %d: cannot be negative", o.Limit)
	}
	o.window.Limit = o.Limit
	return o.commonOptions.validate()
}

func parseWindow(flag, value string) (time.Time, error) {
	if value == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, value)
	if err != nil {
		return t, usageErrorf("%s %q: want an RFC 3339 time, such as 2026-12-01T09:00:00Z", flag, value)
	}
	return t, nil
}

// A replayLog is one of the logs to replay, opened.
type replayLog struct {
	name string
	r    io.Reader
	c    io.Closer // nil for stdin
}

// openLogs opens every log before the replay starts, so that a name
// mistyped fails at once. Gzip-compressed logs (rotated ones) are read
// through gzip.
func openLogs(names []string, stdin io.Reader) ([]replayLog, func(), error) {
	var logs []replayLog
	closeAll := func() {
		for _, l := range logs {
			if l.c != nil {
				l.c.Close()
			}
		}
	}
	for _, name := range names {
		l := replayLog{name: name, r: stdin}
		if name == wire.StdinPayload {
			l.name = "stdin"
			if stdin == nil {
				l.r = strings.NewReader("") // no stdin: an empty log
			}
		} else {
			f, err := os.Open(name)
			if err != nil {
				closeAll()
				return nil, nil, usageErrorf("replay: %v", err)
			}
			l.r, l.c = f, f
		}
		r, err := maybeGzip(l.r)
		if err != nil {
			if l.c != nil {
				l.c.Close()
			}
			closeAll()
			return nil, nil, usageErrorf("replay: %s: %v", l.name, err)
		}
		l.r = r
		logs = append(logs, l)
	}
	return logs, closeAll, nil
}

// maybeGzip reads r through gzip when it starts with gzip's magic bytes.
func maybeGzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil // too short to be gzip, or not gzip: the reader says what it is
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("reading gzip: %w", err)
	}
	return zr, nil
}

// runReplay replays the logs through one host and reports the changes.
func runReplay(ctx context.Context, opts *replayOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	logs, closeLogs, err := openLogs(opts.Logs, stdin)
	if err != nil {
		return err
	}
	defer closeLogs()
	cfg, err := opts.loadConfig()
	if err != nil {
		return err
	}
	clock := replay.NewClock(time.Now())
	opts.now = clock.Now
	h, loaded, err := opts.newHost(ctx, cfg, stderr, stderr)
	if err != nil {
		return err
	}
	defer h.Close()

	out := newBufferedOut(stdout)
	p := &replay.Replayer{Firer: h, Options: opts.window, Clock: clock,
		OnChange: func(c replay.Change) error { return printChange(out, opts.JSON, c) },
		OnBad: func(b *replay.BadLine) {
			out.flush() // the changes before it come first when both streams are one
			fmt.Fprintln(stderr, b)
		}}
	prog := newProgress(stderr, opts.Progress)
	var where string
	if prog != nil {
		p.OnFire = func(s replay.Summary) { prog.fired(s, where) }
	}
	unreadable := 0
	for _, l := range logs {
		where = l.name
		err := p.Replay(ctx, l.name, l.r)
		if ctx.Err() != nil {
			out.flush()
			return failedErrorf("replay interrupted after %s", p.Summary())
		}
		if err != nil {
			out.flush()
			fmt.Fprintf(stderr, "hookhost: replay: %v\n", err)
			unreadable++
		}
		if p.Done() {
			break
		}
	}
	out.flush()
	s := p.Summary()
	if opts.JSON {
		fmt.Fprintln(stderr, s)
	} else {
		fmt.Fprintln(out, s)
		out.flush()
	}
	if out.err != nil {
		return failedErrorf("replay: writing: %v", out.err)
	}
	switch bad := s.Unreplayable + unreadable; {
	case bad > 0 || loaded.n > 0:
		if bad > 0 {
			fmt.Fprintf(stderr, "hookhost: replay: %d %s could not be replayed\n", bad, plural(bad, "line", "lines"))
		}
		if loaded.n > 0 {
			fmt.Fprintf(stderr, "hookhost: replay: the policy has %d %s (above: hook files that did not load, config entries that match nothing); "+
				"the replay is not of the policy as written\n", loaded.n, plural(loaded.n, "problem", "problems"))
		}
		return &exitError{code: exitUsage, err: errors.New("")}
	case s.Changed > 0:
		return &exitError{code: exitFailed, err: errors.New("")}
	}
	return nil
}

// printChange writes one changed fire: a JSON object, or two lines of
// text (when, what, and the decision before → after).
func printChange(w *bufferedOut, asJSON bool, c replay.Change) error {
	if asJSON {
		wire.WriteJSONLine(w, c)
	} else {
		fmt.Fprintf(w, "%s %s %s\n    %s → %s\n", c.Time, c.Event, replay.Short(c.Decoded), side(c.Before), side(c.After))
	}
	return w.err
}

// A bufferedOut is stdout, buffered, keeping the first write or flush
// error.
type bufferedOut struct {
	errWriter
	buf *bufio.Writer
}

func newBufferedOut(w io.Writer) *bufferedOut {
	buf := bufio.NewWriter(w)
	return &bufferedOut{errWriter: errWriter{w: buf}, buf: buf}
}

func (o *bufferedOut) flush() {
	if o.err == nil {
		o.err = o.buf.Flush()
	}
}

// side is a decision as text: its action, the hook that decided and the
// reason it gave.
func side(d decisionlog.Decision) string {
	s := string(d.Action)
	if d.Hook != "" {
		s += " by " + d.Hook
	}
	if d.Reason != "" {
		s += " " + strconv.Quote(d.Reason)
	}
	return s
}

// A progress reports, every progressEvery, how far the replay is.
type progress struct {
	w    io.Writer
	next time.Time
}

// newProgress is the progress reporter: nil unless forced or stderr is
// a terminal.
func newProgress(stderr io.Writer, force bool) *progress {
	if !force && !isTerminal(stderr) {
		return nil
	}
	return &progress{w: stderr, next: time.Now().Add(progressEvery)}
}

func (p *progress) fired(s replay.Summary, log string) {
	if s.Fires%64 != 0 {
		return // the clock is read every 64 fires
	}
	if now := time.Now(); now.After(p.next) {
		p.next = now.Add(progressEvery)
		fmt.Fprintf(p.w, "replay: %s: %d fires replayed, %d changed, %d unreplayable lines so far\n",
			log, s.Fires, s.Changed, s.Unreplayable)
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
