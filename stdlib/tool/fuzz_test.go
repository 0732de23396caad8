package tool_test

import (
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/json"
	"github.com/hookhost/hookhost/stdlib/stdlibtest"
	"github.com/hookhost/hookhost/stdlib/tool"
)

// FuzzPatchPaths feeds apply_patch bodies, which the model writes, to
// the parser: it must not panic, and every file it reports must come
// from a header line of the body.
func FuzzPatchPaths(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-a\n+b\n*** End Patch\n")
	f.Add("*** Add File: \r\n*** Delete File:  x \r\n")
	f.Add("apply_patch <<'EOF'\n  *** Add File: /etc/x\nEOF")
	f.Fuzz(func(t *testing.T, body string) {
		for _, p := range tool.PatchPaths(body) {
			if p == "" || p != strings.TrimSpace(p) || strings.Contains(p, "\n") || !strings.Contains(body, p) {
				t.Fatalf("PatchPaths(%q) gave %q", body, p)
			}
		}
	})
}

// FuzzCommand feeds params, as JSON text, to command and paths: neither
// may panic, a string command comes back as it is, and an argv list
// comes back as a line.
func FuzzCommand(f *testing.F) {
	f.Add(`{"command": ["bash", "-lc", "rm -rf /"]}`)
	f.Add(`{"command": ["bash", "-c", "x", "y"]}`)
	f.Add(`{"command": ["A=b", "it's", "", 3, 1.5e300]}`)
	f.Add(`{"cmd": "ls", "kwargs": {"command": "pwd"}}`)
	f.Add(`{"content": "ls", "args": ["a"], "edits": [{"path": "x"}], "input": "*** Add File: y"}`)
	m := tool.New()
	f.Fuzz(func(t *testing.T, text string) {
		params, err := json.Decode(text)
		if err != nil {
			return
		}
		got, err := stdlibtest.Call(t, m, "command", params)
		if err == nil && got != nil {
			if _, ok := got.(string); !ok {
				t.Fatalf("command(%s) = %#v, not a string", text, got)
			}
		}
		if p, ok := params.(map[string]any); ok {
			if s, ok := p["command"].(string); ok && s != "" && err == nil && got != s && !strings.HasPrefix(strings.TrimSpace(s), "*** Begin Patch") {
				t.Fatalf("command(%s) = %#v, want the string as it is", text, got)
			}
		}
		for _, name := range []string{"Bash", "Write", "apply_patch", "save", "frobnicate"} {
			if _, err := stdlibtest.Call(t, m, "paths", name, params, "/w"); err != nil {
				t.Fatalf("paths(%s, %s): %v", name, text, err)
			}
		}
		if _, err := stdlibtest.Call(t, m, "command", text); err != nil && !strings.Contains(err.Error(), "argument 1 (params): ") {
			t.Fatalf("command of JSON text %s: %v", text, err)
		}
	})
}
