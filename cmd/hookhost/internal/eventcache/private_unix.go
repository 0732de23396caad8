//go:build unix

package eventcache

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether the process's user owns fi.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
