//go:build !linux

package isolate

import "syscall"

// sysProcAttr: only Linux can tie a worker's life to its host's; on
// other systems a worker ends when its input does (the host's exit
// closes it): it interrupts its calls past stopGrace and exits
// (server.finish).
func sysProcAttr() *syscall.SysProcAttr { return nil }
