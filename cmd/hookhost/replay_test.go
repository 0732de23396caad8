package main

import (
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestReplayScripts runs the end-to-end tests of hookhost replay in
// testdata/replay/*.txtar: logs recorded by a real hookhost serve,
// replayed against changed policies.
func TestReplayScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/replay",
		RequireExplicitExec: true,
		Setup:               setupEnv,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits":    exits,
			"waitfile": waitFile,
		},
	})
}

// waitFile PATH waits until PATH exists (a socket a server in the
// background creates once it listens), failing after startupLimit.
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile PATH")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(startupLimit)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not appear within %s", args[0], startupLimit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
