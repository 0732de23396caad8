package setting

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	names := []string{"disks", "machine_state", "kernel_modules"}
	for _, tc := range []struct {
		name  string
		value map[string]any
		err   string // "" when the value is good
	}{
		{"empty", map[string]any{}, ""},
		{"every verdict", map[string]any{"disks": "deny", "machine_state": "ask", "kernel_modules": "allow"}, ""},
		{"an unknown name lists the names", map[string]any{"kernal": "ask"}, `unknown theme "kernal" (themes: disks, kernel_modules, machine_state)`},
		{"an unknown verdict", map[string]any{"disks": "maybe"}, `disks: want deny, ask or allow, got "maybe"`},
		{"a verdict of another type", map[string]any{"disks": true}, "disks: want deny, ask or allow, got bool"},
		{"verdicts are lower case", map[string]any{"disks": "Deny"}, `got "Deny"`},
		{"the first bad key in order", map[string]any{"zz": "ask", "aa": "ask"}, `unknown theme "aa"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Check(tc.value, names, "theme")
			if tc.err == "" {
				if err != nil || len(got) != len(tc.value) {
					t.Fatalf("Check = %v, %v; want the value back", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Check error = %v, want %q", err, tc.err)
			}
		})
	}
}
