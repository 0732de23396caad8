//go:build linux

package isolate

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// upgradeHostEnv makes the test binary a small host for
// TestWorkersSurviveUpgrade: its pool starts workers from the running
// program, as hookhost's does.
const upgradeHostEnv = "HOOKHOST_TEST_UPGRADE_HOST"

// runUpgradeHostIfRequested runs that host and exits, when the test
// started the binary as one.
func runUpgradeHostIfRequested() {
	if os.Getenv(upgradeHostEnv) != "" {
		upgradeHost()
		os.Exit(0)
	}
}

// upgradeHost says "ready", waits for a line on stdin (the test replaces
// its binary meanwhile), then starts a worker, calls a hook in it and
// prints the answer.
func upgradeHost() {
	fmt.Println("ready")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	pool := NewPool(Options{})
	defer pool.Close()
	prog, err := pool.Engine("a.lua", ".lua").Compile(context.Background(),
		scripting.Source{Name: "a.lua", Code: []byte(echoLua)}, &scripting.Env{})
	if err != nil {
		fmt.Println("compile:", err)
		return
	}
	defer prog.Close()
	v, err := prog.Hooks()[0].Func.Call(echoCall(30 * time.Second))
	fmt.Println("answer:", v, err)
}

// An upgrade that replaces the binary on disk while a host runs does not
// pair the old host with a new worker: workers start from the program
// the host runs (/proc/self/exe), not the file at its path.
func TestWorkersSurviveUpgrade(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	installed := filepath.Join(dir, "hookhost")
	copyFile(t, self, installed)
	cmd := exec.Command(installed)
	cmd.Env = append(os.Environ(), upgradeHostEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the host said %q, %v", line, err)
	}

	// The upgrade: another program takes the installed binary's place.
	next := filepath.Join(dir, "hookhost.new")
	if err := os.WriteFile(next, []byte("#!/bin/sh\necho 'the new build' >&2\nexit 7\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, installed); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(installed).Run(); err == nil || !strings.Contains(err.Error(), "exit status 7") {
		t.Fatalf("the installed file is not the new program: %v", err)
	}

	if _, err := io.WriteString(stdin, "go\n"); err != nil {
		t.Fatal(err)
	}
	answer, err := out.ReadString('\n')
	if err != nil || answer != "answer: hi <nil>\n" {
		t.Fatalf("the host's worker after the upgrade: %q, %v; want the hook's answer", answer, err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
