package main

import (
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookhost/hookhost/host/isolate"
)

// TestMain makes the test binary double as the hookhost command, so the
// scripts' "exec hookhost" runs this package's main.
func TestMain(m *testing.M) {
	isolate.RunWorkerIfRequestedWith(workerOptions()) // the workers of isolated files
	testscript.Main(removingBuilt{m}, map[string]func(){"hookhost": main})
}

// TestScripts runs the end-to-end CLI tests in testdata/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		Setup:               setupEnv,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits":         exits,
			"zerodurations": zeroDurations,
		},
	})
}

// setupEnv keeps the race detector (go test -race) from sleeping a
// second at the exit of every hookhost the scripts run.
func setupEnv(env *testscript.Env) error {
	env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return nil
}

// exits N PROGRAM [ARGS...] runs PROGRAM as exec does and checks that
// it exits with status N; stdout and stderr are kept for the commands
// that follow.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	var ee *exec.ExitError
	if err := ts.Exec(args[1], args[2:]...); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else {
		ts.Check(err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// durationField matches the trace's duration_ms, the one field of the
// fire --json object that varies from run to run.
var durationField = regexp.MustCompile(`"duration_ms":(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`)

// zeroDurations FILE OUT copies FILE (stdout and stderr name the last
// command's) to OUT with every duration_ms set to 0, so the rest of a
// fire --json object can be compared exactly with cmp. It fails when
// FILE has no duration_ms.
func zeroDurations(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: zerodurations FILE OUT")
	}
	in := ts.ReadFile(args[0])
	if !durationField.MatchString(in) {
		ts.Fatalf("%s has no duration_ms", args[0])
	}
	out := durationField.ReplaceAllString(in, `"duration_ms":0`)
	ts.Check(writeFile(ts.MkAbs(args[1]), out))
}

func writeFile(path, data string) error { return os.WriteFile(path, []byte(data), 0o644) }
