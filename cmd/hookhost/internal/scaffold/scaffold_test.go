package scaffold

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/testrun"
	"github.com/hookhost/hookhost/host"
)

func TestFiles(t *testing.T) {
	var paths []string
	for _, f := range Files() {
		paths = append(paths, f.Path)
	}
	for _, want := range []string{"guard.lua", "guard_test.lua", "workspace.star", "workspace_test.yaml",
		"hookhost.yaml", ".luarc.json", ".luals/hookhost.lua", ".luals/expect.lua", ".luals/shell.lua"} {
		if !slices.Contains(paths, want) {
			t.Errorf("Files: no %s in %v", want, paths)
		}
	}
}

// TestWriteThenTest scaffolds a directory and runs its tests the way
// hookhost test does, with and without its hookhost.yaml: every test
// passes, every hook is fired, and nothing fails to load.
func TestWriteThenTest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hooks.d")
	written, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != len(Files()) {
		t.Errorf("wrote %d files, want %d", len(written), len(Files()))
	}
	cfg, err := host.LoadConfig(filepath.Join(dir, "hookhost.yaml"))
	if err != nil {
		t.Fatalf("the scaffold's hookhost.yaml: %v", err)
	}
	// The scaffold's hooks get a second each, which a loaded machine
	// running the race detector can use up; this test is about what they
	// decide, so it gives them (and each test) a minute. The run without
	// the scaffold's hookhost.yaml has a config of that timeout alone.
	cfg.Defaults.Timeout = time.Minute
	bare, err := host.ParseConfig("generous.yaml", []byte("defaults: { timeout: 1m }\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*host.Config{bare, cfg} {
		rep, err := testrun.Run(context.Background(), testrun.Options{Dir: dir, Config: c, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() > 0 || rep.Passed() < 6 || len(rep.LoadErrors)+len(rep.Problems) > 0 {
			t.Errorf("config %s: %d passed, %d failed, load errors %v, problems %v", c.Path, rep.Passed(), rep.Failed(), rep.LoadErrors, rep.Problems)
			for _, r := range rep.Results {
				if r.Outcome != testrun.Pass {
					t.Log(r.Failure)
				}
			}
		}
		for _, fc := range rep.Coverage() {
			if u := fc.Unfired(); len(u) > 0 {
				t.Errorf("the scaffold's tests do not fire %v", u)
			}
		}
	}
}

// TestWriteRefuses: with any of its files already there, Write writes
// nothing and names that file.
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, ".luals", "json.lua")
	if err := os.MkdirAll(filepath.Dir(existing), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(existing, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Write(dir)
	var ee *ExistsError
	if !errors.As(err, &ee) || ee.Path != existing {
		t.Fatalf("Write: %v, want an ExistsError for %s", err, existing)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Write wrote files although it refused: %v", entries)
	}
	if data, _ := os.ReadFile(existing); string(data) != "mine" {
		t.Errorf("the existing file was changed: %q", data)
	}
}

func TestWriteRefusesAFileAsTheDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hooks.d")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Write(file)
	var ee *ExistsError
	if !errors.As(err, &ee) || ee.Path != file {
		t.Errorf("Write over a file: %v, want an ExistsError for %s", err, file)
	}
}

// wantKeys matches the list of keys a config error says it accepts.
var wantKeys = regexp.MustCompile(`\(want ([a-z_, ]+)\)`)

// TestConfigExplainsEveryKey: the scaffold's hookhost.yaml names every
// key the host accepts — found by asking the host's own parser for each
// section with an unknown key — as a setting or a commented example.
func TestConfigExplainsEveryKey(t *testing.T) {
	text := readTemplate(t, "files/hookhost.yaml")
	for _, probe := range []struct{ section, yaml string }{
		{"", "zzz: 1\n"},
		{"defaults", "defaults: {zzz: 1}\n"},
		{"limits", "limits: {zzz: 1}\n"},
		{"events", "events: {tool.approve: {zzz: 1}}\n"},
		{"hooks", "hooks: {guard.lua: {zzz: 1}}\n"},
	} {
		_, err := host.ParseConfig("probe.yaml", []byte(probe.yaml))
		m := wantKeys.FindStringSubmatch(errString(err))
		if m == nil {
			t.Errorf("section %q: the parser's error %v lists no keys", probe.section, err)
			continue
		}
		for _, key := range strings.Split(m[1], ", ") {
			if !regexp.MustCompile(`(?m)^[ #]*` + regexp.QuoteMeta(key) + `:`).MatchString(text) {
				t.Errorf("files/hookhost.yaml: section %q: key %s is not explained", probe.section, key)
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
