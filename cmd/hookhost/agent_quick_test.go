package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quickAgent takes the agent command lines that need only their flags
// parsed, and leaves everything else to urfave/cli.
func TestQuickAgentTakes(t *testing.T) {
	for _, tc := range []struct {
		args string
		env  map[string]string
		want bool
	}{
		{args: "claude", want: true},
		{args: "claude --dir d --config c.yaml --log-level info", want: true},
		{args: "gemini -d d -c c.yaml --fail-closed --log l", want: true},
		{args: "codex --server auto --auto-idle-exit 1m --server-timeout=2s --print-settings", want: true},
		{args: "copilot --event preToolUse --dir d", want: true},
		{args: "cursor --dir d", want: true},
		{args: "claude --dir d --dir e", want: true}, // the last one wins, as in urfave/cli
		{args: "claude --fail-closed=false", want: true},
		{args: "claude", env: map[string]string{"HOOKHOST_SERVER": "auto", "HOOKHOST_DIR": "d"}, want: true},
		{args: "claude --dir", want: false},
		{args: "claude --help", want: false},
		{args: "claude -h", want: false},
		{args: "claude --bogus", want: false},
		{args: "claude extra", want: false},
		{args: "claude -- extra", want: false},
		{args: "claude --dir a -d b", want: false},
		{args: "claude --server-timeout soon", want: false},
		{args: "claude", env: map[string]string{"HOOKHOST_AUTO_IDLE_EXIT": "soon"}, want: false},
		{args: "fire tool.approve {}", want: false},
		{args: "help claude", want: false},
		{args: "--help claude", want: false},
		{args: "", want: false},
	} {
		t.Run(tc.args, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			args := append([]string{"hookhost"}, strings.Fields(tc.args)...)
			var out bytes.Buffer
			got := quickAgent(args, newRoot(strings.NewReader(""), &out, &out)) != nil
			if got != tc.want {
				t.Errorf("quickAgent(%q) took it: %v, want %v", tc.args, got, tc.want)
			}
		})
	}
	if quickAgent([]string{"hookhost", "claude"}, newRoot(nil, nil, nil)) != nil {
		t.Error("quickAgent took a command line without streams")
	}
}

// An agent command line answers the same, exit status, stdout and stderr,
// whether quickAgent or urfave/cli runs it.
func TestQuickAgentAnswersAsUrfave(t *testing.T) {
	dir := t.TempDir()
	guard := `hook.on("tool.execute.pre", function(tool_name, params)
  if (params.command or ""):find("rm -rf", 1, true) then return hook.deny("no rm -rf") end
end)
`
	if err := os.WriteFile(filepath.Join(dir, "guard.lua"), []byte(guard), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "bad.star"), []byte("def (:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(eventCacheEnv, "off")
	deny := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	allow := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, tc := range []struct{ args, stdin string }{
		{"claude --dir " + dir, deny},
		{"claude --dir " + dir, allow},
		{"gemini --dir " + dir, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`},
		{"codex --dir " + dir, deny},
		{"claude --dir " + dir, "not json"},
		{"claude --dir " + dir + " --fail-closed", "not json"},
		{"claude --dir " + broken + " --fail-closed", deny},
		{"claude --dir " + dir + " --log-level loud", deny},
		{"claude --dir " + dir + " --config " + filepath.Join(dir, "missing.yaml"), deny},
		{"claude --dir " + dir + " --server unix:" + filepath.Join(dir, "none.sock") + " --server-timeout 1s", deny},
		{"claude --dir " + dir + " --server ftp://x --fail-closed", deny},
		{"claude --dir " + dir + " --server auto --auto-idle-exit 0s", deny},
		{"claude -d " + dir + " -c x.yaml --server auto --auto-idle-exit 3m --server-timeout 4s --fail-closed --log l.txt --print-settings", ""},
		{"gemini --dir " + dir + " --print-settings", ""},
		{"codex --dir " + dir + " --server http://127.0.0.1:1 --print-settings", ""},
		{"cursor --dir " + dir, `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf /"}}`},
		{"copilot --event preToolUse --dir " + dir, `{"toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`},
		{"copilot --event preToolUse --dir " + dir, "not json"},
		{"copilot --dir " + dir, `{"toolName":"bash"}`},
		{"copilot --event Bogus --dir " + dir, `{"toolName":"bash"}`},
		{"copilot --dir " + dir + " --print-settings", ""},
		{"claude --help", ""},
		{"claude --dir a -d b", deny},
		{"claude extra", deny},
	} {
		t.Run(tc.args, func(t *testing.T) {
			args := append([]string{"hookhost"}, strings.Fields(tc.args)...)
			var qout, qerr, uout, uerr bytes.Buffer
			qcode := runMain(context.Background(), args, strings.NewReader(tc.stdin), &qout, &qerr)
			app := newApp(strings.NewReader(tc.stdin), &uout, &uerr)
			err := runApp(context.Background(), app, interspersed(app, args))
			if err != nil {
				printError(&uerr, err)
			}
			if ucode := exitCode(err); qcode != ucode || qout.String() != uout.String() || qerr.String() != uerr.String() {
				t.Errorf("quick: exit %d, stdout %q, stderr %q\nurfave/cli: exit %d, stdout %q, stderr %q",
					qcode, qout.String(), qerr.String(), ucode, uout.String(), uerr.String())
			}
		})
	}
}

// BenchmarkAgentCommandLine measures an agent command line from the
// arguments to its action (which fails at once here: stdin is no event),
// through quickAgent and through urfave/cli (docs/performance.md,
// "Command-hook start-up").
func BenchmarkAgentCommandLine(b *testing.B) {
	args := []string{"hookhost", "claude", "--dir", b.TempDir(), "--server", "auto", "--fail-closed"}
	b.Run("quick", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if runMain(context.Background(), args, strings.NewReader("x"), io.Discard, io.Discard) != exitUsage {
				b.Fatal("want exit 2")
			}
		}
	})
	b.Run("urfave", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			app := newApp(strings.NewReader("x"), io.Discard, io.Discard)
			if exitCode(runApp(context.Background(), app, interspersed(app, args))) != exitUsage {
				b.Fatal("want exit 2")
			}
		}
	})
}
