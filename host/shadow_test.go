package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// shadowHook is a hook named h on event, in the given language, that
// does what its payload's tool_name says: deny, modify, stop (with a
// deny), error, or loop until its deadline. The deadline is 50ms for a
// tool_name of "loop", so that the test does not wait long; for the
// others it is one a busy machine cannot reach before the hook answers.
func shadowHook(lang, event, tool string) string {
	timeout := "10s"
	if tool == "loop" {
		timeout = "50ms"
	}
	if lang == "lua" {
		return `hook.on("` + event + `", function(tool_name)
  if tool_name == "deny" then return hook.deny("shadow says no") end
  if tool_name == "modify" then return hook.modify({ tool_name = "changed" }) end
  if tool_name == "stop" then return hook.stop(hook.deny("shadow stops")) end
  if tool_name == "error" then error("shadow broke") end
  if tool_name == "loop" then while true do end end
end, { name = "h", priority = 10, timeout = "` + timeout + `" })`
	}
	return `def h(tool_name):
    if tool_name == "deny":
        return hook.deny("shadow says no")
    if tool_name == "modify":
        return hook.modify({"tool_name": "changed"})
    if tool_name == "stop":
        return hook.stop(hook.deny("shadow stops"))
    if tool_name == "error":
        fail("shadow broke")
    if tool_name == "loop":
        while True:
            pass

hook.on("` + event + `", h, priority = 10, timeout = "` + timeout + `")`
}

// A dryrun or warn hook on tool.approve (first mode, fails closed on
// errors and timeouts) and on tool.execute.pre (chain) decides nothing:
// the enforcing hook after it (which echoes the tool_name it sees) gets
// the unmodified payload and decides; the shadow hook's trace entry
// says what it returned and in which mode; only a warn hook's decision
// adds a message.
func TestShadowHookDecidesNothing(t *testing.T) {
	const pre, approve = "tool.execute.pre", "tool.approve"
	for _, c := range []struct {
		name, event, tool, enforce string
		outcome                    Outcome
		action                     Action
		message                    string // the warn message; empty for none
	}{
		{"dryrun deny", approve, "deny", "dryrun", OutcomeDecision, Deny, ""},
		{"dryrun error fail-closed", approve, "error", "dryrun", OutcomeError, "", ""},
		{"dryrun timeout fail-closed", approve, "loop", "dryrun", OutcomeTimeout, "", ""},
		{"dryrun stop", approve, "stop", "dryrun", OutcomeStop, Deny, ""},
		{"dryrun modify", pre, "modify", "dryrun", OutcomeDecision, Modify, ""},
		{"dryrun chain stop", pre, "stop", "dryrun", OutcomeStop, Deny, ""},
		{"dryrun chain error", pre, "error", "dryrun", OutcomeError, "", ""},
		{"warn deny", approve, "deny", "warn", OutcomeDecision, Deny, "g.EXT:h would deny: shadow says no"},
		{"warn stop", pre, "stop", "warn", OutcomeStop, Deny, "g.EXT:h would deny: shadow stops"},
		{"warn modify", pre, "modify", "warn", OutcomeDecision, Modify, "g.EXT:h would modify"},
		{"warn error says nothing", approve, "error", "warn", OutcomeError, "", ""},
		{"warn nothing says nothing", pre, "ls", "warn", OutcomeNone, "", ""},
	} {
		for _, lang := range []string{"lua", "star"} {
			t.Run(c.name+"/"+lang, func(t *testing.T) {
				file, id := "g."+lang, "g."+lang+":h"
				echo := `hook.on("` + c.event + `", function(tool_name) return hook.allow("saw " .. tool_name) end, { name = "echo" })`
				h := hostWithConfig(t, map[string]string{file: shadowHook(lang, c.event, c.tool), "echo.lua": echo},
					"hooks:\n  "+id+": { enforce: "+c.enforce+", error_behavior: deny, timeout_behavior: deny }\n", Options{})
				if p := h.Problems(); len(p) > 0 {
					t.Fatalf("problems: %v", p)
				}
				r, err := h.Fire(context.Background(), c.event, map[string]any{"tool_name": c.tool})
				if err != nil {
					t.Fatal(err)
				}
				want := Decision{Action: Allow, Reason: "saw " + c.tool, Hook: "echo.lua:echo"}
				if r.Decision.Action != want.Action || r.Decision.Reason != want.Reason || r.Decision.Hook != want.Hook {
					t.Errorf("decision %+v, want %+v", r.Decision, want)
				}
				if r.Payload["tool_name"] != c.tool {
					t.Errorf("payload %v: the shadow modify was applied", r.Payload)
				}
				e := entry(r, id)
				if e == nil || e.Outcome != c.outcome || e.Action != c.action || string(e.Enforce) != c.enforce {
					t.Errorf("trace entry %+v, want %s:%s@%s", e, c.outcome, c.action, c.enforce)
				}
				if echo := entry(r, "echo.lua:echo"); echo == nil || echo.Enforce != "" {
					t.Errorf("the enforcing hook's entry %+v", echo)
				}
				var msgs []string
				for _, m := range r.Messages {
					msgs = append(msgs, m.Role+": "+m.Content)
				}
				wantMsgs := ""
				if c.message != "" {
					wantMsgs = "system: " + strings.ReplaceAll(c.message, "EXT", lang)
				}
				if strings.Join(msgs, "\n") != wantMsgs {
					t.Errorf("messages %q, want %q", msgs, wantMsgs)
				}
			})
		}
	}
}

