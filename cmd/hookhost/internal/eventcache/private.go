package eventcache

import (
	"errors"
	"io/fs"
	"os"
)

// A cache tells a command hook which files it need not compile and hands
// it compiled programs, so it is used only where nobody but the user can
// change it: a cache directory, cache file or program directory that
// another user could write (group- or world-writable, or owned by
// someone else), as ssh refuses such key files, turns the cache off for
// that run — every file is compiled — rather than be trusted.
// (The user's own processes, an agent included, can still write there;
// see docs/integrations/claude-code.md.)

// private reports whether path, when it exists, can be changed by no
// one but the user. A path that does not exist is private: the cache
// creates it with mode 0700 or 0600.
func private(path string) bool {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	return ownedByUser(fi)
}
