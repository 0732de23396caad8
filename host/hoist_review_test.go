package host

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// hoistStar returns hoisted decisions (hook.deny with a literal inside a
// function) in every way a hook can hand one on: as the return value,
// wrapped by hook.stop, inside a respond result, through json.encode, and
// read field by field; under -race from several goroutines at once.
const hoistStar = `
load("json", "json")

def h(mode):
    if mode == "plain":
        return hook.deny("refused")
    if mode == "stop":
        return hook.stop(hook.deny("refused"))
    if mode == "respond":
        return hook.respond({"d": [hook.deny("refused")], "j": json.encode(hook.deny("refused")),
                             "r": hook.deny("refused")["reason"], "in": "reason" in hook.deny("refused")})
    if mode == "dict":
        return {"action": "deny", "reason": hook.deny("refused")["reason"] + "!"}
    if mode == "abort":
        return hook.abort_turn("refused")
    return hook.allow()

hook.on("tool.execute.pre", h)
`

func TestReviewHoistedDecisionsAcrossFires(t *testing.T) {
	for iso, rounds := range map[Isolation]int{InProcess: 60, ProcessIsolation: 5} {
		h := newTestHost(t, map[string]string{"h.star": hoistStar},
			Options{Config: &Config{Defaults: Defaults{Isolation: iso}}, WorkerExecutable: testWorker})
		want := map[string]string{
			"plain":   `{"action":"deny","reason":"refused"}`,
			"stop":    `{"action":"deny","reason":"refused"}`,
			"respond": `{"action":"respond","reason":"","result":{"d":[{"action":"deny","reason":"refused"}],"in":true,"j":"{\"action\":\"deny\",\"reason\":\"refused\"}","r":"refused"}}`,
			"dict":    `{"action":"deny","reason":"refused!"}`,
			"abort":   `{"action":"abort_turn","reason":"refused"}`,
			"allow":   `{"action":"allow","reason":""}`,
		}
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for w := range 4 {
			wg.Go(func() {
				for r := range rounds {
					for mode, exp := range want {
						res, err := h.Fire(context.Background(), "tool.execute.pre",
							map[string]any{"mode": mode, "session_id": fmt.Sprint("s", w, r%3)})
						if err != nil {
							errs <- mode + ": " + err.Error()
							return
						}
						d := map[string]any{"action": string(res.Decision.Action), "reason": res.Decision.Reason}
						if res.Decision.Result != nil {
							d["result"] = res.Decision.Result
						}
						got, _ := json.Marshal(d)
						if string(got) != exp {
							errs <- fmt.Sprintf("%s: %s, want %s", mode, got, exp)
							return
						}
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}
