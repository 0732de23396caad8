package main

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/replay"
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

// Progress goes to stderr only when asked for or when stderr is a
// terminal, a line at most every progressEvery.
func TestReplayProgress(t *testing.T) {
	var buf bytes.Buffer
	if newProgress(&buf, false) != nil {
		t.Fatal("progress on a stderr that is not a terminal, unasked")
	}
	p := newProgress(&buf, true)
	if p == nil {
		t.Fatal("no progress with --progress")
	}
	s := replay.Summary{Fires: 64, Changed: 3, Unreplayable: 1}
	p.fired(s, "a.jsonl") // not due yet
	if buf.Len() != 0 {
		t.Fatalf("progress before its time: %q", buf.String())
	}
	p.next = time.Now().Add(-time.Second)
	s.Fires = 63
	p.fired(s, "a.jsonl") // the clock is read every 64 fires only
	if buf.Len() != 0 {
		t.Fatalf("progress off the 64th fire: %q", buf.String())
	}
	s.Fires = 128
	p.fired(s, "a.jsonl")
	want := "replay: a.jsonl: 128 fires replayed, 3 changed, 1 unreplayable lines so far\n"
	if buf.String() != want {
		t.Fatalf("progress %q, want %q", buf.String(), want)
	}
	p.fired(replay.Summary{Fires: 192}, "a.jsonl")
	if buf.String() != want {
		t.Errorf("a second line within %s: %q", progressEvery, buf.String())
	}
}
