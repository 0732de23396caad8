package eventcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host"
)

// planFor is a plan of dir() with salt, from the cache at path.
func planFor(t *testing.T, path, salt string) (*Cache, Plan) {
	t.Helper()
	c := Open(path)
	p, err := c.Plan(dir(), []byte(salt), "tool.execute.pre", host.IsScript)
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

// A program put in one run is there for the next run with the same salt
// (config and executable), and only for it.
func TestProgramsAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.txt")
	c, p := planFor(t, path, "salt")
	progs := c.Programs(p)
	if got := progs.Get("k"); got != nil {
		t.Fatalf("an empty store has %q", got)
	}
	progs.Put("k", []byte("program"))
	if got := progs.Get("k"); string(got) != "program" {
		t.Fatalf("before saving, got %q", got)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c, p = planFor(t, path, "salt")
	if got := c.Programs(p).Get("k"); string(got) != "program" {
		t.Errorf("the next run got %q, want the program", got)
	}
	if got := c.Programs(p).Get("other"); got != nil {
		t.Errorf("another key got %q", got)
	}
	c, p = planFor(t, path, "new config")
	if got := c.Programs(p).Get("k"); got != nil {
		t.Errorf("another salt got %q", got)
	}
	fi, err := os.Stat(filepath.Join(filepath.Dir(path), "programs-"+formatVersion))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the programs' directory: %v, %v; want mode 0700", fi, err)
	}
}

// Programs larger than MaxProgramBytes are neither stored nor read; a
// cache without a path keeps nothing.
func TestProgramsBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.txt")
	c, p := planFor(t, path, "salt")
	progs := c.Programs(p)
	progs.Put("big", make([]byte, MaxProgramBytes+1))
	progs.Put("max", make([]byte, MaxProgramBytes))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c, p = planFor(t, path, "salt")
	progs = c.Programs(p)
	if got := progs.Get("big"); got != nil {
		t.Errorf("a program over the bound was stored (%d bytes)", len(got))
	}
	if got := progs.Get("max"); len(got) != MaxProgramBytes {
		t.Errorf("a program of the bound: got %d bytes", len(got))
	}
	pr := progs.(*programs)
	if err := os.WriteFile(filepath.Join(pr.dir, pr.fileName("grown")), make([]byte, MaxProgramBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := progs.Get("grown"); got != nil {
		t.Errorf("a file over the bound was read (%d bytes)", len(got))
	}
	c, p = planFor(t, "", "salt")
	progs = c.Programs(p)
	progs.Put("k", []byte("program"))
	if got := progs.Get("k"); got != nil || c.Save() != nil {
		t.Errorf("a cache without a path kept %q", got)
	}
}

// Past MaxEntries files, a save keeps only the programs its run used.
func TestProgramsPrune(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.txt")
	c, p := planFor(t, path, "salt")
	progs := c.Programs(p)
	for i := range MaxEntries {
		progs.Put(fmt.Sprint("old", i), []byte("old"))
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c, p = planFor(t, path, "salt")
	progs = c.Programs(p)
	progs.Get("old7")
	progs.Put("new", []byte("new"))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(progs.(*programs).dir)
	if err != nil || len(entries) != 2 {
		t.Fatalf("%d programs left (%v), want the 2 this run used", len(entries), err)
	}
	c, p = planFor(t, path, "salt")
	progs = c.Programs(p)
	if !bytes.Equal(progs.Get("old7"), []byte("old")) || !bytes.Equal(progs.Get("new"), []byte("new")) || progs.Get("old8") != nil {
		t.Error("the prune kept the wrong programs")
	}
}

// readSized reads a whole file into one buffer, and nothing past the
// limit.
func TestReadSized(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		limit int64
		want  bool
	}{
		{"empty", 0, 10, true},
		{"small", 3, 10, true},
		{"at the limit", 10, 10, true},
		{"over the limit", 11, 10, false},
		{"large", 300 << 10, 1 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			content := bytes.Repeat([]byte("x"), tc.size)
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := readSized(f, tc.limit)
			switch {
			case !tc.want && got != nil:
				t.Fatalf("read %d bytes past the limit %d", len(got), tc.limit)
			case tc.want && (got == nil || !bytes.Equal(got, content)):
				t.Fatalf("got %d bytes, want %d", len(got), tc.size)
			}
		})
	}
}

// A file that grew after its stat is still read whole, and still
// refused past the limit.
func TestReadExpectingGrown(t *testing.T) {
	for _, tc := range []struct {
		content string
		size    int64
		limit   int64
		want    string
		refused bool
	}{
		{content: "abcdefgh", size: 3, limit: 100, want: "abcdefgh"},
		{content: "abcdefgh", size: 7, limit: 100, want: "abcdefgh"},
		{content: "abcdefgh", size: 3, limit: 8, want: "abcdefgh"},
		{content: "abcdefgh", size: 3, limit: 7, refused: true},
		{content: "ab", size: 3, limit: 7, want: "ab"}, // shrank
	} {
		got := readExpecting(strings.NewReader(tc.content), tc.size, tc.limit)
		switch {
		case tc.refused && got != nil:
			t.Errorf("%+v: read %q past the limit", tc, got)
		case !tc.refused && string(got) != tc.want:
			t.Errorf("%+v: got %q, want %q", tc, got, tc.want)
		}
	}
}
