package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"
)

// The exit statuses of hookhost's own failures (docs/cli.md, "When
// hookhost itself fails"): none of them is 2, which agents read as a
// decision.

// A panic in a command is an internal error: exit 1, with the stack.
func TestExitOnPanic(t *testing.T) {
	app := newApp(nil, nil, nil)
	app.Commands = append(app.Commands, &cli.Command{Name: "boom", Action: func(*cli.Context) error { panic("boom") }})
	err := runApp(context.Background(), app, []string{"hookhost", "boom"})
	if got := exitCode(err); got != exitFailed {
		t.Fatalf("exit %d, want %d", got, exitFailed)
	}
	var b bytes.Buffer
	printError(&b, err)
	if !strings.HasPrefix(b.String(), "hookhost: internal error: boom (please report this)\n") || !strings.Contains(b.String(), "runApp") {
		t.Errorf("printed %q, want the panic and its stack", b.String())
	}
}

// failingWriter fails every write, as a closed pipe or a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// Output that cannot be written is a failure (exit 1) in every command.
func TestExitOnWriteFailure(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.lua"), []byte(`hook.on("tool.approve", function() return hook.allow() end)`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"fire", "--dir", dir, "tool.approve", "{}", "--json"},
		{"fire", "--dir", dir, "tool.approve", "{}"},
		{"list", "--dir", dir},
		{"list", "--dir", dir, "--json"},
		{"check", "--dir", dir},
	} {
		var stderr bytes.Buffer
		code := runMain(context.Background(), append([]string{"hookhost"}, args...), strings.NewReader(""), failingWriter{}, &stderr)
		if code != exitFailed || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 naming the write error", args, code, stderr.String())
		}
	}
}

// A fire the caller's context ends (SIGINT, SIGTERM) exits 1 and still
// prints what ran, with a fail-closed event's deny.
func TestExitOnInterruptedFire(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "spin.lua"), []byte(`
hook.on("tool.approve", function() print("spinning") while true do end end, { name = "spin", timeout = "60s" })`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The interrupt comes once the hook runs (it prints first), however
	// long the start-up took on a loaded machine.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	stderr := &cancelOnText{text: "spinning", cancel: cancel}
	code := runMain(ctx, []string{"hookhost", "fire", "--dir", dir, "--log-level", "info", "tool.approve", "--json"},
		strings.NewReader(""), &stdout, stderr)
	if code != exitFailed || !strings.Contains(stderr.String(), "fire interrupted") {
		t.Errorf("exit %d, stderr %q; want exit 1, fire interrupted", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"decision":{"action":"deny","reason":"hook spin.lua:spin the fire was cancelled`) ||
		!strings.Contains(stdout.String(), `"hook":"spin.lua:spin"`) {
		t.Errorf("stdout %q, want the partial result with the fail-closed deny", stdout.String())
	}
}

// cancelOnText is a writer that keeps what is written and cancels once
// text appears in it.
type cancelOnText struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (w *cancelOnText) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.text) {
		w.cancel()
	}
	return len(p), nil
}

func (w *cancelOnText) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
