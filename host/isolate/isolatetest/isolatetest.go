// Package isolatetest helps tests that load isolated files.
//
// A test binary built with the race detector makes a poor worker: the
// race runtime maps terabytes of shadow memory, which the worker's OS
// limits refuse, and under no limits a memory bomb would take real
// memory. So under -race, Worker builds the hookhost command without the
// detector and tests start their workers from it; otherwise the test
// binary itself is the worker (its TestMain calls
// isolate.RunWorkerIfRequested).
package isolatetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Worker returns the binary tests should start workers from ("" for the
// test binary itself) and a cleanup to call after the tests.
func Worker() (exe string, cleanup func(), err error) {
	if !raceBuild {
		return "", func() {}, nil
	}
	dir, err := os.MkdirTemp("", "hookhost-worker")
	if err != nil {
		return "", nil, err
	}
	exe = filepath.Join(dir, "hookhost")
	cmd := exec.Command("go", "build", "-o", exe, "github.com/hookhost/hookhost/cmd/hookhost")
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("building a worker binary: %v\n%s", err, out)
	}
	return exe, func() { os.RemoveAll(dir) }, nil
}

// Wrapper writes an executable shell script in dir that runs body, then
// execs the worker binary exe ("" for the running test binary) with its
// arguments, and returns the script's path: a worker whose start tests
// can slow down or make fail. Paths in body are the test's own; the
// worker's environment reaches exe unchanged.
func Wrapper(dir, exe, body string) (string, error) {
	if exe == "" {
		self, err := os.Executable()
		if err != nil {
			return "", err
		}
		exe = self
	}
	path := filepath.Join(dir, "worker.sh")
	script := "#!/bin/sh\n" + body + "\nexec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		return "", err
	}
	return path, nil
}
