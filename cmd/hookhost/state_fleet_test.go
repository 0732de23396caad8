package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib/state/redisstate/redistest"
)

// The same rate-limited guard in both languages: 5 web searches a
// minute, counted in the state module; and a logger on another event
// that writes to state on a skip event.
var fleetHooks = map[string]map[string]string{
	"lua": {"limit.lua": `local state = require("state")
hook.on("tool.execute.pre", function(tool_name)
  local r = state.rate("web_search", 5, "1m")
  if not r.allowed then
    return hook.deny("no more than 5 web searches a minute")
  end
end)
hook.on("tool.execute.post", function(tool_name)
  state.incr("post")
end)
`},
	"star": {"limit.star": `load("state", "state")
def limit(tool_name):
    r = state.rate("web_search", 5, "1m")
    if not r["allowed"]:
        return hook.deny("no more than 5 web searches a minute")
hook.on("tool.execute.pre", limit)
def post(tool_name):
    state.incr("post")
hook.on("tool.execute.post", post)
`},
}

// fireAction posts a fire and returns the final action and the reason;
// safe from any goroutine.
func fireAction(s *served, event string) (string, string, error) {
	req, _ := http.NewRequest("POST", s.base+"/v1/fire/"+event, strings.NewReader(`{"tool_name":"web_search","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var ans struct {
		Decision struct{ Action, Reason string }
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return "", "", fmt.Errorf("%d %s: %v", resp.StatusCode, body, err)
	}
	return ans.Decision.Action, ans.Decision.Reason, nil
}

// TestFleetSharesOneLimit: two serve processes and one-shot fire
// commands on one Redis allow exactly 5 of a 5-a-minute limit between
// them, in Lua and in Starlark. Then Redis is killed: the fail-closed
// event denies saying why, the skip event continues, status and metrics
// say Redis did not answer; Redis is started again and the next fires
// work with no restart. The same with the hooks in worker processes
// (isolation: process), which open the store the config names.
func TestFleetSharesOneLimit(t *testing.T) {
	srv := redistest.Start(t)
	for _, c := range []struct {
		lang     string
		isolated bool
	}{{"lua", false}, {"star", false}, {"lua", true}, {"star", true}} {
		lang, files := c.lang, fleetHooks[c.lang]
		name, isolation := lang, "none"
		if c.isolated {
			// The worker processes of isolated files open the same store.
			name, isolation = lang+"-isolated", "process"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			hooks := filepath.Join(dir, "hooks.d")
			writeFiles(t, hooks, files)
			cfg := filepath.Join(dir, "hookhost.yaml")
			writeFiles(t, dir, map[string]string{"hookhost.yaml": fmt.Sprintf(`state:
  backend: redis
  url: %s
  prefix: "fleet-%s:"
  timeout: 2s
defaults: { isolation: %s }
events:
  tool.execute.pre: { error_behavior: deny }
  tool.execute.post: { error_behavior: skip }
`, srv.URL(1), name, isolation)})
			a := startServe(t, nil, "--dir", hooks, "--config", cfg)
			b := startServe(t, nil, "--dir", hooks, "--config", cfg)

			var mu sync.Mutex
			counts := map[string]int{}
			var wg sync.WaitGroup
			for i := range 16 {
				s := a
				if i%2 == 1 {
					s = b
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					action, reason, err := fireAction(s, "tool.execute.pre")
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						counts["error: "+err.Error()]++
						return
					}
					counts[action+": "+reason]++
				}()
			}
			// One-shot commands count against the same limit.
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					out, _ := exec.Command("hookhost", "fire", "--dir", hooks, "--config", cfg, "--json", "tool.execute.pre",
						`{"tool_name":"web_search","params":{}}`).Output()
					var ans struct {
						Decision struct{ Action, Reason string }
					}
					err := json.Unmarshal(out, &ans)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						counts[fmt.Sprintf("one-shot error: %v: %s", err, out)]++
						return
					}
					counts[ans.Decision.Action+": "+ans.Decision.Reason]++
				}()
			}
			wg.Wait()
			want := map[string]int{"continue: ": 5, "deny: no more than 5 web searches a minute": 13}
			if fmt.Sprint(counts) != fmt.Sprint(want) {
				t.Fatalf("18 fires across two serves and two one-shot commands: %v, want %v", counts, want)
			}

			srv.Stop()
			action, reason, err := fireAction(a, "tool.execute.pre")
			if err != nil || action != "deny" || !strings.Contains(reason, "redis at "+srv.Addr) {
				t.Errorf("fail-closed fire with Redis down: %s %q %v, want deny naming redis", action, reason, err)
			}
			if action, _, err := fireAction(b, "tool.execute.post"); err != nil || action != "continue" {
				t.Errorf("skip fire with Redis down: %s %v, want continue", action, err)
			}
			// The status and metrics are of serve's own store; isolated
			// workers open their own (docs/stdlib.md says so).
			_, status := a.get("/v1/status")
			if !c.isolated && !strings.Contains(status, `"state":{"backend":"redis","target":"`+srv.Addr+`","answered":false,"error":"redis at `) {
				t.Errorf("status with Redis down lacks the state backend's failure:\n%s", status)
			}
			_, metrics := a.get("/metrics")
			if !c.isolated && (!strings.Contains(metrics, `hookhost_state_operation_errors_total{backend="redis",op="rate"} 1`) ||
				!strings.Contains(metrics, `hookhost_state_operation_duration_seconds_count{backend="redis",op="rate"} `)) {
				t.Errorf("metrics lack the failed rate operation:\n%s", grepLines(metrics, "hookhost_state_"))
			}

			srv.Restart() // empty: the window starts again
			deadline := time.Now().Add(startupLimit)
			for {
				action, reason, err := fireAction(a, "tool.execute.pre")
				if err == nil && action == "continue" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%v after Redis came back: %s %q %v", startupLimit, action, reason, err)
				}
				time.Sleep(50 * time.Millisecond)
			}
			_, status = a.get("/v1/status")
			if !c.isolated && !strings.Contains(status, `"answered":true,"error":null`) {
				t.Errorf("status after Redis came back:\n%s", status)
			}
			a.stop()
			b.stop()
		})
	}
}

func grepLines(text, substr string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
