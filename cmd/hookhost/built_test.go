package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// builtOnce is the hookhost binary that the tests run where the test
// binary will not do: under a memory cap the race detector's runtime does
// not fit in, or where the build as it ships is what is tested. It is
// built once per test process, as the README documents it (static, with
// documentedTags), because each build costs seconds, and removed when the
// tests end (TestMain).
var builtOnce struct {
	sync.Once
	dir, path string
	err       error
}

// builtHookhost returns the path of that binary, building it on first use.
func builtHookhost(tb testing.TB) string {
	tb.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hookhost-built-")
		if err != nil {
			builtOnce.err = err
			return
		}
		builtOnce.dir, builtOnce.path = dir, filepath.Join(dir, "hookhost")
		cmd := exec.Command("go", "build", "-tags", documentedTags, "-o", builtOnce.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			builtOnce.err = fmt.Errorf("building hookhost: %w\n%s", err, out)
		}
	})
	if builtOnce.err != nil {
		tb.Fatal(builtOnce.err)
	}
	return builtOnce.path
}

// removingBuilt runs the tests, then removes the binary they built.
type removingBuilt struct{ m *testing.M }

func (r removingBuilt) Run() int {
	defer func() {
		if builtOnce.dir != "" {
			os.RemoveAll(builtOnce.dir)
		}
	}()
	return r.m.Run()
}
