//go:build unix

package doctor

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd run in its own process group and be killed with
// it, so that a hook's children (sh -c starts one) die at the timeout too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
