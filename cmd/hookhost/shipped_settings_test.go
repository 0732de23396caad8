package main

import (
	"context"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/host"
)

// TestShippedVerdictSettings: the verdicts settings of the destructive and
// git-risky packs tighten and relax their themes as their HOOK.md says,
// and a theme or verdict they do not know fails closed, naming the
// choices. The table tests run the defaults; these run the settings.
func TestShippedVerdictSettings(t *testing.T) {
	for _, tc := range []struct {
		name, config, command string
		want                  host.Action
		reason                string
	}{
		{"default: rm -r outside the workspace asks", "", "rm -rf /srv/data/old", host.Ask, "outside the workspace"},
		{"tightened: it is denied", `"destructive/": {config: {verdicts: {deletes_outside_workspace: deny}}}`,
			"rm -rf /srv/data/old", host.Deny, "outside the workspace"},
		{"tightened, the other themes keep their defaults", `"destructive/": {config: {verdicts: {deletes_outside_workspace: deny}}}`,
			"shutdown -h now", host.Deny, "shuts down"},
		{"relaxed: kernel modules ask", `"destructive/": {config: {verdicts: {kernel_modules: ask}}}`,
			"sudo modprobe vfio-pci", host.Ask, "kernel modules"},
		{"allowed: machine state passes", `"destructive/": {config: {verdicts: {machine_state: allow}}}`,
			"sudo reboot", host.Continue, ""},
		{"an unknown theme fails closed", `"destructive/": {config: {verdicts: {kernal: ask}}}`,
			"ls", host.Deny, "kernel_modules"},
		{"an unknown verdict fails closed", `"destructive/": {config: {verdicts: {disks: maybe}}}`,
			"ls", host.Deny, "want deny, ask or allow"},
		{"relaxed: rm -rf .git passes", `"destructive/": {config: {verdicts: {git_history: allow}}}`,
			"rm -rf .git", host.Continue, ""},
		{"tightened: rm -rf .git is denied", `"destructive/": {config: {verdicts: {git_history: deny}}}`,
			"rm -rf .git", host.Deny, "history"},
		{"tightened: terraform destroy is denied", `"destructive/": {config: {verdicts: {infrastructure: deny}}}`,
			"terraform destroy -auto-approve", host.Deny, "terraform destroy"},
		{"relaxed: kubectl delete ns passes", `"destructive/": {config: {verdicts: {infrastructure: allow}}}`,
			"kubectl delete ns prod", host.Continue, ""},
		{"git-risky default asks", "", "git reset --hard", host.Ask, "reset --hard"},
		{"git-risky tightened", `"git-risky/": {config: {verdicts: {reset: deny}}}`, "git reset --hard", host.Deny, "reset --hard"},
		{"git-risky relaxed", `"git-risky/": {config: {verdicts: {stash: allow}}}`, "git stash drop", host.Continue, ""},
		{"git-risky unknown rule fails closed", `"git-risky/": {config: {verdicts: {rebase: deny}}}`, "ls", host.Deny, "worktree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			var cfg *host.Config
			if tc.config != "" {
				var err error
				cfg, err = host.ParseConfig("settings.yaml", []byte("hooks:\n  "+tc.config+"\n"))
				if err != nil {
					t.Fatal(err)
				}
			}
			h, err := host.New(ctx, host.Options{Dir: shippedDir, Config: cfg})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			res, err := h.Fire(ctx, "tool.execute.pre", map[string]any{
				"tool_name": "Bash", "params": map[string]any{"command": tc.command}, "cwd": "/work/project"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Decision.Action != tc.want || !strings.Contains(res.Decision.Reason, tc.reason) {
				t.Errorf("%s: got %s (%s), want %s with a reason containing %q", tc.command, res.Decision.Action,
					res.Decision.Reason, tc.want, tc.reason)
			}
		})
	}
}
