package autosock

import (
	"errors"
	"hash/fnv"
	"path"
	"strconv"
	"syscall"
)

// Path is the socket of the server for the hooks directory dir and the
// config file config (both absolute, as Abs makes them; config may be
// empty): $XDG_RUNTIME_DIR/hookhost/, or else $TMPDIR/hookhost-UID/
// (/tmp without $TMPDIR), holds one socket per directory and config.
// The directory is created with mode 0700 and must be the user's own and
// closed to others (PrivateDir).
//
// The name is a hash of the two paths. It only has to keep apart the
// servers of one user, in a directory no one else can write to, so a
// cryptographic hash buys nothing here, and package crypto's start-up
// would be paid by every run of hookhost-hook (see doc.go).
func Path(dir, config string) (string, error) {
	base := path.Join(tempDir(), "hookhost-"+strconv.Itoa(syscall.Getuid()))
	if rt, _ := syscall.Getenv("XDG_RUNTIME_DIR"); path.IsAbs(rt) {
		base = path.Join(rt, "hookhost")
	}
	if err := PrivateDir(base); err != nil {
		return "", err
	}
	h := fnv.New128a()
	h.Write([]byte(dir + "\x00" + config))
	return path.Join(base, "serve-"+hexString(h.Sum(nil)[:6])+".sock"), nil
}

// tempDir is os.TempDir on Unix: $TMPDIR, else /tmp.
func tempDir() string {
	if dir, _ := syscall.Getenv("TMPDIR"); dir != "" {
		return dir
	}
	return "/tmp"
}

// PrivateDir makes sure dir exists, is a directory (not a symlink), is
// owned by this user and is closed to everyone else.
func PrivateDir(dir string) error {
	if err := syscall.Mkdir(dir, 0o700); err != nil && err != syscall.EEXIST {
		return &dirError{dir: dir, what: "creating", err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		return &dirError{dir: dir, what: "reading", err: err}
	}
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFDIR:
		return errors.New(dir + " is not a directory")
	case int(st.Uid) != syscall.Getuid():
		return errors.New(dir + " is not owned by this user: not using it")
	case st.Mode&0o077 != 0:
		return errors.New(dir + " is open to other users (mode " + permString(uint32(st.Mode)) + "): not using it")
	}
	return nil
}

// Abs is filepath.Abs on Unix, which both clients name their paths with
// before Path hashes them: a relative path is joined to the working
// directory, which is $PWD when that names the same directory (as
// os.Getwd has it: a directory reached through a symbolic link keeps
// that name), and the result is cleaned.
func Abs(p string) (string, error) {
	if path.IsAbs(p) {
		return path.Clean(p), nil
	}
	wd, err := getwd()
	if err != nil {
		return "", err
	}
	return path.Join(wd, p), nil
}

// getwd is os.Getwd on Unix.
func getwd() (string, error) {
	var dot syscall.Stat_t
	if err := syscall.Stat(".", &dot); err != nil {
		return "", &dirError{dir: ".", what: "reading", err: err}
	}
	if pwd, _ := syscall.Getenv("PWD"); path.IsAbs(pwd) {
		var st syscall.Stat_t
		if syscall.Stat(pwd, &st) == nil && st.Dev == dot.Dev && st.Ino == dot.Ino {
			return pwd, nil
		}
	}
	for {
		wd, err := syscall.Getwd()
		if err != syscall.EINTR {
			if err != nil {
				return "", &dirError{dir: ".", what: "naming", err: err}
			}
			return wd, nil
		}
	}
}

// Trusted reports whether a socket served by uid may be trusted by the
// user self: the same user, or root.
func Trusted(uid uint32, self int) bool {
	return uid == uint32(self) || uid == 0
}

// A dirError is a failure to make, read or name a directory.
type dirError struct {
	dir, what string
	err       error
}

// Error reads "what dir: why".
func (e *dirError) Error() string { return e.what + " " + e.dir + ": " + e.err.Error() }

// Unwrap gives the system's error (a syscall.Errno, which errors.Is
// matches against fs.ErrNotExist and the like).
func (e *dirError) Unwrap() error { return e.err }

// permString is a file's permission bits as fs.FileMode's Perm().String()
// gives them: -rwxr-xr-x.
func permString(mode uint32) string {
	const rwx = "rwxrwxrwx"
	out := []byte("----------")
	for i := range 9 {
		if mode&(1<<(8-i)) != 0 {
			out[i+1] = rwx[i]
		}
	}
	return string(out)
}

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
