package eventcache

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookhost/hookhost/host"
)

func dir() fstest.MapFS {
	return fstest.MapFS{
		"pre.lua":       {Data: []byte("pre")},
		"post.star":     {Data: []byte("post")},
		"none.lua":      {Data: []byte("none")},
		"broken.lua":    {Data: []byte("broken")},
		"pack/HOOK.md":  {Data: []byte("---\nname: pack\n---\n")},
		"pack/both.lua": {Data: []byte("both")},
		".hidden.lua":   {Data: []byte("dot")},
	}
}

// load is what a host reports after loading the files of p.FS.
func load(t *testing.T, p Plan) ([]host.FileStatus, []host.HookInfo) {
	t.Helper()
	var files []host.FileStatus
	var hooks []host.HookInfo
	events := map[string][]string{"pre.lua": {"tool.execute.pre"}, "post.star": {"tool.execute.post"},
		"pack/both.lua": {"tool.execute.pre", "turn.pre"}, "none.lua": nil, "broken.lua": nil}
	for _, name := range []string{"pre.lua", "post.star", "none.lua", "broken.lua", "pack/both.lua"} {
		if _, err := fs.Stat(p.FS, name); err != nil {
			continue
		}
		st := host.FileStatus{Path: name}
		if name == "broken.lua" {
			st.Err = errors.New("broken.lua:1: syntax error")
		}
		files = append(files, st)
		for _, ev := range events[name] {
			hooks = append(hooks, host.HookInfo{File: name, Event: ev})
		}
	}
	return files, hooks
}

func TestPlanHidesWhatTheEventDoesNotNeed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "events.txt")
	c := Open(path)
	p, err := c.Plan(dir(), []byte("salt"), "tool.execute.pre", host.IsScript)
	if err != nil || len(p.Hidden) != 0 {
		t.Fatalf("an empty cache hides %v (%v)", p.Hidden, err)
	}
	files, hooks := load(t, p)
	c.Learn(p, files, hooks)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("cache directory: %v %v", st, err)
	}

	c = Open(path)
	for event, want := range map[string][]string{
		"tool.execute.pre":  {"post.star"},
		"tool.execute.post": {"pack/both.lua", "pre.lua"},
		"turn.pre":          {"post.star", "pre.lua"},
	} {
		p, err := c.Plan(dir(), []byte("salt"), event, host.IsScript)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Hidden, want) {
			t.Errorf("%s hides %v, want %v (a failed file, or one with no hooks, is never hidden)", event, p.Hidden, want)
		}
		entries, _ := fs.ReadDir(p.FS, ".")
		for _, e := range entries {
			if slices.Contains(want, e.Name()) {
				t.Errorf("%s: ReadDir lists hidden %s", event, e.Name())
			}
		}
		if _, err := fs.ReadFile(p.FS, "pack/HOOK.md"); err != nil {
			t.Errorf("a pack's HOOK.md is hidden: %v", err)
		}
	}
}

func TestPlanLearnsAgainWhenSomethingChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.txt")
	c := Open(path)
	p, _ := c.Plan(dir(), []byte("salt"), "tool.execute.pre", host.IsScript)
	files, hooks := load(t, p)
	c.Learn(p, files, hooks)
	c.Save()

	edited := dir()
	edited["post.star"] = &fstest.MapFile{Data: []byte("post, edited")}
	p, _ = Open(path).Plan(edited, []byte("salt"), "tool.execute.pre", host.IsScript)
	if len(p.Hidden) != 0 {
		t.Errorf("an edited file is hidden: %v", p.Hidden)
	}
	p, _ = Open(path).Plan(dir(), []byte("another config"), "tool.execute.pre", host.IsScript)
	if len(p.Hidden) != 0 {
		t.Errorf("with a new salt, %v are hidden", p.Hidden)
	}
}

func TestOpenIgnoresABadCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.txt")
	pre := keyOf(nil, []byte("pre")) // a key dir() has, on the event
	for _, data := range []string{
		"not a cache",
		`{"version":"v1","files":{"` + pre + `":["tool.execute.post"]}}`, // the old format
		"hookhost events v1\n" + pre + " tool.execute.post\n",
		eventsHeader + pre + " tool.execute.post",                      // cut short
		eventsHeader + pre + " tool.execute.post\n" + pre + " x\n",     // twice
		eventsHeader + strings.Repeat("f", 64) + " x\n" + pre + " x\n", // out of order
		eventsHeader + strings.ToUpper(pre) + " tool.execute.post\n",
		eventsHeader + pre[:63] + " tool.execute.post\n",
		eventsHeader + pre + "\n",
		eventsHeader + pre + " \n",
		eventsHeader + pre + " tool.execute.post  turn.pre\n",
		eventsHeader + pre + " tool.execute.post\tturn.pre\n",
		eventsHeader + pre + " tool.execute.post\r\n",
	} {
		os.WriteFile(path, []byte(data), 0o600)
		c := Open(path)
		if c.len() != 0 {
			t.Errorf("%q: %d entries", data, c.len())
		}
		p, err := c.Plan(dir(), nil, "tool.execute.pre", host.IsScript)
		if err != nil || len(p.Hidden) != 0 {
			t.Errorf("%q: hides %v (%v)", data, p.Hidden, err)
		}
	}
	if c := Open(""); c.Save() != nil {
		t.Error("a cache without a path fails to save")
	}
}

