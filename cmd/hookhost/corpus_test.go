package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/bench/corpus"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter"
	"github.com/hookhost/hookhost/cmd/hookhost/internal/adapter/claude"
	"github.com/hookhost/hookhost/host"
)

// corpusTarget is the share of the corpus's stop lines the shipped
// guardrails must stop, and of its pass lines they must let through.
const corpusTarget = 0.95

// corpusWorkspace is the workspace (the event's cwd) every corpus line
// runs in: outside the system directories, the temporary directories
// and the home directory, as a project checkout is. The guardrails
// resolve paths lexically, so it need not exist.
const corpusWorkspace = "/work/project"

// TestCorpus runs bench/corpus's labeled shell lines through the shipped
// hooks.d as `hookhost claude` answers them — each line a Claude Code
// PreToolUse Bash event on stdin, the answer read as Claude Code reads
// it — and fails when the guardrails stop fewer than 95 % of the lines
// labeled stop or let through fewer than 95 % of those labeled pass,
// listing every line decided against its label.
func TestCorpus(t *testing.T) {
	lines, err := corpus.Lines()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{Dir: shippedDir, Config: generousDeadlines(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if p := h.Problems(); len(p) > 0 {
		t.Fatalf("the shipped hooks.d does not load: %v", p)
	}
	var tally corpus.Tally
	for _, l := range lines {
		stopped, what, err := claudeAnswer(ctx, h, l.Command)
		if err != nil {
			t.Fatalf("%q: %v", l.Command, err)
		}
		tally.Add(l, stopped, what)
	}
	total := tally.Total()
	var table strings.Builder
	if err := corpus.Table(&table, []string{"hookhost"}, []*corpus.Tally{&tally}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lines:\n%s", len(lines), table.String())
	met := total.StopRate() >= corpusTarget && total.PassRate() >= corpusTarget
	report := t.Logf // the misses are worth seeing even when the target is met
	if !met {
		report = t.Errorf
	}
	for _, m := range tally.Misses() {
		report("miss: %s, labeled %s, got %s: %s", m.Theme, m.Want, m.Got, m.Command)
	}
	if !met {
		t.Errorf("stopped %d of %d stop lines (%.1f %%), passed %d of %d pass lines (%.1f %%); want at least %.0f %% of each",
			total.Stopped, total.Stop, 100*total.StopRate(), total.Passed, total.Pass, 100*total.PassRate(), 100*corpusTarget)
	}
}

// claudeAnswer answers cmd as `hookhost claude` does, through h: the
// Claude Code event on stdin, RunCommand, and the answer and exit status
// read as Claude Code reads them (corpus.Stopped).
func claudeAnswer(ctx context.Context, h *host.Host, cmd string) (stopped bool, what string, err error) {
	event, err := json.Marshal(corpus.Event(cmd, corpusWorkspace))
	if err != nil {
		return false, "", err
	}
	var stdout bytes.Buffer
	err = adapter.RunCommand(ctx, adapter.CommandOptions{
		Dialect: claude.Dialect{},
		Connect: func(context.Context, adapter.Call) (adapter.Firer, error) { return keptOpen{h}, nil },
	}, bytes.NewReader(event), &stdout)
	exit := 0
	var f *adapter.Failure
	switch {
	case errors.As(err, &f):
		exit = f.Status
	case err != nil:
		return false, "", fmt.Errorf("hookhost claude: %w", err)
	}
	stopped, what = corpus.Stopped(exit, stdout.Bytes())
	return stopped, what, nil
}

// keptOpen is a host that RunCommand may close after each event while
// the test keeps using it.
type keptOpen struct{ *host.Host }

func (keptOpen) Close() error { return nil }
