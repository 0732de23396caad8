package autosock

import (
	"crypto/sha256"
	"errors"
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
	return filepath.Join(base, "serve-"+hexString(sum[:6])+".sock"), nil
}

// PrivateDir makes sure dir exists, is a directory (not a symlink), is
// owned by this user and is closed to everyone else.
func PrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return &dirError{dir: dir, what: "creating", err: err}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return errors.New(dir + " is not a directory")
	case !ok || int(st.Uid) != os.Getuid():
		return errors.New(dir + " is not owned by this user: not using it")
	case fi.Mode().Perm()&0o077 != 0:
		return errors.New(dir + " is open to other users (mode " + fi.Mode().Perm().String() + "): not using it")
	}
	return nil
}

// Trusted reports whether a socket served by uid may be trusted by the
// user self: the same user, or root.
func Trusted(uid uint32, self int) bool {
	return uid == uint32(self) || uid == 0
}

// A dirError is a failure to make the socket's directory.
type dirError struct {
	dir, what string
	err       error
}

// Error reads "what dir: why".
func (e *dirError) Error() string { return e.what + " " + e.dir + ": " + e.err.Error() }

// Unwrap gives the file system's error.
func (e *dirError) Unwrap() error { return e.err }

// hexString is b in lower-case hexadecimal (encoding/hex would link fmt
// into hookhost-hook).
func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