// The enforce key is resolved as the behaviours are: the hook id's entry
// beats its file's, which beats its pack's; with none, enforce. Hooks()
// reports it.
func TestShadowPrecedence(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         Enforcement
	}{
		{"none", "", Enforce},
		{"pack", "pk/: { enforce: dryrun }", DryRun},
		{"file beats pack", "pk/: { enforce: dryrun }\n  pk/g.lua: { enforce: warn }", Warn},
		{"id beats file", "pk/g.lua: { enforce: dryrun }\n  pk/g.lua:h: { enforce: enforce }", Enforce},
		{"id beats pack", "pk/: { enforce: warn }\n  pk/g.lua:h: { enforce: dryrun }", DryRun},
		{"other hook's id", "pk/g.lua:other: { enforce: dryrun }", Enforce},
	} {
		t.Run(c.name, func(t *testing.T) {
			yaml := ""
			if c.config != "" {
				yaml = "hooks:\n  " + c.config + "\n"
			}
			h := hostWithConfig(t, map[string]string{"pk/HOOK.md": "---\nname: pk\n---\n",
				"pk/g.lua": `hook.on("tool.execute.pre", function() return hook.deny("no") end, { name = "h" })
hook.on("tool.execute.pre", function() end, { name = "other" })`}, yaml, Options{})
			var got Enforcement
			for _, hi := range h.Hooks() {
				if hi.ID == "pk/g.lua:h" {
					got = hi.Enforce
				}
			}
			if got != c.want {
				t.Errorf("Hooks() says %q, want %q", got, c.want)
			}
			r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
			if err != nil {
				t.Fatal(err)
			}
			if applied := r.Decision.Action == Deny; applied != (c.want == Enforce) {
				t.Errorf("enforce %s: decision %+v", c.want, r.Decision)
			}
		})
	}
}

