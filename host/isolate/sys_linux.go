package isolate

import "syscall"

// sysProcAttr makes a worker die with its host: the kernel sends it
// SIGKILL when the host dies, however it dies (SIGKILL included). Linux
// ties that signal to the thread that started the child, which Go only
// ends for a goroutine that locked its thread and never unlocked it;
// nothing in hookhost locks threads. Should it ever fire early, the
// worker's death is an ordinary one: restarted at once.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
