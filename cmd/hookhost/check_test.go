package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hookhost/hookhost/host"
)

func TestUnmatched(t *testing.T) {
	files := map[string]host.FileStatus{
		"guard.lua":  {Path: "guard.lua", Hooks: 1, Version: "abc"},
		"broken.lua": {Path: "broken.lua"}, // never compiled
	}
	ids := map[string]bool{"guard.lua:no-rm-root": true}
	for _, tc := range []struct{ key, want string }{
		{"guard.lua", ""},
		{"guard.lua:no-rm-root", ""},
		{"broken.lua", ""},
		{"broken.lua:anything", ""},
		{"guard.lua:nope", `guard.lua registers no hook named "nope"`},
		{"gaurd.lua", "no script file gaurd.lua in the hooks directory"},
		{"gone.star:x", "no script file gone.star in the hooks directory"},
	} {
		if got := unmatched(tc.key, files, ids); got != tc.want {
			t.Errorf("unmatched(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}

func TestRunCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.star", "hook.on(\"turn.post\", lambda response: None)\n")
	opts := &checkOptions{commonOptions{Dir: dir, LogLevel: "warn"}}
	var stdout, stderr bytes.Buffer
	if err := runCheck(context.Background(), opts, nil, &stdout, &stderr); err != nil {
		t.Fatalf("runCheck: %v", err)
	}
	if got := stdout.String(); got != "ok: 1 file, 1 hook\n" {
		t.Errorf("stdout = %q", got)
	}

	write("bad.lua", "hook.on(\n")
	stdout.Reset()
	err := runCheck(context.Background(), opts, nil, &stdout, &stderr)
	if exitCode(err) != exitFailed || err.Error() != "check: 1 problem" {
		t.Errorf("runCheck = %v (exit %d), want check: 1 problem (exit 1)", err, exitCode(err))
	}
	if got := stdout.String(); !regexp.MustCompile(`^bad\.lua:[0-9]+: .+\n$`).MatchString(got) {
		t.Errorf("stdout = %q, want one line bad.lua:N: …", got)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr = %q, want nothing (problems are printed once, on stdout)", stderr.String())
	}
}
