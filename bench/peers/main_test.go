package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/bench/corpus"
)

// fakeGuard is a command hook that denies a line holding "rm -rf" by
// JSON, blocks one holding "reboot" by exit status 2, and fails (exit
// 1, which lets the call run) on one holding "fail".
const fakeGuard = `in=$(cat)
case "$in" in
*'rm -rf'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}' ;;
*reboot*) exit 2 ;;
*fail*) exit 1 ;;
esac
`

func TestRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.sh")
	if err := os.WriteFile(script, []byte(fakeGuard), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := []corpus.Line{
		{Command: "rm -rf /", Want: corpus.Stop, Theme: "rm"},
		{Command: "reboot", Want: corpus.Stop, Theme: "machine"},
		{Command: "fail please", Want: corpus.Stop, Theme: "machine"},
		{Command: "ls", Want: corpus.Pass, Theme: "rm"},
	}
	var out strings.Builder
	o := options{cwd: dir, tools: tools{{name: "fake", argv: []string{"/bin/sh", script}}}, jobs: 2, timeout: time.Minute}
	if err := run(context.Background(), o, lines, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| rm | 1 / 1 | 100.0 % | 100.0 % |",
		"| machine | 2 / 0 | 50.0 % | — |",
		"| **all** | 3 / 1 | 66.7 % | 100.0 % |",
		"fake: 1 lines decided against their label",
		"got exit 1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunRefuses(t *testing.T) {
	dir := t.TempDir()
	good := tools{{name: "x", argv: []string{"/bin/true"}}}
	for _, c := range []struct {
		name string
		o    options
	}{
		{"no cwd", options{tools: good, jobs: 1}},
		{"no tool", options{cwd: dir, jobs: 1}},
		{"no jobs", options{cwd: dir, tools: good}},
		{"cwd missing", options{cwd: filepath.Join(dir, "nope"), tools: good, jobs: 1}},
	} {
		if err := run(context.Background(), c.o, nil, &strings.Builder{}); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	var ts tools
	if err := ts.Set("noequals"); err == nil {
		t.Error(`-tool "noequals": no error`)
	}
	if err := ts.Set("a=prog  arg"); err != nil || len(ts) != 1 || len(ts[0].argv) != 2 {
		t.Errorf("-tool a=prog arg: %v %v", ts, err)
	}
}
