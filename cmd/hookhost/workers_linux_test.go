//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// No worker outlives its host: after serve ends — SIGTERM while an
// isolated hook spins in its worker, SIGKILL while it spins, SIGKILL
// while the workers are idle — every worker process it started is gone
// (SIGKILL leaves no chance to stop them: the parent-death signal does).
func TestServeWorkersDieWithHost(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		busy bool
	}{
		{"SIGTERM busy", syscall.SIGTERM, true},
		{"SIGKILL busy", syscall.SIGKILL, true},
		{"SIGKILL idle", syscall.SIGKILL, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "hooks.d")
			writeFiles(t, dir, map[string]string{
				"spin.lua":  `hook.on("turn.pre", function() print("spinning") while true do end end, { name = "spin", timeout = "60s" })`,
				"idle.star": "def idle():\n    pass\n\nhook.on(\"session.start\", idle)\n",
			})
			// The default limits.memory: a race-built worker (the test binary
			// under -race) needs more data segment than a tighter one gives.
			writeFiles(t, root, map[string]string{"hookhost.yaml": "defaults: { isolation: process }\n"})
			s := startServe(t, nil, "--dir", dir, "--config", filepath.Join(root, "hookhost.yaml"), "--shutdown-timeout", "1s")
			workers := workerProcesses(s.cmd.Process.Pid)
			if len(workers) != 2 {
				t.Fatalf("serve runs workers %v, want one per isolated file", workers)
			}
			if c.busy {
				s.fireInBackground("turn.pre", `{"prompt":"x"}`)
				s.waitLog("spinning")
			}
			s.signal(c.sig)
			s.wait()
			deadline := time.Now().Add(startupLimit)
			for _, pid := range workers {
				for !processGone(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("worker %d still runs %v after its host ended:\n%s", pid, startupLimit, s.log)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}

// workerProcesses lists the hookhost workers (their first argument
// names them) whose parent is pid.
func workerProcesses(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, ppid, ok := procStat(n); ok && ppid == pid {
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if strings.Contains(string(cmdline), "__hookhost_worker") {
				out = append(out, n)
			}
		}
	}
	return out
}

// processGone reports whether pid has exited (a zombie that nobody
// reaped has exited too).
func processGone(pid int) bool {
	state, _, ok := procStat(pid)
	return !ok || state == "Z" || state == "X"
}

// procStat reads a process's state and parent from /proc/PID/stat; the
// command name in parentheses may hold spaces, so fields are counted
// after its closing parenthesis.
func procStat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return f[0], ppid, err == nil
}
