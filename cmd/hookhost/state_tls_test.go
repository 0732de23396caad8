package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib/state/redisstate/redistest"
)

// TestStateOverTLS: a rediss:// store is reached over TLS, trusting the
// CA the process trusts (SSL_CERT_FILE here, as an operator with a
// private CA would set it): counts go on across one-shot fires in both
// languages. A server whose certificate the process does not trust is an
// error naming Redis and the certificate, and the fail-closed event
// denies with it.
func TestStateOverTLS(t *testing.T) {
	srv := redistest.StartTLS(t)
	hooks := map[string]string{
		"lua":  "local state = require(\"state\")\nhook.on(\"tool.execute.pre\", function()\n  return hook.deny(\"count \" .. tostring(state.incr(\"n\")))\nend)\n",
		"star": "load(\"state\", \"state\")\ndef count():\n    return hook.deny(\"count %d\" % state.incr(\"n\"))\nhook.on(\"tool.execute.pre\", count)\n",
	}
	for lang, src := range hooks {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, filepath.Join(dir, "hooks.d"), map[string]string{"g." + lang: src})
			writeFiles(t, dir, map[string]string{"hookhost.yaml": fmt.Sprintf(`state:
  backend: redis
  url: rediss://%s/0
  prefix: "tls-%s:"
  timeout: 10s
events:
  tool.execute.pre: { error_behavior: deny }
`, srv.TLSAddr, lang)})
			fire := func(env ...string) (string, string) {
				cmd := exec.Command("hookhost", "fire", "--dir", filepath.Join(dir, "hooks.d"), "--config",
					filepath.Join(dir, "hookhost.yaml"), "--json", "tool.execute.pre", "{}")
				cmd.Env = append(os.Environ(), env...)
				out, _ := cmd.Output()
				var res struct {
					Decision struct{ Action, Reason string }
				}
				if err := json.Unmarshal(out, &res); err != nil {
					t.Fatalf("fire: %v\n%s", err, out)
				}
				return res.Decision.Action, res.Decision.Reason
			}
			for want := 1; want <= 2; want++ {
				action, reason := fire("SSL_CERT_FILE=" + srv.CAFile)
				if action != "deny" || reason != fmt.Sprintf("count %d", want) {
					t.Fatalf("fire %d over TLS: %s %q, want deny \"count %d\"", want, action, reason, want)
				}
			}
			dir2 := t.TempDir() // no certificate this process trusts
			action, reason := fire("SSL_CERT_FILE="+filepath.Join(dir2, "none.pem"), "SSL_CERT_DIR="+dir2)
			if action != "deny" || !strings.Contains(reason, "redis at "+srv.TLSAddr) || !strings.Contains(reason, "certificate") {
				t.Fatalf("an untrusted server: %s %q, want a deny naming redis and the certificate", action, reason)
			}
		})
	}
}
