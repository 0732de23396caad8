package starlark

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/json"
)

// sessionsSrc is a hook that reports what it can see of earlier calls
// and then, by mode, tries to leave the session's secret behind for a
// later call: in a global list, a global dict, a default parameter, the
// ctx struct's config, a module value, the payload it was given.
const sessionsSrc = `
load("json", "json")

SEEN = []
BOX = {"last": None}

def h(session, secret, mode, params, ctx, memo = []):
    seen = {"seen": list(SEEN), "box": dict(BOX), "memo": list(memo), "config": dict(ctx.config), "params": dict(params)}
    params["secret"] = secret  # the payload is this call's own copy
    if mode == "global list":
        SEEN.append(secret)
    elif mode == "global dict":
        BOX["last"] = secret
    elif mode == "default":
        memo.append(secret)
    elif mode == "config":
        ctx.config["secret"] = secret
    elif mode == "module":
        json.secret = secret
    return hook.respond(seen)

hook.on("e", h)
`

// Sessions A and B take turns on one program, many times, and try every
// way a script could leave a value behind; no call ever sees anything of
// another, and each attempt fails with a clear error.
func TestSessionsShareNothing(t *testing.T) {
	env := &scripting.Env{Modules: []stdlib.Module{json.New()}}
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "s.star", Code: []byte(sessionsSrc)}, env)
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	clean := map[string]any{"seen": []any{}, "box": map[string]any{"last": nil}, "memo": []any{},
		"config": map[string]any{"mode": "strict"}, "params": map[string]any{"command": "ls"}}
	leaks := []struct{ mode, want string }{
		{"none", ""},
		{"global list", "cannot append to frozen list"},
		{"global dict", "cannot insert into frozen hash table"},
		{"default", "cannot append to frozen list"},
		{"config", "cannot insert into frozen hash table"},
		{"module", "can't assign to .secret field of module"},
	}
	for round := 0; round < 50; round++ {
		for _, session := range []string{"A", "B"} {
			for _, leak := range leaks {
				c := &scripting.Call{Hook: "s.star:h", Event: "e", Timeout: time.Second, Config: map[string]any{"mode": "strict"},
					Payload: map[string]any{"session": session, "secret": "token-of-" + session, "mode": leak.mode,
						"params": map[string]any{"command": "ls"}}}
				out, err := fn.Call(c)
				if leak.want == "" {
					if err != nil {
						t.Fatalf("round %d, session %s: %v", round, session, err)
					}
					if got := scripting.AsNeutral(out).(map[string]any)["result"]; !stdlib.Equal(got, clean) {
						t.Fatalf("round %d, session %s sees %v, want %v", round, session, got, clean)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), leak.want) {
					t.Fatalf("round %d, session %s, %s: got %v, want an error containing %q", round, session, leak.mode, err, leak.want)
				}
			}
		}
	}
}

// A thread back in the pool holds nothing of the call it served, and an
// interrupted call's thread never returns to the pool, so the next call
// starts uncancelled with a full step budget.
func TestRecycledThreadsAreClean(t *testing.T) {
	src := "def h(mode):\n    if mode == \"spin\":\n        while True:\n            pass\n    return hook.respond(mode)\n\nhook.on(\"e\", h)\n"
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "r.star", Code: []byte(src)}, &scripting.Env{})
	if err != nil {
		t.Fatal(err)
	}
	prog := p.(*program)
	fn := p.Hooks()[0].Func
	for i := 0; i < 20; i++ {
		spin := &scripting.Call{Hook: "r.star:h", Timeout: 10 * time.Millisecond, Payload: map[string]any{"mode": "spin"}}
		timer := time.AfterFunc(spin.Timeout, spin.Interrupt)
		if _, err := fn.Call(spin); err == nil || !spin.Interrupted() {
			t.Fatalf("spin %d: want an interrupted call, got %v", i, err)
		}
		timer.Stop()
		out, err := fn.Call(&scripting.Call{Hook: "r.star:h", Timeout: time.Second, Payload: map[string]any{"mode": "ok"}})
		if err != nil || scripting.AsNeutral(out).(map[string]any)["result"] != "ok" {
			t.Fatalf("call %d after an interrupted one: %v, %v", i, out, err)
		}
	}
	if ct, _ := prog.threads.Get().(*callThread); ct != nil {
		if ct.call != nil {
			t.Errorf("a pooled thread still points at call %q", ct.call.Hook)
		}
		if callThreadOf(&ct.thread) != ct {
			t.Errorf("a pooled thread lost its call slot")
		}
	}
}