func TestCacheStaysBounded(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "events.txt"))
	for i := range MaxEntries + 10 {
		fsys := fstest.MapFS{"a.lua": {Data: []byte{byte(i), byte(i >> 8)}}}
		p, _ := c.Plan(fsys, nil, "e", host.IsScript)
		c.Learn(p, []host.FileStatus{{Path: "a.lua"}}, []host.HookInfo{{File: "a.lua", Event: "e"}})
		if c.len() > MaxEntries {
			t.Fatalf("%d entries", c.len())
		}
		if c.len() == 0 {
			t.Fatal("learnt nothing")
		}
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if n := Open(c.path).len(); n == 0 || n > MaxEntries {
		t.Fatalf("saved %d entries", n)
	}
}

// The plan reads only script files, and serves them as it read them, so
// the host compiles the content the plan keyed even when a file changes
// in between; other files come from the directory.
func TestPlanServesWhatItRead(t *testing.T) {
	fsys := dir()
	fsys["pre_test.lua"] = &fstest.MapFile{Data: []byte("a test")}
	c := Open(filepath.Join(t.TempDir(), "events.txt"))
	p, err := c.Plan(fsys, nil, "tool.execute.pre", host.IsScript)
	if err != nil {
		t.Fatal(err)
	}
	if keyed := slices.Sorted(maps.Keys(p.keys)); !slices.Equal(keyed, []string{"broken.lua", "none.lua", "pack/both.lua", "post.star", "pre.lua"}) {
		t.Errorf("the plan read %v, want the scripts only", keyed)
	}
	fsys["pre.lua"] = &fstest.MapFile{Data: []byte("edited")}
	fsys["pack/HOOK.md"] = &fstest.MapFile{Data: []byte("new manifest")}
	got, err := fs.ReadFile(p.FS, "pre.lua")
	if err != nil || string(got) != "pre" {
		t.Errorf("pre.lua: %q, %v; want the content the plan read", got, err)
	}
	again, err := fs.ReadFile(p.FS, "pre.lua")
	if err != nil || string(again) != "pre" {
		t.Errorf("pre.lua again: %q, %v; want the content the plan read", again, err)
	}
	again[0] = 'Y' // a copy: the first reader's bytes stay as read
	if string(got) != "pre" {
		t.Errorf("a later reader changed the first one's bytes: %q", got)
	}
	// The first read is handed the plan's own bytes; if its reader
	// changes them, a later read gets nothing rather than other content.
	got[0] = 'X'
	if changed, err := fs.ReadFile(p.FS, "pre.lua"); err == nil {
		t.Errorf("after a caller changed what the plan read, served %q", changed)
	}
	if got, err := fs.ReadFile(p.FS, "pack/HOOK.md"); err != nil || string(got) != "new manifest" {
		t.Errorf("pack/HOOK.md: %q, %v; want the directory's", got, err)
	}
}

// ReadFileSum gives, with every read, the SHA-256 of exactly what it
// returns: the plan's for a file it read (the host then hashes nothing
// again), a fresh one for any other file; a file whose handed-out bytes
// were changed is refused, as by ReadFile.
func TestPlanServesTheSumOfWhatItRead(t *testing.T) {
	fsys := dir()
	p, err := Open(filepath.Join(t.TempDir(), "events.txt")).Plan(fsys, nil, "tool.execute.pre", host.IsScript)
	if err != nil {
		t.Fatal(err)
	}
	sfs, ok := p.FS.(host.SumFS)
	if !ok {
		t.Fatalf("the plan's view %T is no host.SumFS", p.FS)
	}
	fsys["pre.lua"] = &fstest.MapFile{Data: []byte("edited")}
	for _, name := range []string{"pre.lua", "pre.lua", "pack/HOOK.md", "post.star"} {
		data, sum, err := sfs.ReadFileSum(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sum != sha256.Sum256(data) {
			t.Errorf("%s: the sum given is not the sum of the %q given", name, data)
		}
		if name == "pre.lua" && string(data) != "pre" {
			t.Errorf("pre.lua: %q, want what the plan read", data)
		}
	}
	if _, _, err := sfs.ReadFileSum("missing.lua"); err == nil {
		t.Error("a missing file was read")
	}
	first, _, _ := sfs.ReadFileSum("none.lua")
	first[0] = 'X'
	if data, _, err := sfs.ReadFileSum("none.lua"); err == nil {
		t.Errorf("after a caller changed what the plan read, served %q", data)
	}
}

// The view lists each directory as Plan listed it, without the hidden
// files: a file added or removed after the plan is not seen, so the host
// loads the directory the plan keyed; what it returns is a copy.
func TestPlanListsTheDirectoryItKeyed(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "events.txt"))
	c.added[keyOf([]byte("salt"), []byte("post"))] = []string{"tool.execute.post"}
	fsys := dir()
	p, err := c.Plan(fsys, []byte("salt"), "tool.execute.pre", host.IsScript)
	if err != nil {
		t.Fatal(err)
	}
	fsys["late.lua"] = &fstest.MapFile{Data: []byte("late")}
	fsys["pack/late.lua"] = &fstest.MapFile{Data: []byte("late")}
	delete(fsys, "none.lua")
	names := func(dir string) []string {
		t.Helper()
		entries, err := fs.ReadDir(p.FS, dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		clear(entries) // the caller's to change
		return out
	}
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{".", []string{".hidden.lua", "broken.lua", "none.lua", "pack", "pre.lua"}},
		{"pack", []string{"HOOK.md", "both.lua"}},
	} {
		for range 2 {
			if got := names(tc.dir); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.dir, got, tc.want)
			}
		}
	}
}

// keyOf is the key of a file whose content is data.
func keyOf(salt, data []byte) string { return fileKey(salt, sha256.Sum256(data)) }
