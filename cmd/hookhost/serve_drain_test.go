package main

import (
	"strings"
	"sync"
	"syscall"
	"testing"
)

// drainHooks are guards on tool.approve, which fails closed: "guard"
// works for about a second of CPU and allows; "spin" spins until its
// ten-minute deadline.
var drainHooks = map[string]string{
	"guard.lua": `hook.on("tool.approve", function(tool_name)
  if tool_name ~= "slow" then return end
  print("guard started")
  local t = os.clock()
  while os.clock() - t < 1 do end
  return hook.allow("checked")
end, { name = "guard", timeout = "5m" })
`,
	"spin.lua": `hook.on("tool.approve", function(tool_name)
  if tool_name ~= "spin" then return end
  print("spinning")
  while true do end
end, { name = "spin", timeout = "10m" })
`,
}

// fireDuringStop starts a fire of tool.approve for tool, waits until
// its hook prints started, and returns a function that waits for the
// answer.
func (s *served) fireDuringStop(tool, started string) func() (int, string) {
	var wg sync.WaitGroup
	var code int
	var body string
	wg.Go(func() { code, body = s.fire("tool.approve", `{"tool_name":"`+tool+`","params":{}}`) })
	s.waitLog(started)
	return func() (int, string) { wg.Wait(); return code, body }
}

// A rolling restart does not turn a running guard's answer into a deny:
// a guard of about a second in flight at SIGTERM gets its real answer
// under the default 10 s shutdown timeout. On a machine so loaded that
// the guard's second of CPU takes more than 10 s, the shutdown timeout
// cancels it, and the deny says so; both are correct, and neither is
// what serve did when it cancelled fires half a second after SIGTERM.
func TestServeDrainAnswersAGuardInFlight(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	dir := t.TempDir()
	writeFiles(t, dir, drainHooks)
	s := startServe(t, nil, "--dir", dir)
	answer := s.fireDuringStop("slow", "guard started")
	s.signal(syscall.SIGTERM)
	code, body := answer()
	switch {
	case code == 200 && strings.Contains(body, `"decision":{"action":"allow","reason":"checked","hook":"guard.lua:guard"}`):
	case code == 200 && strings.Contains(body, `"action":"deny"`) &&
		strings.Contains(body, "hookhost serve is stopping: the fire ran past the shutdown timeout (10s)"):
		t.Logf("the machine is loaded: the guard ran past the shutdown timeout: %s", body)
	default:
		t.Errorf("the guard in flight at SIGTERM: %d %s", code, body)
	}
	if exit := s.wait(); exit != 0 {
		t.Errorf("exit %d after SIGTERM, want 0:\n%s", exit, s.log)
	}
}

// A hook spinning to its ten-minute deadline does not keep serve alive
// past --shutdown-timeout: its fire is cancelled, the fail-closed event
// denies saying serve was stopping, and serve exits 0.
func TestServeShutdownTimeoutCancelsASpinner(t *testing.T) {
	t.Parallel() // its own processes, directories and sockets
	dir := t.TempDir()
	writeFiles(t, dir, drainHooks)
	s := startServe(t, nil, "--dir", dir, "--shutdown-timeout", "1s")
	answer := s.fireDuringStop("spin", "spinning")
	s.signal(syscall.SIGTERM)
	code, body := answer()
	if code != 200 || !strings.Contains(body, `"action":"deny"`) ||
		!strings.Contains(body, "the fire was cancelled: hookhost serve is stopping: the fire ran past the shutdown timeout (1s)") {
		t.Errorf("the spinner's fire: %d %s", code, body)
	}
	if exit := s.wait(); exit != 0 {
		t.Errorf("exit %d after SIGTERM, want 0:\n%s", exit, s.log)
	}
	if !strings.Contains(s.log.String(), "cancelling the fires still running") || strings.Contains(s.log.String(), "stopping anyway") {
		t.Errorf("the log:\n%s", s.log)
	}
}

// A second signal cancels the fires in flight at once: with a shutdown
// timeout of five minutes serve would otherwise outlive the test's wait.
func TestServeSecondSignalCancelsAtOnce(t *testing.T) {
	for _, second := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(second.String(), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, drainHooks)
			s := startServe(t, nil, "--dir", dir, "--shutdown-timeout", "5m")
			answer := s.fireDuringStop("spin", "spinning")
			s.signal(syscall.SIGTERM)
			s.waitLog("draining: a second SIGTERM or SIGINT cancels the fires in flight at once")
			s.signal(second)
			code, body := answer()
			if code != 200 || !strings.Contains(body, `"action":"deny"`) ||
				!strings.Contains(body, "the fire was cancelled: hookhost serve is stopping: told to stop at once") {
				t.Errorf("the spinner's fire: %d %s", code, body)
			}
			if exit := s.wait(); exit != 0 {
				t.Errorf("exit %d after the second signal, want 0:\n%s", exit, s.log)
			}
			if !strings.Contains(s.log.String(), "a second stop signal: cancelling the fires in flight at once") {
				t.Errorf("the log:\n%s", s.log)
			}
		})
	}
}
