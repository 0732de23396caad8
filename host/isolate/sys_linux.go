package isolate

import "syscall"

// sysProcAttr makes a worker die with its host.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
