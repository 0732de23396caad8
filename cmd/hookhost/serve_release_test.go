package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stuckHooks grow their heap until their worker process (isolated,
// under limits.memory) dies: each death is a strike, and three
// quarantine the hook.
var stuckHooks = map[string]string{
	"stuck.lua": `hook.on("turn.pre", function()
  local t = {}
  for i = 1, 1e9 do t[i] = { i, i, i, i } end
end, { name = "stuck", timeout = "30s" })
`,
	"stuck.star": `def stuck():
    x = []
    for i in range(1000000000):
        x.append([i] * 64)

hook.on("turn.pre", stuck, timeout = "30s")
`,
}

// quarantined is the hooks /v1/status says are quarantined.
func (s *served) quarantined(auth ...string) []string {
	s.t.Helper()
	code, body := s.call("GET", "/v1/status", "", "", auth...)
	var st struct {
		Quarantined []string `json:"quarantined"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil || code != 200 {
		s.t.Fatalf("GET /v1/status: %d %s (%v)", code, body, err)
	}
	return st.Quarantined
}

// quarantine fires turn.pre until the stuck hook is quarantined.
func (s *served) quarantine(id string, auth ...string) {
	s.t.Helper()
	deadline := time.Now().Add(startupLimit)
	for !slices.Contains(s.quarantined(auth...), id) {
		if time.Now().After(deadline) {
			s.t.Fatalf("%s was not quarantined:\n%s", id, s.log)
		}
		s.call("POST", "/v1/fire/turn.pre", "application/json", `{"prompt":"x"}`, auth...)
	}
}

// POST /v1/hooks/{id}/release lifts a quarantine, behind the door and
// the token; SIGHUP lifts them all.
//
// The hookhost it runs is built without the race detector, whose
// workers would need more memory than the bombs are allowed.
func TestServeRelease(t *testing.T) {
	bin := builtHookhost(t)
	for file, code := range stuckHooks {
		t.Run(file, func(t *testing.T) {
			t.Parallel() // each file is a serve of its own
			testServeRelease(t, bin, file, code)
		})
	}
}

func testServeRelease(t *testing.T, bin, file, code string) {
	root := t.TempDir()
	dir := filepath.Join(root, "hooks.d")
	writeFiles(t, dir, map[string]string{file: code})
	writeFiles(t, root, map[string]string{"token": "s3cret-token\n",
		"hookhost.yaml": "limits: { memory: 128MiB }\nhooks:\n  " + file + ": { isolation: process }\n"})
	s := startServeWith(t, []string{bin}, nil, nil, "--dir", dir, "--token-file", filepath.Join(root, "token"), "--config", filepath.Join(root, "hookhost.yaml"))
	auth := []string{"Authorization", "Bearer s3cret-token"}
	id := file + ":stuck"
	path := "/v1/hooks/" + id + "/release"
	s.quarantine(id, auth...)
	for _, tc := range []struct {
		name   string
		ctype  string
		header []string
		code   int
		want   string
	}{
		{"no token", "application/json", nil, 401, "bearer token"},
		{"not JSON", "text/plain", auth, 415, "want Content-Type: application/json"},
		{"rebinding", "application/json", append([]string{"Host", "attacker.example"}, auth...), 421, "not a loopback name"},
		{"released", "application/json", auth, 200, `{"released":["` + id + `"]}`},
		{"no longer quarantined", "application/json", auth, 404, `hook \"` + id + `\" is not quarantined`},
	} {
		if code, got := s.call("POST", path, tc.ctype, "", tc.header...); code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("%s: POST %s: %d %s, want %d with %q", tc.name, path, code, got, tc.code, tc.want)
		}
	}
	if code, got := s.call("POST", "/v1/hooks/nope.lua:x/release", "application/json", "", auth...); code != 404 {
		t.Errorf("releasing an unknown hook: %d %s, want 404", code, got)
	}
	if q := s.quarantined(auth...); len(q) != 0 {
		t.Errorf("still quarantined after the release: %v", q)
	}
	s.waitLog("msg=\"hook released from quarantine\" hook=" + id)

	s.quarantine(id, auth...)
	s.signal(syscall.SIGHUP)
	s.waitLog("msg=\"SIGHUP: released from quarantine\" hooks=" + id)
	s.waitLog("msg=reloaded trigger=signal")
	if q := s.quarantined(auth...); len(q) != 0 {
		t.Errorf("still quarantined after SIGHUP: %v", q)
	}
	s.stop()
}
