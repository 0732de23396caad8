package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// guardSources are a deny of "rm -rf" giving reason, in each language.
var guardSources = map[string]func(reason string) string{
	"guard.star": func(reason string) string {
		return "def guard(params = {}):\n    if \"rm -rf\" in params.get(\"command\", \"\"):\n        return hook.deny(\"" + reason + "\")\n\nhook.on(\"tool.execute.pre\", guard)\n"
	},
	"guard.lua": func(reason string) string {
		return "hook.on(\"tool.execute.pre\", function(params)\n  if string.find(params.command or \"\", \"rm -rf\", 1, true) then\n    return hook.deny(\"" + reason + "\")\n  end\nend)\n"
	},
}

// The command hooks keep the programs they compile beside the event
// cache, in both languages: a later run decodes them instead of
// compiling; a program file that is damaged is compiled around and
// written again; another content or another config is another program.
func TestAgentProgramCache(t *testing.T) {
	for file, source := range guardSources {
		t.Run(file, func(t *testing.T) { testAgentProgramCache(t, file, source) })
	}
}

func testAgentProgramCache(t *testing.T, file string, source func(string) string) {
	work := t.TempDir()
	hooks := filepath.Join(work, "d")
	if err := os.Mkdir(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	writeGuard := func(reason string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(hooks, file), []byte(source(reason)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := filepath.Join(work, "cache", "events.txt")
	progDir := filepath.Join(work, "cache", "programs-v1")
	t.Setenv(eventCacheEnv, cache)
	run := func(wantReason string, extra ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		event := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
		args := append([]string{"hookhost", "claude", "--dir", hooks}, extra...)
		code := runMain(context.Background(), args, strings.NewReader(event), &stdout, &stderr)
		if code != 0 || !strings.Contains(stdout.String(), `"permissionDecisionReason":"`+wantReason+`"`) {
			t.Fatalf("exit %d, stdout %q, stderr %q; want the deny %q", code, stdout.String(), stderr.String(), wantReason)
		}
	}
	programs := func() map[string][]byte {
		t.Helper()
		out := map[string][]byte{}
		entries, _ := os.ReadDir(progDir)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(progDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = data
		}
		return out
	}
	writeGuard("no")
	run("no")
	first := programs()
	if len(first) != 1 {
		t.Fatalf("%d programs after the first run, want 1", len(first))
	}
	var name string
	var good []byte
	for name, good = range first {
	}
	path := filepath.Join(progDir, name)
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}
	run("no")
	if fi, err := os.Stat(path); err != nil || !fi.ModTime().Equal(past) {
		t.Errorf("the second run wrote the program again (%v): it did not use it", err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 1
	for _, bad := range [][]byte{flipped, good[:len(good)/2], {}, []byte("not a program")} {
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		run("no")
		if got := programs()[name]; !bytes.Equal(got, good) {
			t.Errorf("after a run over %d damaged bytes the program file holds %d bytes, want it rebuilt", len(bad), len(got))
		}
	}
	writeGuard("edited")
	run("edited")
	if n := len(programs()); n != 2 {
		t.Errorf("%d programs after an edit, want 2", n)
	}
	config := filepath.Join(work, "hookhost.yaml")
	if err := os.WriteFile(config, []byte("strict: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("edited", "--config", config)
	if n := len(programs()); n != 3 {
		t.Errorf("%d programs after a new config, want 3", n)
	}
}
