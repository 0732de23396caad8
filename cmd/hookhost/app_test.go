package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestInterspersed(t *testing.T) {
	app := newApp(nil, nil, nil)
	for _, tc := range []struct{ in, want string }{
		{"fire ev {} --json", "fire --json -- ev {}"},
		{"fire --json ev {}", "fire --json -- ev {}"},
		{"fire ev --dir d {} --json", "fire --dir d --json -- ev {}"},
		{"fire ev -d d -", "fire -d d -- ev -"},
		{"fire ev --dir=d --json=false", "fire --dir=d --json=false -- ev"},
		{"fire --json -- ev --dir", "fire --json -- ev --dir"},
		{"fire ev --dir", "fire --dir"},
		{"fire ev {} --help", "fire --help"},
		{"fire ev -h", "fire -h"},
		{"fire --dir h ev", "fire --dir h -- ev"},
		{"fire ev -d help {}", "fire -d help -- ev {}"},
		{"fire --bogus ev", "fire --bogus -- ev"},
		{"list --json", "list --json"},
		{"--help fire ev --json", "--help fire --json -- ev"},
		{"help fire", "help fire"},
		{"nosuch ev --json", "nosuch ev --json"},
		{"-- fire ev --json", "-- fire ev --json"},
		{"", ""},
	} {
		args := append([]string{"hookhost"}, strings.Fields(tc.in)...)
		got := strings.Join(interspersed(app, args)[1:], " ")
		if got != tc.want {
			t.Errorf("interspersed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{failedErrorf("x"), 1},
		{usageErrorf("x"), 2},
		{fmt.Errorf("wrapped: %w", usageErrorf("x")), 2},
		{bareUsageError(errors.New("a.yaml:1: x")), 2},
		{cli.Exit("No help topic", 3), 2},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestPrintError(t *testing.T) {
	var b bytes.Buffer
	printError(&b, usageErrorf("fire: unknown event %q", "x"))
	printError(&b, bareUsageError(errors.Join(errors.New("a.yaml:1: one"), errors.New("a.yaml:2: two"))))
	want := "hookhost: fire: unknown event \"x\"\na.yaml:1: one\na.yaml:2: two\n"
	if b.String() != want {
		t.Errorf("printed %q, want %q", b.String(), want)
	}
}

func TestFlatten(t *testing.T) {
	a, b, c := errors.New("a"), errors.New("b"), errors.New("c")
	got := flatten(errors.Join(a, errors.Join(b, c)))
	if !reflect.DeepEqual(got, []error{a, b, c}) {
		t.Errorf("flatten = %v, want [a b c]", got)
	}
	if flatten(nil) != nil {
		t.Errorf("flatten(nil) is not nil")
	}
}

// runMain is what the scripts exercise through a process; this checks
// that it never needs one: buffers in, exit code out.
func TestRunMainInProcess(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runMain(context.Background(), []string{"hookhost", "fire", "--dir", t.TempDir(), "session.end", "-", "--json"},
		strings.NewReader(`{"session_id":"s"}`), &stdout, &stderr)
	if code != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	want := `{"event":"session.end","decision":{"action":"continue","reason":"","hook":""},` +
		`"payload":{"session_id":"s"},"messages":[],"trace":[]}` + "\n"
	if stdout.String() != want {
		t.Errorf("stdout = %q, want %q", stdout.String(), want)
	}
}

// TestOneShotGC: GOGC is raised for a one-shot agent command only when
// the environment chose no GOGC and the soft memory limit in force bounds
// the garbage at the heap budget (see applyOneShotGC).
func TestOneShotGC(t *testing.T) {
	const budget = 512 << 20
	for _, tc := range []struct {
		name      string
		gogc      string
		softLimit int64
		want      bool
	}{
		{"the config's limit", "", budget, true},
		{"a lower GOMEMLIMIT", "", budget / 2, true},
		{"a higher GOMEMLIMIT", "", budget + 1, false},
		{"no limit at all", "", math.MaxInt64, false},
		{"GOGC set", "100", budget, false},
		{"GOGC off", "off", budget, false},
	} {
		percent, ok := oneShotGC(tc.gogc, tc.softLimit, budget)
		if ok != tc.want || ok && percent != oneShotGCPercent {
			t.Errorf("%s: oneShotGC(%q, %d, %d) = %d, %v; want ok %v", tc.name, tc.gogc, tc.softLimit, budget, percent, ok, tc.want)
		}
	}
}

// An agent command tunes GOGC only in a process of its own (main's
// context, ownProcess): runMain run inside another process, as here,
// leaves that process's GOGC alone.
func TestOneShotGCOnlyInItsOwnProcess(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv(eventCacheEnv, "off")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	gogc := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	dir := t.TempDir()
	run := func(ctx context.Context) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		event := `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
		if code := runMain(ctx, []string{"hookhost", "claude", "--dir", dir}, strings.NewReader(event), &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	}
	run(context.Background())
	if got := gogc(); got != 100 {
		t.Fatalf("runMain inside another process set GOGC to %d", got)
	}
	run(ownProcess(context.Background()))
	if got := gogc(); got != oneShotGCPercent {
		t.Fatalf("in its own process: GOGC %d, want %d", got, oneShotGCPercent)
	}
}
