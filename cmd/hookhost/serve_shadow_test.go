package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Shadow mode through serve: a dryrun guard and a warn guard answer
// nothing; /metrics counts what they would have done, /v1/hooks shows
// their enforcement, the decision log's hooks entries carry it, and a
// config edit switching the guard to enforce applies from the next fire.
func TestServeShadowMode(t *testing.T) {
	root := t.TempDir()
	dir, cfg := filepath.Join(root, "hooks.d"), filepath.Join(root, "hookhost.yaml")
	logPath := filepath.Join(root, "decisions.jsonl")
	writeFiles(t, dir, guards) // guard.lua:no-rm-root, guard.star:no_sudo
	shadow := "hooks:\n  guard.lua: { enforce: dryrun }\n  guard.star:no_sudo: { enforce: warn }\n"
	writeFiles(t, root, map[string]string{"hookhost.yaml": shadow})
	s := startServe(t, nil, "--dir", dir, "--config", cfg, "--decision-log", logPath)

	rm := `{"tool_name":"bash","params":{"command":"rm -rf /"}}`
	for range 2 {
		if code, got := s.fire("tool.execute.pre", rm); code != 200 || !strings.Contains(got, `"decision":{"action":"continue"`) ||
			!strings.Contains(got, `"action":"deny","duration_ms":`) || !strings.Contains(got, `"enforce":"dryrun"`) {
			t.Fatalf("a dryrun deny: %d %s", code, got)
		}
	}
	code, got := s.fire("tool.execute.pre", `{"tool_name":"bash","params":{"command":"sudo ls"}}`)
	if code != 200 || !strings.Contains(got, `"decision":{"action":"continue"`) ||
		!strings.Contains(got, `"messages":[{"role":"system","content":"guard.star:no_sudo would deny: no sudo"}]`) {
		t.Fatalf("a warn deny: %d %s", code, got)
	}

	_, text := s.get("/metrics")
	for _, want := range []string{
		`hookhost_shadow_decisions_total{action="deny",enforce="dryrun",hook="guard.lua:no-rm-root"} 2`,
		`hookhost_shadow_decisions_total{action="continue",enforce="dryrun",hook="guard.lua:no-rm-root"} 1`,
		`hookhost_shadow_decisions_total{action="continue",enforce="warn",hook="guard.star:no_sudo"} 2`,
		`hookhost_shadow_decisions_total{action="deny",enforce="warn",hook="guard.star:no_sudo"} 1`,
		`hookhost_fires_total{action="continue",event="tool.execute.pre"} 3`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("no %q in /metrics", want)
		}
	}
	_, hooks := s.get("/v1/hooks")
	var entries []struct{ ID, Enforce string }
	if err := json.Unmarshal([]byte(hooks), &entries); err != nil {
		t.Fatal(err)
	}
	enforce := map[string]string{}
	for _, e := range entries {
		enforce[e.ID] = e.Enforce
	}
	if enforce["guard.lua:no-rm-root"] != "dryrun" || enforce["guard.star:no_sudo"] != "warn" {
		t.Errorf("GET /v1/hooks: %s", hooks)
	}

	gen := s.status().Generation
	writeFiles(t, root, map[string]string{"hookhost.yaml": "hooks:\n  guard.star:no_sudo: { enforce: warn }\n"})
	s.waitGeneration(gen)
	if code, got := s.fire("tool.execute.pre", rm); code != 200 ||
		!strings.Contains(got, `"decision":{"action":"deny","reason":"refusing to delete the root filesystem","hook":"guard.lua:no-rm-root"}`) {
		t.Errorf("after the reload to enforce: %d %s", code, got)
	}
	s.stop()

	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), data)
	}
	var first struct {
		Decision struct{ Action string }
		Hooks    []struct{ Hook, Outcome, Action, Enforce string }
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Decision.Action != "continue" || len(first.Hooks) != 2 || first.Hooks[0].Hook != "guard.lua:no-rm-root" ||
		first.Hooks[0].Action != "deny" || first.Hooks[0].Enforce != "dryrun" || first.Hooks[1].Enforce != "warn" {
		t.Errorf("first line: %s", lines[0])
	}
	if !strings.Contains(lines[3], `"decision":{"action":"deny"`) || strings.Contains(lines[3], `"enforce":"dryrun"`) {
		t.Errorf("the line after the reload: %s", lines[3])
	}
}
