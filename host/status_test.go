package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Status's JSON is the status endpoint's shape: every key present, the
// errors strings or null, the lists never null.
func TestStatusJSON(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(t.TempDir(), "hookhost.yaml")
	os.WriteFile(filepath.Join(dir, "good.lua"), []byte(`hook.on("tool.approve", function() end, { name = "a" })
hook.on("tool.approve", function() end, { name = "b" })`), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.star"), []byte("def f(:\n"), 0o644)
	os.WriteFile(cfgPath, []byte("strict: true\n"), 0o644)
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	js, err := json.Marshal(h.Status())
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^\{"generation":1,"loaded_at":"[0-9T:Z-]+","files":\[` +
		`\{"path":"bad.star","hooks":0,"error":"bad.star:1: [^"]+","live_version":""\},` +
		`\{"path":"good.lua","hooks":2,"error":null,"live_version":"[0-9a-f]{12}"\}\],` +
		`"config":\{"path":"[^"]+hookhost.yaml","error":null\},"packs":\[\],"notes":\[\],"quarantined":\[\],"quarantines":\[\],"strict":true,` +
		`"problems":\["bad.star:1: [^"]+"\],` +
		`"state":\{"backend":"memory","answered":true,"error":null\},"failing":\[\]\}$`)
	if !re.Match(js) {
		t.Fatalf("status JSON:\n%s", js)
	}
	if u := h.Status().Unhealthy(); len(u) != 1 || !strings.HasPrefix(u[0], "bad.star:1 failed to load: ") {
		t.Errorf("unhealthy %q", u)
	}

	os.WriteFile(cfgPath, []byte("strict: yes please\n"), 0o644)
	h.Rescan(context.Background(), TriggerAPI)
	js, _ = json.Marshal(h.Status())
	if !strings.Contains(string(js), `hookhost.yaml:1: strict: want true or false`) || !strings.Contains(string(js), `"strict":true`) {
		t.Errorf("a bad config edit should show its error and keep the last good config: %s", js)
	}
}
