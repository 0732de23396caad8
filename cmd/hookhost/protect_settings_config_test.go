package main

import (
	"context"
	"testing"

	"github.com/hookhost/hookhost/host"
)

// TestProtectSettingsConfigFiles: the shipped protect-settings pack
// guards the configuration files its config_files setting names (a
// --config in use outside the default places), and a directory that
// holds one, as it guards hookhost.yaml; other paths still pass.
func TestProtectSettingsConfigFiles(t *testing.T) {
	ctx := context.Background()
	cfg, err := host.ParseConfig("hookhost.yaml", []byte(`
hooks:
  protect-settings/:
    config: { config_files: ["/srv/hh/conf.yaml", "~/hh"] }
`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(ctx, host.Options{Dir: shippedDir, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	cases := []struct {
		command string
		want    host.Action
	}{
		{"echo x > /srv/hh/conf.yaml", host.Ask},
		{"rm -rf /srv/hh", host.Ask},
		{"cp evil.yaml ~/hh/conf.yaml", host.Ask},
		{"sed -i s/deny/allow/ ~/HH/x.yaml", host.Ask},
		{"echo x > /home/dev/hh/x.yaml", host.Ask},
		{"rm -rf /home/dev", host.Ask},
		{"echo x > /home/dev/hhx", host.Continue},
		{"cat /srv/hh/conf.yaml", host.Continue},
		{"echo x > /srv/other/conf.yaml", host.Continue},
		{"rm /srv/hhx", host.Continue}, // not recursive: destructive asks about a recursive rm outside the workspace
	}
	for _, c := range cases {
		res, err := h.Fire(ctx, "tool.execute.pre", map[string]any{
			"tool_name": "Bash", "params": map[string]any{"command": c.command}, "cwd": "/work/project",
		})
		if err != nil {
			t.Fatalf("%s: %v", c.command, err)
		}
		if res.Decision.Action != c.want {
			t.Errorf("%s: got %s by %s (%s), want %s", c.command, res.Decision.Action, res.Decision.Hook, res.Decision.Reason, c.want)
		}
	}
}