// A bad enforce value is a config error at its line, listing the choices.
func TestShadowConfigErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"hooks:\n  g.lua:\n    enforce: audit\n", `hookhost.yaml:3: hooks.g.lua.enforce: want enforce, dryrun or warn, got "audit"`},
		{"hooks:\n  pk/:\n\n    enforce: [dryrun]\n", "hookhost.yaml:4: hooks.pk/.enforce: want a string"},
		{"hooks:\n  g.lua:h: { enforce: true }\n", "hookhost.yaml:2: hooks.g.lua:h.enforce: want a string"},
	} {
		if _, err := ParseConfig("hookhost.yaml", []byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
}

// A config edit switching a hook from dryrun to enforce (and back)
// applies from the next fire, without the script changing.
func TestShadowHotReload(t *testing.T) {
	dir, cfg := t.TempDir(), filepath.Join(t.TempDir(), "hookhost.yaml")
	write := func(enforce string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte("hooks:\n  g.star:\n    enforce: "+enforce+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("dryrun")
	if err := os.WriteFile(filepath.Join(dir, "g.star"), []byte("hook.on(\"tool.execute.pre\", lambda: hook.deny(\"no\"), name = \"h\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(context.Background(), Options{Dir: dir, ConfigPath: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for i, step := range []struct {
		enforce string
		want    Action
		trace   Enforcement
	}{{"dryrun", Continue, DryRun}, {"enforce", Deny, ""}, {"warn", Continue, Warn}} {
		if i > 0 {
			write(step.enforce)
			if rep := h.Rescan(context.Background(), TriggerAPI); !rep.Config.Changed || rep.Config.Err != nil {
				t.Fatalf("%s: reload %+v", step.enforce, rep.Config)
			}
		}
		r, err := h.Fire(context.Background(), "tool.execute.pre", nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Decision.Action != step.want || len(r.Trace) != 1 || r.Trace[0].Enforce != step.trace || r.Trace[0].Action != Deny {
			t.Errorf("%s: decision %+v, trace %+v", step.enforce, r.Decision, r.Trace)
		}
	}
}

// A fire cancelled before a dryrun hook ran does not deny for it,
// though its timeout behaviour is deny: a shadow hook never fails
// closed. An enforcing one does (TestCancelledFireDeniesForAnUncalledGuard).
func TestShadowUncalledGuardDoesNotDeny(t *testing.T) {
	h := hostWithConfig(t, map[string]string{
		"guard.lua": `hook.on("tool.execute.pre", function() end, { name = "g" })`,
	}, "hooks:\n  guard.lua:\n    timeout_behavior: deny\n    enforce: dryrun\n", Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _ := h.Fire(ctx, "tool.execute.pre", map[string]any{})
	if r.Decision.Action != Continue {
		t.Fatalf("%+v: want continue", r.Decision)
	}
}

// A shadow hook's trace entry carries "enforce" in the fire --json
// object (and so in the decision log and over serve), and reads back; an
// enforcing hook's has no such key.
func TestShadowTraceJSON(t *testing.T) {
	r := Result{Event: "tool.execute.pre", Decision: Decision{Action: Continue}, Trace: []TraceEntry{
		{Hook: "a.lua:x", Outcome: OutcomeDecision, Action: Deny, Enforce: DryRun},
		{Hook: "b.lua:y", Outcome: OutcomeNone},
	}}
	data, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, `"hook":"a.lua:x","priority":0,"outcome":"decision","action":"deny","duration_ms":0,"enforce":"dryrun"}`) ||
		strings.Count(s, `"enforce"`) != 1 {
		t.Fatalf("JSON %s", s)
	}
	var back Result
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	if back.Trace[0].Enforce != DryRun || back.Trace[1].Enforce != "" {
		t.Errorf("read back %+v", back.Trace)
	}
}

// Quarantine applies to a shadow hook as to any (it still spends real
// time): a dryrun hook stuck in a builtin past its deadline earns
// strikes and is quarantined; while it is, its trace entry says so, and
// the fire, on an event and with behaviours that fail closed, does not
// deny for it.
func TestShadowHookIsQuarantined(t *testing.T) {
	for _, lang := range []string{"lua", "star"} {
		t.Run(lang, func(t *testing.T) {
			file := "stuck." + lang
			code := `local stuck = require("stuck")
hook.on("tool.approve", function() stuck.wait() end, { name = "h", timeout = "30ms" })`
			if lang == "star" {
				code = "load(\"stuck\", \"stuck\")\nhook.on(\"tool.approve\", lambda: stuck.wait(), name = \"h\", timeout = \"30ms\")"
			}
			id := file + ":h"
			h := hostWithConfig(t, map[string]string{file: code},
				"hooks:\n  "+id+": { enforce: dryrun, error_behavior: deny, timeout_behavior: deny }\n",
				Options{Modules: []stdlib.Module{blockingModule(t, true)}})
			fire := func() Result {
				t.Helper()
				r, err := h.Fire(context.Background(), "tool.approve", map[string]any{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Decision.Action != Continue {
					t.Fatalf("a dryrun hook's failure decided: %+v", r.Decision)
				}
				return r
			}
			for i := 0; i < strikeLimit; i++ {
				if e := entry(fire(), id); e == nil || e.Outcome != OutcomeTimeout || e.Enforce != DryRun {
					t.Fatalf("fire %d: want a dryrun timeout, got %+v", i, e)
				}
			}
			if q := h.Quarantined(); len(q) != 1 || q[0] != id {
				t.Fatalf("quarantined: %v, want %s", q, id)
			}
			if e := entry(fire(), id); e == nil || e.Outcome != OutcomeError || e.Enforce != DryRun ||
				!strings.Contains(e.Error, "quarantined since") {
				t.Fatalf("while quarantined: %+v", e)
			}
		})
	}
}
