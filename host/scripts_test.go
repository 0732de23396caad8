package host

import (
	"context"
	"strings"
	"testing"
)

func TestIsScript(t *testing.T) {
	for name, want := range map[string]bool{
		"guard.lua": true, "guard.star": true, "a.b.lua": true,
		"guard_test.lua": false, "guard_test.star": false, ".guard.lua": false,
		"HOOK.md": false, "guard_test.yaml": false, "guard.py": false, "lua": false, "guard.lua~": false,
	} {
		if got := IsScript(name); got != want {
			t.Errorf("IsScript(%q) = %v, want %v", name, got, want)
		}
	}
}

// A file holding a NUL byte does not load, in either language, with an
// error at the NUL's line: Starlark's scanner would take it for the end
// of the file and silently drop the hooks after it.
func TestFileWithNULDoesNotLoad(t *testing.T) {
	files := map[string]string{
		"a.star": "def guard():\n    return hook.deny(\"no\")\n\x00\nhook.on(\"tool.approve\", guard)\n",
		"b.lua":  "local x = 1\n\x00\nhook.on(\"tool.approve\", function() return hook.deny(\"no\") end)\n",
		"ok.lua": "hook.on(\"tool.approve\", function() return hook.allow() end, { name = \"ok\" })\n",
	}
	h := newTestHostAllowProblems(t, files)
	want := map[string]string{"a.star:3:": "", "b.lua:2:": ""}
	for _, p := range h.Problems() {
		for prefix := range want {
			if strings.HasPrefix(p.Error(), prefix) && strings.Contains(p.Error(), "NUL byte") {
				delete(want, prefix)
			}
		}
	}
	if len(want) > 0 {
		t.Fatalf("problems %v, want errors at %v", h.Problems(), want)
	}
	r, err := h.Fire(context.Background(), "tool.approve", map[string]any{})
	if err != nil || r.Decision.Action != Allow || len(r.Trace) != 1 {
		t.Fatalf("the file that loads does not serve: %+v, %v", r, err)
	}
}
