package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// serve reads the hooks directory's own hookhost.yaml when no config is
// named, given the directory as its argument; its start-up log and
// /v1/status say which file it read.
func TestServeDirConfig(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, guards)
	writeFiles(t, dir, map[string]string{"hookhost.yaml": "hooks:\n  guard.lua:\n    enabled: false\n"})
	s := startServe(t, nil, dir)
	cfg := filepath.Join(dir, "hookhost.yaml")
	s.waitLog(`config="` + cfg + ` (found in the hooks directory)"`)
	if st := s.status(); st.Config.Path != cfg || st.Config.Error != nil {
		t.Errorf("/v1/status config: %+v, want %s", st.Config, cfg)
	}
	if _, got := s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"rm -rf /"}}`); strings.Contains(got, `"deny"`) {
		t.Errorf("the directory's config disables guard.lua, yet: %s", got)
	}
	s.stop()
}

// A hooks entry of the config that matches no file or hook is in serve's
// log and among /v1/status's problems, from the start and after any
// reload that makes an entry stop (or start) matching.
func TestServeUnmatchedConfig(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	writeFiles(t, dir, guards)
	cfg := filepath.Join(tmp, "hookhost.yaml")
	writeFiles(t, tmp, map[string]string{"hookhost.yaml": "hooks:\n  gaurd.lua:\n    enabled: false\n"})
	s := startServe(t, nil, "--dir", dir, "--config", cfg)
	misspelt := cfg + ":2: hooks.gaurd.lua: no script file gaurd.lua in the hooks directory"
	s.waitLog(`msg="config entry matches no hook file or hook; it configures nothing" problem="` + misspelt + `"`)
	if st := s.status(); !slices.Contains(st.Problems, misspelt) {
		t.Errorf("/v1/status problems %q, want %q", st.Problems, misspelt)
	}

	// The operator fixes the entry: the problem goes.
	writeFiles(t, tmp, map[string]string{"hookhost.yaml": "hooks:\n  guard.lua:\n    enabled: false\n  guard.star:no_sudo: { timeout: 2s }\n"})
	s.waitProblems(nil)

	// A script edit renames the hook the config names: the entry now
	// matches nothing, and says so.
	writeFiles(t, dir, map[string]string{"guard.star": strings.Replace(guards["guard.star"], "no_sudo, ", `no_sudo, name = "sudo", `, 1)})
	renamed := cfg + `:4: hooks.guard.star:no_sudo: guard.star registers no hook named "no_sudo"`
	s.waitProblems([]string{renamed})
	s.waitLog(`problem="` + strings.ReplaceAll(renamed, `"`, `\"`) + `"`)
	s.stop()
}

// waitProblems waits until /v1/status lists exactly want as its
// problems (a reload publishes its snapshot before its observers hear
// of it, so the status may lag the generation briefly).
func (s *served) waitProblems(want []string) {
	s.t.Helper()
	deadline := time.Now().Add(startupLimit)
	for {
		got := s.status().Problems
		if slices.Equal(got, want) || len(got) == 0 && len(want) == 0 {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("/v1/status problems %q, want %q:\n%s", got, want, s.log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
