package host

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrOutsideDir is the error of a name in the hooks directory that is a
// symlink leading outside it: DirFS does not follow it.
var ErrOutsideDir = errors.New("a symlink that leads outside the hooks directory")

// An OutsideError is DirFS's ErrOutsideDir (errors.Is matches it), with
// whether the link leads to a directory.
type OutsideError struct{ Dir bool }

// Error is ErrOutsideDir's text.
func (e *OutsideError) Error() string { return ErrOutsideDir.Error() }

// Is makes every OutsideError ErrOutsideDir.
func (e *OutsideError) Is(target error) bool { return target == ErrOutsideDir }

// DirFS serves the files of the directory dir, as os.DirFS does, but
// follows a symlink only when its target is inside dir: a Kubernetes
// ConfigMap's links (x.lua -> ..data/x.lua -> ..2026_01_01/x.lua) work,
// while a link to a file elsewhere (a secret, another user's script)
// fails with ErrOutsideDir and is never read. A host on Options.Dir reads
// its directory through it; an embedder that gives Options.FS for a
// directory should too.
//
// Every call opens dir afresh, so that a directory moved away, replaced
// or made unreadable is seen as such at once, as with os.DirFS; but while
// it is held (HoldDirFS), calls go through the one directory opened then.
func DirFS(dir string) fs.FS { return confinedFS{dir: dir, held: &heldRoot{}} }

// A SumFS is an fs.FS that has hashed the files it serves (the event
// cache's plan keys every script by its SHA-256 before the host loads
// it): ReadFileSum gives a file's content with the SHA-256 of exactly
// that content, which the host then uses to version the file and key its
// compiled program rather than hashing it again. The host uses it for
// the reads of a load that does not wait for files to settle.
type SumFS interface {
	fs.FS
	ReadFileSum(name string) ([]byte, [sha256.Size]byte, error)
}

type confinedFS struct {
	dir  string
	held *heldRoot
}

// A heldRoot is the directory of a DirFS while it is held: opened by the
// first hold, closed by the last release.
type heldRoot struct {
	mu    sync.RWMutex // write-locked to hold and release; read-locked by a call using root
	root  *os.Root
	holds int
}

// HoldDirFS opens the directory of fsys, a DirFS, once, and returns what
// ends the hold: until then every call of fsys goes through that open
// directory instead of opening it again (a load reads dozens of files,
// and opening a directory costs a few system calls each time). The
// confinement is the same: the open directory is an os.Root. A directory
// moved or replaced during the hold is seen as such once it ends; one
// that cannot be opened is not held (each call reports why). Holds nest;
// any other fs.FS is left as it is.
func HoldDirFS(fsys fs.FS) (release func()) {
	c, ok := fsys.(confinedFS)
	if !ok || c.held == nil {
		return func() {}
	}
	h := c.held
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holds == 0 {
		root, err := os.OpenRoot(c.dir)
		if err != nil {
			return func() {}
		}
		h.root = root
	}
	h.holds++
	var once sync.Once
	return func() { once.Do(h.release) }
}

func (h *heldRoot) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holds--; h.holds == 0 {
		h.root.Close()
		h.root = nil
	}
}

// open is the directory as an os.Root for one call, and what ends the
// call's use of it: the held one, or one opened for this call.
func (c confinedFS) open() (*os.Root, func(), error) {
	if c.held != nil {
		c.held.mu.RLock()
		if c.held.root != nil {
			return c.held.root, c.held.mu.RUnlock, nil
		}
		c.held.mu.RUnlock()
	}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return nil, nil, err
	}
	return root, func() { root.Close() }, nil
}

// Open implements fs.FS, confined to the directory (see do).
func (c confinedFS) Open(name string) (f fs.File, err error) {
	err = c.do("open", name, func(fsys fs.FS, name string) (err error) {
		f, err = fsys.Open(name)
		return err
	})
	return f, err
}

// ReadFile implements fs.ReadFileFS, confined to the directory.
func (c confinedFS) ReadFile(name string) (data []byte, err error) {
	err = c.do("read", name, func(fsys fs.FS, name string) (err error) {
		data, err = fs.ReadFile(fsys, name)
		return err
	})
	return data, err
}

// ReadDir implements fs.ReadDirFS, confined to the directory.
func (c confinedFS) ReadDir(name string) (entries []fs.DirEntry, err error) {
	err = c.do("readdir", name, func(fsys fs.FS, name string) (err error) {
		entries, err = fs.ReadDir(fsys, name)
		return err
	})
	return entries, err
}

// Stat implements fs.StatFS, confined to the directory.
func (c confinedFS) Stat(name string) (info fs.FileInfo, err error) {
	err = c.do("stat", name, func(fsys fs.FS, name string) (err error) {
		info, err = fs.Stat(fsys, name)
		return err
	})
	return info, err
}

// do runs op on name in an os.Root of the directory, which refuses any
// symlink that leaves it, and also every absolute one. When op fails for
// a reason other than a missing file or a permission, the name is
// resolved to tell an absolute link to a file inside (op runs again on
// the resolved name) from one that leads out (ErrOutsideDir).
func (c confinedFS) do(op, name string, run func(fs.FS, string) error) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	root, done, err := c.open()
	if err != nil {
		return err
	}
	defer done()
	err = run(root.FS(), name)
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return err
	}
	resolved, inside, rerr := c.resolve(name)
	switch {
	case rerr != nil:
		return err
	case !inside:
		// Only the target's type is looked at, never its content: a
		// directory linked in from outside may be a hook pack, whose
		// guards the host must not drop in silence (see OutsideError).
		info, serr := os.Stat(filepath.Join(c.dir, filepath.FromSlash(name)))
		return &fs.PathError{Op: op, Path: name, Err: &OutsideError{Dir: serr == nil && info.IsDir()}}
	case resolved == name:
		return err
	}
	// The resolved name holds no symlink; should one be swapped in
	// meanwhile, the root still refuses to leave the directory.
	return run(root.FS(), resolved)
}

// resolve follows every symlink of name and reports where it leads,
// relative to the directory, and whether that is inside it.
func (c confinedFS) resolve(name string) (resolved string, inside bool, err error) {
	dir, err := filepath.EvalSymlinks(c.dir)
	if err != nil {
		return "", false, err
	}
	target, err := filepath.EvalSymlinks(filepath.Join(c.dir, filepath.FromSlash(name)))
	if err != nil {
		return "", false, err
	}
	rel, err := filepath.Rel(dir, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false, nil
	}
	return filepath.ToSlash(rel), true, nil
}
