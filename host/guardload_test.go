package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// Files that load without error but register no hook, in both
// languages, and the message each gives.
var hooklessFiles = []struct{ name, file, code, msg string }{
	{"lua/empty", "g.lua", "", "g.lua: the file is empty: it registers no hook"},
	{"star/empty", "g.star", "", "g.star: the file is empty: it registers no hook"},
	{"lua/blank", "g.lua", "\n  \n\t\n", "g.lua: the file is empty: it registers no hook"},
	{"star/blank", "g.star", "\n\n", "g.star: the file is empty: it registers no hook"},
	{"lua/comment", "g.lua", "-- the guard was here\n", "g.lua: registers no hook (a hook file must call hook.on at least once)"},
	{"star/comment", "g.star", "# the guard was here\n", "g.star: registers no hook (a hook file must call hook.on at least once)"},
	{"lua/definitions", "g.lua", "local function g() return hook.deny(\"no\") end\n",
		"g.lua: registers no hook (a hook file must call hook.on at least once)"},
	{"star/definitions", "g.star", "def g():\n    return hook.deny(\"no\")\n",
		"g.star: registers no hook (a hook file must call hook.on at least once)"},
	{"star/expression", "g.star", "{\"token\": \"abc\"}\n", "g.star: registers no hook (a hook file must call hook.on at least once)"},
}

// guardFor is a guard of tool.approve in the language of file, denying
// with reason.
func guardFor(file, reason string) string {
	if strings.HasSuffix(file, ".star") {
		return denyStar(reason)
	}
	return denyLua(reason)
}

// A file that registers no hook is a load error: a problem on every
// answer and in the status, and in strict mode a file with no good
// version, so a one-shot load of an emptied guard fails closed.
func TestHooklessFileIsAProblem(t *testing.T) {
	for _, c := range hooklessFiles {
		t.Run(c.name, func(t *testing.T) {
			h := newTestHostAllowProblems(t, map[string]string{c.file: c.code, "other.lua": denyLua("other")})
			st := h.Status()
			if len(st.Problems) != 1 || st.Problems[0] != c.msg {
				t.Fatalf("problems %q, want [%q]", st.Problems, c.msg)
			}
			if f := st.Files[0]; f.Path != c.file || f.Err == nil || f.Version != "" || f.Hooks != 0 {
				t.Fatalf("file status %+v", f)
			}
			r := fireOK(t, h, "tool.approve", nil)
			if r.Decision.Reason != "other" || len(r.Problems) != 1 || r.Problems[0] != c.msg {
				t.Fatalf("fire: %+v problems %q", r.Decision, r.Problems)
			}

			strict := newTestHostStrict(t, map[string]string{c.file: c.code, "other.lua": denyLua("other")})
			want := "hookhost: " + strings.Replace(c.msg, ": ", " failed to load: ", 1)
			r = fireOK(t, strict, "tool.approve", nil)
			if r.Decision.Action != Deny || r.Decision.Reason != want {
				t.Fatalf("strict: %+v, want deny %q", r.Decision, want)
			}
			if u := strict.Status().Unhealthy(); len(u) != 1 {
				t.Fatalf("unhealthy %q", u)
			}
		})
	}
}

// A guard emptied or stripped of its hooks after it loaded: its last
// good version keeps serving, as for a syntax error, and the problem is
// reported until the file is fixed.
func TestHooklessEditKeepsLastGood(t *testing.T) {
	for _, c := range hooklessFiles {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			writeFile(t, path, guardFor(c.file, "v1"))
			h, err := New(context.Background(), Options{Dir: dir, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			writeFile(t, path, c.code)
			rep := h.Rescan(context.Background(), TriggerAPI)
			if len(rep.Files) != 1 || rep.Files[0].Outcome != FileFailed || rep.Files[0].Err.Error() != c.msg {
				t.Fatalf("report %+v", rep.Files)
			}
			r := fireOK(t, h, "tool.approve", nil)
			if r.Decision.Action != Deny || r.Decision.Reason != "v1" || len(r.Problems) != 1 || r.Problems[0] != c.msg {
				t.Fatalf("after emptying: %+v problems %q, want the last good deny v1", r.Decision, r.Problems)
			}
			if u := h.Status().Unhealthy(); u != nil {
				t.Fatalf("a last good version serves, yet unhealthy: %q", u)
			}
			writeFile(t, path, guardFor(c.file, "v2"))
			h.Rescan(context.Background(), TriggerAPI)
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "v2" || r.Problems != nil {
				t.Fatalf("after the fix: %+v problems %q", r.Decision, r.Problems)
			}
		})
	}
}

