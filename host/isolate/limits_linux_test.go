//go:build linux

package isolate

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// SetLimits replaces the running workers: the new process runs under the
// new data limit, and calls work on it.
func TestSetLimitsReplacesWorkers(t *testing.T) {
	pool := NewPool(Options{Executable: testWorker, Limits: OSLimits{Data: 256 << 20}})
	defer pool.Close()
	prog, hook := compileEcho(t, pool)
	first := pidOf(t, prog.w, 0)
	if got := dataLimit(t, first); got != strconv.Itoa(256<<20) {
		t.Fatalf("the first worker's data limit is %s", got)
	}
	pool.SetLimits(OSLimits{Data: 256 << 20}) // unchanged: nothing happens
	if pid := pidOf(t, prog.w, 0); pid != first {
		t.Fatalf("equal limits replaced worker %d by %d", first, pid)
	}
	pool.SetLimits(OSLimits{Data: 300 << 20})
	second := pidOf(t, prog.w, first)
	if got := dataLimit(t, second); got != strconv.Itoa(300<<20) {
		t.Errorf("the new worker's data limit is %s, want %d", got, 300<<20)
	}
	if v, err := hook.Func.Call(echoCall(10 * time.Second)); err != nil || v != "hi" {
		t.Fatalf("a call on the new worker: %v, %v", v, err)
	}
}

// dataLimit is the soft RLIMIT_DATA of process pid, as /proc shows it.
func dataLimit(t *testing.T, pid int) string {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "Max data size"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	t.Fatalf("no data limit in %s", data)
	return ""
}
