package host

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// A held DirFS keeps its confinement: links inside are followed (a
// ConfigMap's, an absolute one), a link out is refused without reading
// its target, even one swapped in while the directory is held, and it
// conforms to fs.FS.
func TestHeldDirFSConfined(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(out, "secret.lua"), "SECRET")
	configMapTree(t, dir)
	writeFile(t, filepath.Join(dir, "swapped.lua"), denyLua("swapped"))

	fsys := DirFS(dir)
	release := HoldDirFS(fsys)
	defer release()
	if err := fstest.TestFS(fsys, "x.lua", "abs.star", "p/HOOK.md", "p/y.star", "..2026_01_01/x.lua", "swapped.lua"); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(out, "secret.lua"), filepath.Join(dir, "out.lua"))
	refused := func(name string) {
		t.Helper()
		data, err := fs.ReadFile(fsys, name)
		if !errors.Is(err, ErrOutsideDir) || len(data) != 0 {
			t.Fatalf("%s: %q, %v; want ErrOutsideDir and nothing read", name, data, err)
		}
		if _, err := fsys.Open(name); !errors.Is(err, ErrOutsideDir) {
			t.Fatalf("open %s: %v, want ErrOutsideDir", name, err)
		}
	}
	refused("out.lua")
	if data, err := fs.ReadFile(fsys, "swapped.lua"); err != nil || string(data) != denyLua("swapped") {
		t.Fatalf("swapped.lua before the swap: %q, %v", data, err)
	}
	if err := os.Remove(filepath.Join(dir, "swapped.lua")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(out, "secret.lua"), filepath.Join(dir, "swapped.lua"))
	refused("swapped.lua")
	for _, name := range []string{"/x.lua", "../x.lua", "p/../x.lua"} {
		if _, err := fsys.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("%s: %v, want an invalid path", name, err)
		}
	}
}

// A held DirFS reads the directory it opened until the last hold ends
// (holds nest), then opens its path afresh for each call, as DirFS does:
// a directory moved away during the hold is seen as gone after it.
func TestHeldDirFSRelease(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hooks.d")
	writeFile(t, filepath.Join(dir, "g.lua"), denyLua("g"))
	fsys := DirFS(dir)
	outer := HoldDirFS(fsys)
	inner := HoldDirFS(fsys)
	if err := os.Rename(dir, filepath.Join(t.TempDir(), "moved")); err != nil {
		t.Fatal(err)
	}
	read := func(when string, wantErr error) {
		t.Helper()
		data, err := fs.ReadFile(fsys, "g.lua")
		switch {
		case wantErr == nil && (err != nil || string(data) != denyLua("g")):
			t.Fatalf("%s: %q, %v; want g.lua from the held directory", when, data, err)
		case wantErr != nil && !errors.Is(err, wantErr):
			t.Fatalf("%s: %v, want %v", when, err, wantErr)
		}
	}
	read("held twice", nil)
	inner()
	inner() // a release ends its own hold once
	read("still held once", nil)
	outer()
	read("released", fs.ErrNotExist)
	// A directory that cannot be opened is not held: each call says why.
	release := HoldDirFS(fsys)
	defer release()
	read("held while gone", fs.ErrNotExist)
	writeFile(t, filepath.Join(dir, "g.lua"), denyLua("g"))
	read("back", nil)
}

// Holding anything but a DirFS does nothing.
func TestHoldDirFSOther(t *testing.T) {
	fsys := fstest.MapFS{"g.lua": {Data: []byte(denyLua("g"))}}
	HoldDirFS(fsys)()
	if data, err := fs.ReadFile(fsys, "g.lua"); err != nil || string(data) != denyLua("g") {
		t.Fatalf("%q, %v", data, err)
	}
}

// sumFS is a host.SumFS whose sums are made up, to show which the host
// uses.
type sumFS struct {
	fstest.MapFS
	sum [sha256.Size]byte
}

func (s sumFS) ReadFileSum(name string) ([]byte, [sha256.Size]byte, error) {
	data, err := s.ReadFile(name)
	return data, s.sum, err
}

// A SumFS's sum versions a file: the host does not hash it again.
func TestHostUsesTheSumItIsGiven(t *testing.T) {
	var sum [sha256.Size]byte
	sum[0], sum[1] = 0xab, 0xcd
	fsys := sumFS{MapFS: fstest.MapFS{"g.lua": {Data: []byte(`hook.on("tool.execute.pre", function() end)`)}}, sum: sum}
	h, err := New(context.Background(), Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	files := h.Files()
	if len(files) != 1 || files[0].Version != "abcd00000000" {
		t.Errorf("files %+v: want g.lua at the version the file system's sum gives, abcd00000000", files)
	}
}
