package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A hook that fails on every call is visible: /v1/status lists it under
// failing and GET /v1/hooks gives its recent timeouts and its last
// failure, and the log warns that it keeps failing (once, for fires
// within a minute). serve's log also notes what check warns of: a
// misspelled parameter, a guard that fails open.
func TestServeShowsAHookThatKeepsFailing(t *testing.T) {
	for _, lang := range []string{"lua", "star"} {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"loop.lua": `hook.on("tool.execute.pre", function(tool_name) while true do end end, { name = "loop", timeout = "50ms" })`,
				"typo.lua": `hook.on("tool.execute.pre", function(tool_nme) end, { name = "typo", error_behavior = "deny", timeout_behavior = "deny" })`,
			}
			id := "loop.lua:loop"
			if lang == "star" {
				files = map[string]string{
					"loop.star": "def loop(tool_name):\n    for i in range(1 << 40):\n        pass\n\nhook.on(\"tool.execute.pre\", loop, timeout = \"50ms\")",
					"typo.star": "def typo(tool_nme):\n    pass\n\nhook.on(\"tool.execute.pre\", typo, error_behavior = \"deny\", timeout_behavior = \"deny\")",
				}
				id = "loop.star:loop"
			}
			writeFiles(t, dir, files)
			s := startServe(t, nil, "--dir", dir)
			s.waitLog("did you mean tool_name")
			s.waitLog("hook that could deny fails open")
			for range 4 {
				if code, body := s.fire("tool.execute.pre", `{"tool_name":"Bash","params":{}}`); code != 200 || !strings.Contains(body, `"outcome":"timeout"`) {
					t.Fatalf("fire: %d %s", code, body)
				}
			}
			s.waitLog("hook keeps failing")
			if n := strings.Count(s.log.String(), "hook keeps failing"); n != 1 {
				t.Errorf("%d warnings that the hook keeps failing, want 1 a minute:\n%s", n, s.log)
			}

			var st struct {
				Failing []struct {
					Hook      string `json:"hook"`
					Timeouts  int    `json:"timeouts"`
					Errors    int    `json:"errors"`
					LastError string `json:"last_error"`
					LastAt    string `json:"last_at"`
				} `json:"failing"`
			}
			code, body := s.get("/v1/status")
			if err := json.Unmarshal([]byte(body), &st); err != nil || code != 200 {
				t.Fatalf("GET /v1/status: %d %s (%v)", code, body, err)
			}
			if len(st.Failing) != 1 || st.Failing[0].Hook != id || st.Failing[0].Timeouts != 4 || st.Failing[0].Errors != 0 ||
				!strings.Contains(st.Failing[0].LastError, "timed out after 50ms") || st.Failing[0].LastAt == "" {
				t.Errorf("GET /v1/status: failing %+v, want %s with 4 timeouts:\n%s", st.Failing, id, body)
			}

			var hooks []struct {
				ID     string `json:"id"`
				Recent struct {
					Timeouts  int    `json:"timeouts"`
					Errors    int    `json:"errors"`
					LastError string `json:"last_error"`
				} `json:"recent_failures"`
			}
			code, body = s.get("/v1/hooks")
			if err := json.Unmarshal([]byte(body), &hooks); err != nil || code != 200 {
				t.Fatalf("GET /v1/hooks: %d %s (%v)", code, body, err)
			}
			for _, h := range hooks {
				want := 0
				if h.ID == id {
					want = 4
				}
				if h.Recent.Timeouts != want || h.Recent.Errors != 0 || (want > 0) != strings.Contains(h.Recent.LastError, "timed out") {
					t.Errorf("GET /v1/hooks: %s recent_failures %+v, want %d timeouts", h.ID, h.Recent, want)
				}
			}
			s.stop()
		})
	}
}

// A config edit that does not load is among /v1/status's problems, the
// last good config serving, until it is fixed.
func TestServeStatusProblemsHaveTheConfigError(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.lua":         `hook.on("tool.execute.pre", function() end, { name = "a" })`,
		"hookhost.yaml": "hooks:\n  a.lua: { priority: 1 }\n",
	})
	s := startServe(t, nil, "--dir", dir)
	problems := func() []string {
		t.Helper()
		var st struct {
			Problems []string `json:"problems"`
		}
		code, body := s.get("/v1/status")
		if err := json.Unmarshal([]byte(body), &st); err != nil || code != 200 {
			t.Fatalf("GET /v1/status: %d %s (%v)", code, body, err)
		}
		return st.Problems
	}
	if p := problems(); len(p) != 0 {
		t.Fatalf("problems %q, want none", p)
	}
	writeFiles(t, dir, map[string]string{"hookhost.yaml": "hooks:\n  a.lua: { priority: high }\n"})
	s.waitLog("config failed to load")
	if p := problems(); len(p) != 1 || !strings.Contains(p[0], "hookhost.yaml:2:") || !strings.Contains(p[0], "the last good config serves") {
		t.Errorf("problems %q, want the config's error", p)
	}
	s.stop()
}
