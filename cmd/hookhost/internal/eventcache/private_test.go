package eventcache

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookhost/hookhost/host"
)

// A cache that another user could have written is not used: with its
// directory or its file group- or world-writable, every file is compiled
// (the plan hides nothing) and the cache is left as it is; with the
// programs' directory writable by others, no stored program is served.
func TestCacheOthersCanWriteIsNotUsed(t *testing.T) {
	learnt := func(t *testing.T) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "hookhost", "events.txt")
		c := Open(path)
		p, err := c.Plan(dir(), []byte("salt"), "tool.execute.pre", host.IsScript)
		if err != nil {
			t.Fatal(err)
		}
		files, hooks := load(t, p)
		c.Learn(p, files, hooks)
		c.Programs(p).Put("k", []byte("program"))
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	hides := func(t *testing.T, path string) int {
		t.Helper()
		c := Open(path)
		p, err := c.Plan(dir(), []byte("salt"), "tool.execute.pre", host.IsScript)
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Hidden)
	}
	for _, c := range []struct {
		name  string
		loose func(path string) string // makes something loose, returns what
	}{
		{"directory world-writable", func(path string) string { return filepath.Dir(path) }},
		{"file group-writable", func(path string) string { return path }},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := learnt(t)
			if hides(t, path) == 0 {
				t.Fatal("a private cache hides nothing: the test cannot tell")
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			target := c.loose(path)
			mode := os.FileMode(0o666)
			if target != path {
				mode = 0o777
			}
			if err := os.Chmod(target, mode); err != nil {
				t.Fatal(err)
			}
			if n := hides(t, path); n != 0 {
				t.Errorf("a cache others can write hid %d files", n)
			}
			cache := Open(path)
			p, _ := cache.Plan(dir(), []byte("salt"), "tool.execute.pre", host.IsScript)
			if got := cache.Programs(p).Get("k"); got != nil {
				t.Errorf("a cache others can write served a program: %q", got)
			}
			files, hooks := load(t, p)
			cache.Learn(p, files, hooks)
			if err := cache.Save(); err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Error("a cache others can write was rewritten")
			}
		})
	}
	t.Run("programs directory world-writable", func(t *testing.T) {
		path := learnt(t)
		progDir := filepath.Join(filepath.Dir(path), "programs-"+formatVersion)
		if err := os.Chmod(progDir, 0o777); err != nil {
			t.Fatal(err)
		}
		cache := Open(path)
		p, _ := cache.Plan(dir(), []byte("salt"), "tool.execute.pre", host.IsScript)
		if len(p.Hidden) == 0 {
			t.Error("the events, in a private directory, should still serve")
		}
		if got := cache.Programs(p).Get("k"); got != nil {
			t.Errorf("a programs directory others can write served %q", got)
		}
	})
}
