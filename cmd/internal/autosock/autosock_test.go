package autosock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
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
		sum := sha256.Sum256([]byte(tc.dir + "\x00" + tc.config))
		if want := filepath.Join(tc.base, "serve-"+hex.EncodeToString(sum[:6])+".sock"); got != want {
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