func newTestHostStrict(t *testing.T, files map[string]string) *Host {
	t.Helper()
	dir := t.TempDir()
	for name, code := range files {
		writeFile(t, filepath.Join(dir, name), code)
	}
	h, err := New(context.Background(), Options{Dir: dir, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func writeFile(t *testing.T, path, code string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Files that are not scripts, or whose fault an engine quotes at
// length: a load error keeps the offending line, clipped, and never the
// rest of the file.
func TestLoadErrorsAreClipped(t *testing.T) {
	secret := strings.Repeat("SECRETLINE-0123456789abcdefghijklmnopqrstuvwxyz\n", 40)
	long := strings.Repeat("S", 1000)
	for _, c := range []struct {
		name, file, code string
		clipped          bool // the engine's message quotes more than fits
	}{
		{"lua/unterminated", "x.lua", "x = \"" + long + "\n" + secret, true},
		{"lua/long-string-token", "x.lua", "x = 1\n[[" + secret + "]] = 2\n", true},
		{"lua/unterminated-long-string", "x.lua", "x = [[" + secret, false},
		{"lua/pem", "x.lua", "-----BEGIN PRIVATE KEY-----\n" + secret, false},
		{"lua/binary", "x.lua", "\x7fELF\x02\x01\x01" + secret, false},
		{"lua/env", "x.lua", "API_KEY=sk-" + long + "\n" + secret, false},
		{"star/identifier", "x.star", strings.Repeat("a", 1000) + "\n", true},
		{"star/env", "x.star", "API_KEY=sk" + long + "\n", true},
		{"star/pem", "x.star", "-----BEGIN PRIVATE KEY-----\n" + secret, false},
		{"star/binary", "x.star", "\x7fELF\x02\x01\x01" + secret, false},
		{"star/unterminated", "x.star", "x = \"\"\"" + secret, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			check := func(when string, h *Host) {
				t.Helper()
				st := h.Status()
				if len(st.Problems) != 1 || len(st.Files) != 1 || st.Files[0].Err == nil {
					t.Fatalf("%s: problems %q", when, st.Problems)
				}
				p := st.Problems[0]
				if strings.Count(p, "SECRETLINE") > 1 || strings.Contains(p, "\n") {
					t.Fatalf("%s: the problem quotes more than a line: %q", when, p)
				}
				msg := p[strings.Index(p, ": ")+2:]
				if len(msg) > maxLoadErrorText+len("… (99999 more bytes)") || c.clipped != strings.Contains(msg, " more bytes)") {
					t.Fatalf("%s: the message is not clipped at %d bytes with a marker: %q", when, maxLoadErrorText, msg)
				}
				if got := st.Files[0].Err.Error(); got != p {
					t.Fatalf("%s: the file's error %q is not the problem %q", when, got, p)
				}
			}
			writeFile(t, path, c.code)
			h, err := New(context.Background(), Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			check("first load", h)

			writeFile(t, path, guardFor(c.file, "good"))
			h.Rescan(context.Background(), TriggerAPI)
			writeFile(t, path, c.code)
			h.Rescan(context.Background(), TriggerAPI)
			check("reload", h)
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "good" {
				t.Fatalf("the last good version should serve: %+v", r.Decision)
			}
		})
	}
}

// Symlinks are followed only to targets inside the hooks directory. A
// script linked from outside is a load error that names the link and
// never quotes the target; a directory linked from outside is left out
// with a note.
func TestSymlinksStayInside(t *testing.T) {
	const secret = "SECRET-TOKEN-0123456789"
	outsideScript := map[string]string{".lua": `hook.on("tool.approve", function() return hook.deny("` + secret + `") end, { name = "g" })`,
		".star": "hook.on(\"tool.approve\", lambda: hook.deny(\"" + secret + "\"), name = \"g\")\n"}
	outsideMsg := ": a symlink that leads outside the hooks directory: not loaded (symlinks are followed only to files inside it)"
	for _, ext := range []string{".lua", ".star"} {
		for _, c := range []struct {
			name string
			// setup makes the links in dir; out is a directory outside it
			// holding x<ext> (a valid script) and pack/.
			setup   func(t *testing.T, dir, out string)
			reason  string // the deny of the loaded x<ext>; empty when none loads
			problem string // the one problem expected; empty when none
			note    string
		}{
			{name: "relative-inside", setup: func(t *testing.T, dir, out string) {
				writeFile(t, filepath.Join(dir, "lib", "real"+ext), guardFor(ext, "inside"))
				symlink(t, filepath.Join("lib", "real"+ext), filepath.Join(dir, "x"+ext))
			}, reason: "inside", note: "lib/: not a hook pack (no HOOK.md), ignored"},
			{name: "configmap", setup: func(t *testing.T, dir, out string) {
				writeFile(t, filepath.Join(dir, "..2026_01_01", "x"+ext), guardFor(ext, "configmap"))
				symlink(t, "..2026_01_01", filepath.Join(dir, "..data"))
				symlink(t, filepath.Join("..data", "x"+ext), filepath.Join(dir, "x"+ext))
			}, reason: "configmap"},
			{name: "absolute-inside", setup: func(t *testing.T, dir, out string) {
				writeFile(t, filepath.Join(dir, ".real", "x"+ext), guardFor(ext, "absolute"))
				symlink(t, filepath.Join(dir, ".real", "x"+ext), filepath.Join(dir, "x"+ext))
			}, reason: "absolute"},
			{name: "relative-outside", setup: func(t *testing.T, dir, out string) {
				rel, _ := filepath.Rel(dir, filepath.Join(out, "x"+ext))
				symlink(t, rel, filepath.Join(dir, "x"+ext))
			}, problem: "x" + ext + outsideMsg},
			{name: "absolute-outside", setup: func(t *testing.T, dir, out string) {
				symlink(t, filepath.Join(out, "x"+ext), filepath.Join(dir, "x"+ext))
			}, problem: "x" + ext + outsideMsg},
			{name: "through-data-outside", setup: func(t *testing.T, dir, out string) {
				symlink(t, out, filepath.Join(dir, "..data"))
				symlink(t, filepath.Join("..data", "x"+ext), filepath.Join(dir, "x"+ext))
			}, problem: "x" + ext + outsideMsg},
			{name: "in-a-pack", setup: func(t *testing.T, dir, out string) {
				writeFile(t, filepath.Join(dir, "p", "HOOK.md"), "---\ndescription: a pack\n---\n")
				symlink(t, filepath.Join(out, "x"+ext), filepath.Join(dir, "p", "x"+ext))
			}, problem: "p/x" + ext + outsideMsg},
			{name: "dangling", setup: func(t *testing.T, dir, out string) {
				symlink(t, "gone"+ext, filepath.Join(dir, "x"+ext))
			}, problem: "x" + ext + ": cannot read: "},
		} {
			t.Run(ext[1:]+"/"+c.name, func(t *testing.T) {
				dir, out := t.TempDir(), t.TempDir()
				writeFile(t, filepath.Join(out, "x"+ext), outsideScript[ext])
				writeFile(t, filepath.Join(out, "pack", "HOOK.md"), "---\ndescription: outside\n---\n")
				writeFile(t, filepath.Join(out, "pack", "y"+ext), outsideScript[ext])
				c.setup(t, dir, out)
				for _, strict := range []bool{false, true} {
					h, err := New(context.Background(), Options{Dir: dir, Strict: strict})
					if err != nil {
						t.Fatal(err)
					}
					st := h.Status()
					r := fireOK(t, h, "tool.approve", nil)
					h.Close()
					js, _ := st.MarshalJSON()
					if strings.Contains(string(js), secret) || strings.Contains(r.Decision.Reason, secret) {
						t.Fatalf("the outside file was read: %s %+v", js, r.Decision)
					}
					switch {
					case c.problem == "" && len(st.Problems) != 0:
						t.Fatalf("problems %q", st.Problems)
					case c.problem != "" && (len(st.Problems) != 1 || !strings.HasPrefix(st.Problems[0], c.problem)):
						t.Fatalf("problems %q, want one starting %q", st.Problems, c.problem)
					case c.note != "" && (len(st.Notes) != 1 || st.Notes[0] != c.note):
						t.Fatalf("notes %q, want [%q]", st.Notes, c.note)
					case c.reason != "" && r.Decision.Reason != c.reason:
						t.Fatalf("fire: %+v, want %q", r.Decision, c.reason)
					case strict && c.problem != "" && (r.Decision.Action != Deny || !strings.HasPrefix(r.Decision.Reason, "hookhost: ")):
						t.Fatalf("strict: %+v, want the fail-closed deny", r.Decision)
					case !strict && c.reason == "" && r.Decision.Action != Continue:
						t.Fatalf("fire: %+v, want nothing loaded", r.Decision)
					}
				}
			})
		}
	}
}

// A guard replaced by a symlink to a file outside: the last good version
// keeps serving and the link is reported.
func TestSymlinkOutsideKeepsLastGood(t *testing.T) {
	for _, ext := range []string{".lua", ".star"} {
		t.Run(ext[1:], func(t *testing.T) {
			dir, out := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "g"+ext)
			writeFile(t, path, guardFor(ext, "good"))
			writeFile(t, filepath.Join(out, "g"+ext), guardFor(ext, "outside"))
			h, err := New(context.Background(), Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			os.Remove(path)
			symlink(t, filepath.Join(out, "g"+ext), path)
			rep := h.Rescan(context.Background(), TriggerAPI)
			if len(rep.Files) != 1 || rep.Files[0].Outcome != FileFailed || !errors.Is(rep.Files[0].Err, ErrOutsideDir) {
				t.Fatalf("report %+v", rep.Files)
			}
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "good" || len(r.Problems) != 1 {
				t.Fatalf("%+v problems %q, want the last good version", r.Decision, r.Problems)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// The storm of in-place edits: a guard is rewritten again and again by
// truncating it and writing it anew (at once, or in two halves whose
// first registers no hook), while fires run. Every fire is denied by
// some version of the guard: the empty or half-written file is never
// published. The rewrites are paced by the fires the test sees, not by
// the clock, so the outcome does not depend on the machine's speed.
func TestWatchInPlaceEditStorm(t *testing.T) {
	const edits = 80
	for _, lang := range []struct {
		ext          string
		first, whole func(n int) string
	}{
		{".lua", func(n int) string { return fmt.Sprintf("-- the guard, version %d\nlocal reason = \"v%d\"\n", n, n) },
			func(n int) string {
				return fmt.Sprintf("-- the guard, version %d\nlocal reason = \"v%d\"\n", n, n) +
					`hook.on("tool.approve", function() return hook.deny(reason) end, { name = "g", timeout = "5m" })` + "\n"
			}},
		{".star", func(n int) string { return fmt.Sprintf("# the guard, version %d\nreason = \"v%d\"\n", n, n) },
			func(n int) string {
				return fmt.Sprintf("# the guard, version %d\nreason = \"v%d\"\n", n, n) +
					"def g():\n    return hook.deny(reason)\n\nhook.on(\"tool.approve\", g, timeout = \"5m\")\n"
			}},
	} {
		t.Run(lang.ext[1:], func(t *testing.T) {
			name := "g" + lang.ext
			w := startWatched(t, map[string]string{name: lang.whole(0)}, Options{})
			w.waitReason("v0")
			var stop atomic.Bool
			var fires atomic.Int64
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for !stop.Load() {
						r, err := w.h.Fire(context.Background(), "tool.approve", map[string]any{"tool_name": "bash"})
						fires.Add(1)
						if err != nil || r.Decision.Action != Deny || !strings.HasPrefix(r.Decision.Reason, "v") {
							t.Errorf("a fire during the storm: %+v %v, want a deny of some version", r.Decision, err)
							stop.Store(true)
							return
						}
					}
				}()
			}
			for n := 1; n <= edits && !stop.Load(); n++ {
				f, err := os.OpenFile(w.path(name), os.O_WRONLY|os.O_TRUNC, 0)
				if err != nil {
					t.Fatal(err)
				}
				// Let a few fires run while the file is empty, and, every other
				// edit, while it holds only its first half.
				waitFires(&fires, &stop, 2)
				if n%2 == 0 {
					f.WriteString(lang.first(n))
					waitFires(&fires, &stop, 2)
					f.WriteString(lang.whole(n)[len(lang.first(n)):])
				} else {
					f.WriteString(lang.whole(n))
				}
				f.Close()
				waitFires(&fires, &stop, 2)
			}
			if t.Failed() {
				return
			}
			w.waitFor("the last version", func(r Result, st Status) bool {
				return r.Decision.Reason == fmt.Sprintf("v%d", edits) && len(st.Problems) == 0
			})
			stop.Store(true)
			wg.Wait()
		})
	}
}

// waitFires waits until n more fires have run, or the fires stopped.
func waitFires(fires *atomic.Int64, stop *atomic.Bool, n int64) {
	for start := fires.Load(); fires.Load() < start+n && !stop.Load(); {
		time.Sleep(100 * time.Microsecond)
	}
}

// A fake file for settled: each stat and read returns the next of its
// states (the last one repeats).
type settlingFile struct {
	states []struct {
		data  string
		mtime int64
	}
	stats, reads int
}

func (f *settlingFile) stat() (fs.FileInfo, error) {
	s := f.states[min(f.stats, len(f.states)-1)]
	f.stats++
	return fstest.MapFS{"f": {Data: []byte(s.data), ModTime: time.Unix(0, s.mtime)}}.Stat("f")
}

func (f *settlingFile) read() ([]byte, error) {
	s := f.states[min(f.reads, len(f.states)-1)]
	f.reads++
	return []byte(s.data), nil
}

// settled reads a changed file until two reads agree in content, size
// and time; an unchanged file, or one read without settling, is read
// once.
func TestSettled(t *testing.T) {
	type state = struct {
		data  string
		mtime int64
	}
	good := "hook.on(...)"
	for _, c := range []struct {
		name     string
		settle   bool
		lastHash string
		states   []state
		cancel   bool
		want     string
		wantErr  error
		reads    int
	}{
		{name: "no settling", states: []state{{"", 1}, {good, 2}}, want: "", reads: 1},
		{name: "unchanged", settle: true, lastHash: contentHash([]byte(good)), states: []state{{good, 1}}, want: good, reads: 1},
		{name: "still", settle: true, states: []state{{good, 1}}, want: good, reads: 2},
		{name: "emptied then filled", settle: true, states: []state{{"", 1}, {good, 2}}, want: good, reads: 3},
		{name: "same content, new time", settle: true, states: []state{{"", 1}, {"", 2}, {good, 3}}, want: good, reads: 4},
		{name: "cancelled", settle: true, cancel: true, states: []state{{"", 1}}, wantErr: context.Canceled, reads: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &settlingFile{states: c.states}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				cancel()
			}
			got, err := settled(ctx, c.lastHash, c.settle, f.stat, f.read)
			if string(got) != c.want || !errors.Is(err, c.wantErr) || f.reads != c.reads {
				t.Fatalf("got %q %v after %d reads, want %q %v after %d", got, err, f.reads, c.want, c.wantErr, c.reads)
			}
		})
	}
}

// A file that never holds still fails to load: its last good version
// keeps serving.
func TestSettledNeverStill(t *testing.T) {
	n := 0
	read := func() ([]byte, error) { n++; return []byte(strings.Repeat("x", n)), nil }
	stat := func() (fs.FileInfo, error) { return fstest.MapFS{"f": {}}.Stat("f") }
	if _, err := settled(context.Background(), "", true, stat, read); !errors.Is(err, errUnsettled) {
		t.Fatalf("err %v, want errUnsettled", err)
	}
}

// A hooks directory moved away, or replaced by a file: the last good
// hooks keep serving, the directory's error is a problem (once per
// distinct error), and the directory back loads again.
func TestDirectoryGoneKeepsServing(t *testing.T) {
	for _, ext := range []string{".lua", ".star"} {
		t.Run(ext[1:], func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hooks.d")
			away := filepath.Join(t.TempDir(), "moved")
			writeFile(t, filepath.Join(dir, "g"+ext), guardFor(ext, "v1"))
			h, err := New(context.Background(), Options{Dir: dir, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			serving := func(when, reason, problem string) {
				t.Helper()
				r := fireOK(t, h, "tool.approve", nil)
				st := h.Status()
				if r.Decision.Action != Deny || r.Decision.Reason != reason {
					t.Fatalf("%s: %+v, want deny %q", when, r.Decision, reason)
				}
				if problem == "" && (r.Problems != nil || st.Problems != nil) {
					t.Fatalf("%s: problems %q %q", when, r.Problems, st.Problems)
				}
				if problem != "" && (len(r.Problems) != 1 || !strings.HasPrefix(r.Problems[0], problem) ||
					len(st.Problems) != 1 || st.Problems[0] != r.Problems[0]) {
					t.Fatalf("%s: problems %q %q, want one starting %q", when, r.Problems, st.Problems, problem)
				}
			}
			gone := filepath.ToSlash(dir) + ": cannot read the hooks directory: "
			rescan := func(when string, published bool) {
				t.Helper()
				rep := h.Rescan(context.Background(), TriggerWatch)
				var de *DirError
				if !errors.As(rep.Err, &de) || rep.Published != published {
					t.Fatalf("%s: %+v, want a DirError, published %v", when, rep, published)
				}
			}

			if err := os.Rename(dir, away); err != nil {
				t.Fatal(err)
			}
			rescan("moved away", true)
			serving("moved away", "v1", gone)
			rescan("still away", false)

			writeFile(t, dir, "not a directory")
			rescan("a file in its place", true)
			serving("a file in its place", "v1", gone)
			os.Remove(dir)

			writeFile(t, filepath.Join(away, "g"+ext), guardFor(ext, "v2"))
			if err := os.Rename(away, dir); err != nil {
				t.Fatal(err)
			}
			if rep := h.Rescan(context.Background(), TriggerWatch); rep.Err != nil || !rep.Published {
				t.Fatalf("back: %+v", rep)
			}
			serving("back", "v2", "")
		})
	}
}

// An fs.FS whose top directory can be made unreadable (the tests may run
// as root, whom chmod does not stop).
type lockableFS struct {
	fstest.MapFS
	locked *atomic.Bool
	// dir is the directory the lock closes; "" for the top one.
	dir string
}

func (l lockableFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if l.locked.Load() && name == cmp.Or(l.dir, ".") {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return l.MapFS.ReadDir(name)
}

// An unreadable directory: a host that loaded keeps serving and reports
// it; a first load fails with the error.
func TestDirectoryUnreadable(t *testing.T) {
	for _, ext := range []string{".lua", ".star"} {
		t.Run(ext[1:], func(t *testing.T) {
			locked := &atomic.Bool{}
			fsys := lockableFS{MapFS: fstest.MapFS{"g" + ext: {Data: []byte(guardFor(ext, "v1"))}}, locked: locked}
			h, err := New(context.Background(), Options{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			locked.Store(true)
			want := ".: cannot read the hooks directory: readdir .: permission denied"
			if rep := h.Rescan(context.Background(), TriggerSignal); rep.Err == nil || rep.Err.Error() != want || !rep.Published {
				t.Fatalf("locked: %+v", rep)
			}
			r := fireOK(t, h, "tool.approve", nil)
			if r.Decision.Reason != "v1" || len(r.Problems) != 1 || r.Problems[0] != want {
				t.Fatalf("locked: %+v problems %q", r.Decision, r.Problems)
			}
			if _, err := New(context.Background(), Options{FS: fsys}); err == nil || err.Error() != want {
				t.Fatalf("a first load of the locked directory: %v, want %q", err, want)
			}
			locked.Store(false)
			if rep := h.Rescan(context.Background(), TriggerSignal); rep.Err != nil || !rep.Published {
				t.Fatalf("unlocked: %+v", rep)
			}
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "v1" || r.Problems != nil {
				t.Fatalf("unlocked: %+v problems %q", r.Decision, r.Problems)
			}
		})
	}
}

// The watcher: the directory moved away keeps the last good hooks and
// reports it; moved back, it loads what it holds and is watched again.
func TestWatchDirectoryMovedAway(t *testing.T) {
	for _, ext := range []string{".lua", ".star"} {
		t.Run(ext[1:], func(t *testing.T) {
			w := startWatched(t, map[string]string{"g" + ext: guardFor(ext, "v1")}, Options{})
			w.waitReason("v1")
			away := filepath.Join(t.TempDir(), "moved")
			if err := os.Rename(w.dir, away); err != nil {
				t.Fatal(err)
			}
			w.waitFor("the problem", func(r Result, st Status) bool {
				return r.Decision.Reason == "v1" && len(st.Problems) == 1 &&
					strings.Contains(st.Problems[0], ": cannot read the hooks directory: ")
			})
			writeFile(t, filepath.Join(away, "g"+ext), guardFor(ext, "v2"))
			if err := os.Rename(away, w.dir); err != nil {
				t.Fatal(err)
			}
			w.waitFor("the directory back", func(r Result, st Status) bool {
				return r.Decision.Reason == "v2" && len(st.Problems) == 0
			})
			w.write("g"+ext, guardFor(ext, "v3"))
			w.waitReason("v3")
		})
	}
}

// DirFS is a well-behaved fs.FS, with the links of a ConfigMap and an
// absolute link inside followed.
func TestDirFSConforms(t *testing.T) {
	dir := t.TempDir()
	configMapTree(t, dir)
	if err := fstest.TestFS(DirFS(dir), "x.lua", "abs.star", "p/HOOK.md", "p/y.star", "..2026_01_01/x.lua"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/x.lua", "../x.lua", "p/../x.lua"} {
		if _, err := DirFS(dir).Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("%s: %v, want an invalid path", name, err)
		}
	}
}

// A pack directory that becomes unreadable (chmod -x hooks.d/guards) or
// is replaced by a symlink to a directory outside: its guards are never
// dropped in silence. A host that loaded keeps its last good hooks and
// reports the directory; a first load fails with the error.
func TestPackDirectoryUnreadableOrOutside(t *testing.T) {
	for _, ext := range []string{".lua", ".star"} {
		t.Run(ext[1:]+"/unreadable", func(t *testing.T) {
			locked := &atomic.Bool{}
			fsys := lockableFS{MapFS: fstest.MapFS{
				"p/HOOK.md": {Data: []byte("---\ndescription: a pack\n---\n")},
				"p/g" + ext: {Data: []byte(guardFor(ext, "v1"))},
			}, locked: locked, dir: "p"}
			h, err := New(context.Background(), Options{FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			locked.Store(true)
			want := "./p: cannot read the hooks directory: readdir p: permission denied"
			var de *DirError
			if rep := h.Rescan(context.Background(), TriggerSignal); !errors.As(rep.Err, &de) || rep.Err.Error() != want || !rep.Published {
				t.Fatalf("locked: %+v", rep)
			}
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "v1" || len(r.Problems) != 1 || r.Problems[0] != want {
				t.Fatalf("locked: %+v problems %q", r.Decision, r.Problems)
			}
			if _, err := New(context.Background(), Options{FS: fsys}); !errors.As(err, &de) {
				t.Fatalf("a first load with the pack locked: %v, want a *DirError", err)
			}
		})
		t.Run(ext[1:]+"/outside", func(t *testing.T) {
			dir, out := t.TempDir(), t.TempDir()
			writeFile(t, filepath.Join(dir, "p", "HOOK.md"), "---\ndescription: a pack\n---\n")
			writeFile(t, filepath.Join(dir, "p", "g"+ext), guardFor(ext, "v1"))
			writeFile(t, filepath.Join(out, "pack", "HOOK.md"), "---\ndescription: outside\n---\n")
			h, err := New(context.Background(), Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if err := os.Rename(filepath.Join(dir, "p"), filepath.Join(out, "moved")); err != nil {
				t.Fatal(err)
			}
			symlink(t, filepath.Join(out, "pack"), filepath.Join(dir, "p"))
			var de *DirError
			if rep := h.Rescan(context.Background(), TriggerSignal); !errors.As(rep.Err, &de) || !errors.Is(rep.Err, ErrOutsideDir) {
				t.Fatalf("linked out: %+v", rep)
			}
			if r := fireOK(t, h, "tool.approve", nil); r.Decision.Reason != "v1" || len(r.Problems) != 1 {
				t.Fatalf("linked out: %+v problems %q", r.Decision, r.Problems)
			}
			if _, err := New(context.Background(), Options{Dir: dir}); !errors.As(err, &de) || !errors.Is(err, ErrOutsideDir) {
				t.Fatalf("a first load with the pack linked out: %v, want a *DirError", err)
			}
		})
	}
}

// configMapTree lays out in dir the links of a Kubernetes ConfigMap
// (x.lua through ..data to a dated directory), a pack p with y.star, and
// abs.star, an absolute link to it inside dir.
func configMapTree(t *testing.T, dir string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "..2026_01_01", "x.lua"), denyLua("x"))
	symlink(t, "..2026_01_01", filepath.Join(dir, "..data"))
	symlink(t, filepath.Join("..data", "x.lua"), filepath.Join(dir, "x.lua"))
	writeFile(t, filepath.Join(dir, "p", "HOOK.md"), "---\n---\n")
	writeFile(t, filepath.Join(dir, "p", "y.star"), denyStar("y"))
	symlink(t, filepath.Join(dir, "p", "y.star"), filepath.Join(dir, "abs.star"))
}
