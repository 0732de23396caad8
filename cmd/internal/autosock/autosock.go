package autosock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Path is the socket of the server for the hooks directory dir and the
// config file config (both absolute; config may be empty):
// $XDG_RUNTIME_DIR/hookhost/, or else /tmp/hookhost-UID/, holds one
// socket per directory and config. The directory is created with mode
// 0700 and must be the user's own and closed to others (PrivateDir).
func Path(dir, config string) (string, error) {
	base := filepath.Join(os.TempDir(), "hookhost-"+strconv.Itoa(os.Getuid()))
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		base = filepath.Join(rt, "hookhost")
	}
	if err := PrivateDir(base); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(dir + "\x00" + config))
	return filepath.Join(base, "serve-"+hex.EncodeToString(sum[:6])+".sock"), nil
}

// PrivateDir makes sure dir exists, is a directory (not a symlink), is
// owned by this user and is closed to everyone else.
func PrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s is not owned by this user: not using it", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s is open to other users (mode %v): not using it", dir, fi.Mode().Perm())
	}
	return nil
}

// Trusted reports whether a socket served by uid may be trusted by the
// user self: the same user, or root.
func Trusted(uid uint32, self int) bool {
	return uid == uint32(self) || uid == 0
}
