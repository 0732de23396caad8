//go:build !linux

package isolate

import "syscall"

// sysProcAttr: only Linux can tie a worker's life to its host's; on
// other systems a worker ends when its input does, at the host's exit.
func sysProcAttr() *syscall.SysProcAttr { return nil }
