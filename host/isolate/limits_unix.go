//go:build linux || darwin || freebsd

package isolate

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// apply sets the limits on the calling process, before any script runs.
// Each limit is set hard, so nothing later can raise it.
func (l OSLimits) apply() error {
	set := func(name string, res int, v uint64) error {
		var cur syscall.Rlimit
		if err := syscall.Getrlimit(res, &cur); err == nil && cur.Max < v {
			v = cur.Max // a limit the worker inherited is already tighter
		}
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: v, Max: v}); err != nil {
			return fmt.Errorf("setting %s to %d: %w", name, v, err)
		}
		return nil
	}
	as := l.AddressSpace
	if as == 0 && l.Data > 0 {
		as = reserved() + l.Data + addressMargin
	}
	if as > 0 && !raceBuild {
		if err := set("RLIMIT_AS", syscall.RLIMIT_AS, uint64(as)); err != nil {
			return err
		}
	}
	if l.Data > 0 {
		if err := set("RLIMIT_DATA", syscall.RLIMIT_DATA, uint64(l.Data)); err != nil {
			return err
		}
	}
	if l.CPU > 0 {
		if err := set("RLIMIT_CPU", syscall.RLIMIT_CPU, uint64(l.CPU.Seconds())); err != nil {
			return err
		}
	}
	closeInherited()
	files := uint64(l.Files)
	if files == 0 {
		files = openFiles()
	}
	return set("RLIMIT_NOFILE", syscall.RLIMIT_NOFILE, files)
}

// closeInherited closes the descriptors the worker inherited beyond its
// standard streams: a parent's descriptor without close-on-exec leaks
// into every child. The Go runtime opens its own with close-on-exec, so
// those stay.
func closeInherited() {
	for fd := 3; fd < 1024; fd++ {
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
		if errno == 0 && flags&syscall.FD_CLOEXEC == 0 {
			_ = syscall.Close(fd)
		}
	}
}

// openFiles is one more than the highest descriptor open now (at least
// the three standard streams): with RLIMIT_NOFILE there, every open,
// socket or pipe fails.
func openFiles() uint64 {
	high := 2
	for fd := 3; fd < 1024; fd++ {
		if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); errno == 0 {
			high = fd
		}
	}
	return uint64(high + 1)
}

// reserved is the address space the process has mapped now (VmSize), or
// a generous guess where /proc does not say.
func reserved() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
				var kb int64
				if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 8 << 30
}
