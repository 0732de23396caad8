package host

import "testing"

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
