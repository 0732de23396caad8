package autosock

import (
	"encoding/hex"
	"errors"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestPath: the socket's name is fixed by the directory and the config
// (hookhost and hookhost-hook must find the same one), under
// $XDG_RUNTIME_DIR/hookhost or else /tmp/hookhost-UID.
func TestPath(t *testing.T) {
	rt, err := os.MkdirTemp("", "as")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	for _, tc := range []struct {
		runtime, dir, config string
		base                 string
	}{
		{rt, "/p/hooks.d", "", filepath.Join(rt, "hookhost")},
		{rt, "/p/hooks.d", "/p/hookhost.yaml", filepath.Join(rt, "hookhost")},
		{"relative", "/p/hooks.d", "", filepath.Join(os.TempDir(), "hookhost-"+strconv.Itoa(os.Getuid()))},
	} {
		t.Setenv("XDG_RUNTIME_DIR", tc.runtime)
		got, err := Path(tc.dir, tc.config)
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New128a()
		h.Write([]byte(tc.dir + "\x00" + tc.config))
		if want := filepath.Join(tc.base, "serve-"+hex.EncodeToString(h.Sum(nil)[:6])+".sock"); got != want {
			t.Errorf("Path(%q, %q) with $XDG_RUNTIME_DIR=%s = %s, want %s", tc.dir, tc.config, tc.runtime, got, want)
		}
	}
}

func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	if err := PrivateDir(filepath.Join(base, "missing", "deeper")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a directory that cannot be created: %v, want it wrapping fs.ErrNotExist", err)
	}
	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o755)
	os.Chmod(open, 0o755)
	if err := PrivateDir(open); err == nil {
		t.Error("a directory open to others was accepted")
	}
	ok := filepath.Join(base, "ok")
	if err := PrivateDir(ok); err != nil {
		t.Errorf("a new directory: %v", err)
	}
}

func TestTrusted(t *testing.T) {
	for _, tc := range []struct {
		uid  uint32
		self int
		want bool
	}{{1000, 1000, true}, {0, 1000, true}, {0, 0, true}, {1001, 1000, false}, {65534, 0, false}} {
		if got := Trusted(tc.uid, tc.self); got != tc.want {
			t.Errorf("Trusted(%d, %d) = %v", tc.uid, tc.self, got)
		}
	}
}

// TestAbs: Abs names paths as filepath.Abs does, which hookhost's own
// client used to name them — also in a working directory reached through
// a symbolic link, where both keep the name $PWD gives it.
func TestAbs(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	link := filepath.Join(base, "link")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, wd, pwd string }{
		{"a plain directory", real, real},
		{"through a symbolic link", link, link},
		{"$PWD elsewhere", real, base},
		{"$PWD relative", real, "real"},
		{"no $PWD", real, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.wd)
			t.Setenv("PWD", tc.pwd)
			for _, p := range []string{"hooks.d", "./hooks.d/", "../x/../hooks.d", ".", "/abs//p/./q/..", "/"} {
				got, err := Abs(p)
				want, werr := filepath.Abs(p)
				if got != want || (err == nil) != (werr == nil) {
					t.Errorf("Abs(%q) = %q, %v; filepath.Abs: %q, %v", p, got, err, want, werr)
				}
			}
		})
	}
}
