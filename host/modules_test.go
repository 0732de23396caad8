package host

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/stdlib"
)

// A panic inside a module function is recovered at the engine boundary
// and becomes a script error that names the function; the host goes on.
func TestModulePanicIsAHookError(t *testing.T) {
	boom := stdlib.Module{Name: "boom", Funcs: []stdlib.Func{{
		Name: "now", Impl: func(*stdlib.Call) (any, error) { panic("kaboom") },
	}}}
	h := newTestHost(t, map[string]string{
		"a.lua": `local boom = require("boom")
hook.on("tool.execute.pre", function() boom.now() end, { name = "a" })`,
		"b.star": "load(\"boom\", \"boom\")\nhook.on(\"tool.execute.pre\", lambda: boom.now(), name = \"b\")",
	}, Options{Modules: []stdlib.Module{boom}})
	r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Trace {
		if e.Outcome != OutcomeError || !strings.Contains(e.Error, "boom.now: internal error: kaboom") {
			t.Errorf("%s: %+v", e.Hook, e)
		}
	}
}

// The standard modules are loadable by default, and the time module reads
// the host's clock.
func TestStandardModulesAndClock(t *testing.T) {
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	h := newTestHost(t, map[string]string{
		"a.lua": `local time = require("time")
local json = require("json")
hook.on("tool.execute.pre", function() return hook.deny(time.format(time.now()) .. " " .. json.encode({ k = 1 })) end, { name = "a" })`,
		"b.star": "load(\"time\", \"time\")\nhook.on(\"tool.approve\", lambda: hook.deny(time.format(time.now())), name = \"b\")",
	}, Options{Now: func() time.Time { return clock }})
	r, _ := h.Fire(context.Background(), "tool.execute.pre", nil)
	if r.Decision.Reason != `2026-11-30T09:00:00Z {"k":1}` {
		t.Errorf("lua: %+v", r)
	}
	r, _ = h.Fire(context.Background(), "tool.approve", nil)
	if r.Decision.Reason != "2026-11-30T09:00:00Z" {
		t.Errorf("starlark: %+v", r)
	}
}
