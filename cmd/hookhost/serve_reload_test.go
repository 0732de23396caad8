package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// status reads /v1/status.
func (s *served) status() (st struct {
	Generation uint64 `json:"generation"`
	Files      []struct {
		Path        string  `json:"path"`
		Error       *string `json:"error"`
		LiveVersion string  `json:"live_version"`
	} `json:"files"`
	Config struct {
		Path  string  `json:"path"`
		Error *string `json:"error"`
	} `json:"config"`
	Strict   bool     `json:"strict"`
	Problems []string `json:"problems"`
}) {
	s.t.Helper()
	code, body := s.get("/v1/status")
	if err := json.Unmarshal([]byte(body), &st); err != nil || code != 200 {
		s.t.Fatalf("GET /v1/status: %d %s (%v)", code, body, err)
	}
	return st
}

// waitGeneration waits until /v1/status shows a generation past gen.
func (s *served) waitGeneration(gen uint64) {
	s.t.Helper()
	deadline := time.Now().Add(startupLimit)
	for s.status().Generation <= gen {
		if time.Now().After(deadline) {
			s.t.Fatalf("the generation stayed at %d:\n%s", gen, s.log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A file that never loaded: with --strict, /healthz is 503 naming it and
// deny-capable events deny; every answer carries the problem.
func TestServeStrict(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	writeFiles(t, dir, map[string]string{"broken.lua": "hook.on(\"tool.execute.pre\", function()\n  return (\nend)\n"})
	for _, strict := range []bool{false, true} {
		args := []string{"--dir", dir}
		if strict {
			args = append(args, "--strict")
		}
		s := startServe(t, nil, args...)
		code, health := s.get("/healthz")
		_, got := s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"ls"}}`)
		var res struct {
			Decision struct{ Action, Reason string }
			Problems []string
		}
		if err := json.Unmarshal([]byte(got), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Problems) != 1 || !strings.HasPrefix(res.Problems[0], "broken.lua:") {
			t.Errorf("strict %v: problems %q, want broken.lua's", strict, res.Problems)
		}
		if _, text := s.get("/metrics"); !strings.Contains(text, "\nhookhost_load_problems 1\n") {
			t.Errorf("strict %v: /metrics has no hookhost_load_problems 1", strict)
		}
		switch {
		case strict && (code != 503 || !strings.Contains(health, `broken.lua:2 failed to load`)):
			t.Errorf("strict: GET /healthz: %d %s, want 503 naming broken.lua", code, health)
		case strict && (res.Decision.Action != "deny" || !strings.Contains(res.Decision.Reason, "broken.lua")):
			t.Errorf("strict: fire decided %+v, want deny naming broken.lua", res.Decision)
		case !strict && (code != 200 || res.Decision.Action != "continue"):
			t.Errorf("not strict: /healthz %d, decision %+v; want 200 and continue", code, res.Decision)
		}
		s.stop()
	}
}

// SIGHUP reopens the decision log, then rescans the directory and the
// config. The contract for the log: a fire answered before the signal is
// in the old file, and one sent after the signal's reload is logged is in
// the new file. (The watcher may see the edits first; the state after
// the signal's reload is the same either way.)
func TestServeSIGHUP(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	writeFiles(t, dir, guards)
	cfg := filepath.Join(tmp, "hookhost.yaml")
	writeFiles(t, tmp, map[string]string{"hookhost.yaml": "hooks:\n  guard.lua:\n    enabled: true\n"})
	logPath := filepath.Join(tmp, "decisions.jsonl")
	s := startServe(t, nil, "--dir", dir, "--config", cfg, "--decision-log", logPath)
	rmRoot := `{"tool_name":"bash","params":{"command":"rm -rf /"}}`
	if _, got := s.fire("tool.execute.pre", rmRoot); !strings.Contains(got, `"hook":"guard.lua:no-rm-root"`) {
		t.Fatalf("before: %s", got)
	}
	before := s.status()
	// Rotate the log, disable the Lua guard, change the Starlark one.
	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, tmp, map[string]string{"hookhost.yaml": "hooks:\n  guard.lua:\n    enabled: false\n"})
	writeFiles(t, dir, map[string]string{"guard.star": strings.ReplaceAll(guards["guard.star"], `startswith("sudo ")`, `startswith("rm ")`)})
	s.signal(syscall.SIGHUP)
	s.waitLog("msg=reloaded trigger=signal")
	after := s.status()
	if after.Files[1].Path != "guard.star" || after.Files[1].LiveVersion == before.Files[1].LiveVersion {
		t.Errorf("guard.star's live version stayed %s", before.Files[1].LiveVersion)
	}
	if _, got := s.fire("tool.execute.pre", rmRoot); !strings.Contains(got, `"hook":"guard.star:no_sudo"`) {
		t.Errorf("after SIGHUP: %s, want the new Starlark guard to deny", got)
	}
	s.stop()
	for file, want := range map[string]string{logPath + ".1": "guard.lua:no-rm-root", logPath: "guard.star:no_sudo"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n != 1 || !strings.Contains(string(data), want) {
			t.Errorf("%s: %d lines %s; want one deciding %s", filepath.Base(file), n, data, want)
		}
	}
	if !strings.Contains(s.log.String(), "trigger=signal") {
		t.Errorf("the reload is not in the log:\n%s", s.log)
	}
}

// A bad config edit keeps the last good config, and status shows the
// error with its line.
func TestServeBadConfigEdit(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	writeFiles(t, dir, guards)
	cfg := filepath.Join(tmp, "hookhost.yaml")
	writeFiles(t, tmp, map[string]string{"hookhost.yaml": "hooks:\n  guard.lua:\n    enabled: false\n"})
	s := startServe(t, nil, "--dir", dir, "--config", cfg)
	writeFiles(t, tmp, map[string]string{"hookhost.yaml": "hooks:\n  guard.lua:\n    enabled: true\n    priorty: 3\n"})
	s.signal(syscall.SIGHUP)
	s.waitLog("config failed to load")
	st := s.status()
	if st.Config.Error == nil || !strings.Contains(*st.Config.Error, "hookhost.yaml:4") {
		t.Errorf("config error in status: %v, want hookhost.yaml:4", st.Config.Error)
	}
	if _, got := s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -rf /"}}`); strings.Contains(got, "guard.lua:no-rm-root\"") {
		t.Errorf("the bad config went live: %s", got)
	}
	s.stop()
}

// Hot reload: a file written, broken, fixed and removed while serve runs,
// seen through the API without any signal.
func TestServeHotReload(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"guard.lua": guards["guard.lua"]})
	s := startServe(t, nil, "--dir", dir)
	sudo := `{"tool_name":"bash","params":{"command":"sudo ls"}}`
	if _, got := s.fire("tool.execute.pre", sudo); !strings.Contains(got, `"action":"continue"`) {
		t.Fatalf("before: %s", got)
	}
	gen := s.status().Generation
	renameInto(t, dir, "guard.star", guards["guard.star"])
	s.waitGeneration(gen)
	if _, got := s.fire("tool.execute.pre", sudo); !strings.Contains(got, `"hook":"guard.star:no_sudo"`) {
		t.Errorf("after adding guard.star: %s", got)
	}
	// A bad edit keeps the last good version serving, and says so.
	gen = s.status().Generation
	renameInto(t, dir, "guard.star", "def broken(:\n")
	s.waitGeneration(gen)
	st := s.status()
	if st.Files[1].Path != "guard.star" || st.Files[1].Error == nil || st.Files[1].LiveVersion == "" {
		t.Errorf("after a bad edit: %+v, want guard.star's error with its old version live", st.Files)
	}
	if _, got := s.fire("tool.execute.pre", sudo); !strings.Contains(got, `"hook":"guard.star:no_sudo"`) || !strings.Contains(got, `"problems":["guard.star:1`) {
		t.Errorf("after a bad edit: %s, want the old guard.star deciding and its problem", got)
	}
	gen = s.status().Generation
	if err := os.Remove(filepath.Join(dir, "guard.star")); err != nil {
		t.Fatal(err)
	}
	s.waitGeneration(gen)
	if _, got := s.fire("tool.execute.pre", sudo); !strings.Contains(got, `"action":"continue"`) || strings.Contains(got, "problems") {
		t.Errorf("after removing guard.star: %s", got)
	}
	if !strings.Contains(s.log.String(), "trigger=watch") {
		t.Errorf("no watch reload in the log:\n%s", s.log)
	}
	s.stop()
}

// renameInto writes a file the way editors save: to a hidden temporary
// file, renamed over the target, so no reload sees it half-written.
func renameInto(t *testing.T, dir, name, content string) {
	t.Helper()
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}
