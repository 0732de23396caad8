package host

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hookhost/hookhost/stdlib"
)

// hostWithConfig builds a host on files with the operator config yaml
// (none when empty); it fails the test on a config error, not on load
// problems (the caller checks those).
func hostWithConfig(t *testing.T, files map[string]string, yaml string, opts Options) *Host {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, code := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(code)}
	}
	if yaml != "" {
		cfg, err := ParseConfig("hookhost.yaml", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		opts.Config = cfg
	}
	opts.FS = fsys
	h, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// failingHook is a hook named h on event, in the given language, that
// raises an error (or, with loop, runs until its 20ms deadline); opts
// adds hook.on options, written "key = value, ..." in both languages.
func failingHook(lang, event string, loop bool, opts string) string {
	if opts != "" {
		opts = ", " + opts
	}
	// A hook that raises gets a budget it cannot overrun on a busy machine.
	timeout := "10s"
	if loop {
		timeout = "20ms"
	}
	if lang == "lua" {
		body := `error("boom")`
		if loop {
			body = `while true do end`
		}
		return `hook.on("` + event + `", function() ` + body + ` end, { name = "h", timeout = "` + timeout + `"` + opts + ` })`
	}
	body := `fail("boom")`
	if loop {
		body = "while True:\n        pass"
	}
	return "def h():\n    " + body + "\nhook.on(\"" + event + "\", h, name = \"h\", timeout = \"" + timeout + "\"" + opts + ")"
}

// A hook's failure applies its own behaviour: the hook id's entry beats
// the file's, which beats the pack's, which beats the pack's HOOK.md,
// which beats the event's; a deny set for a whole file or pack applies
// only where the event allows deny.
func TestHookBehaviors(t *testing.T) {
	const pre, approve, post = "tool.execute.pre", "tool.approve", "turn.post"
	for _, c := range []struct {
		name   string
		event  string
		loop   bool   // the hook times out rather than raising an error
		pack   string // HOOK.md front-matter lines; the hook is then in pack pk/
		opts   string // the script's own hook.on options
		config string // hooks entries, {id} and {file} replaced
		want   Action
		reason string // in the deny's reason
	}{
		{name: "event default skips", event: pre, want: Continue},
		{name: "event default denies", event: approve, want: Deny, reason: "failed: "},
		{name: "file deny", event: pre, config: "{file}: {error_behavior: deny}", want: Deny, reason: "boom"},
		{name: "id deny", event: pre, config: "{id}: {error_behavior: deny}", want: Deny, reason: "boom"},
		{name: "id beats file", event: pre, config: "{file}: {error_behavior: deny}\n  {id}: {error_behavior: skip}", want: Continue},
		{name: "file skip on a deny event", event: approve, config: "{file}: {error_behavior: skip}", want: Continue},
		{name: "error setting leaves timeouts", event: pre, loop: true, config: "{file}: {error_behavior: deny}", want: Continue},
		{name: "timeout deny", event: pre, loop: true, config: "{id}: {timeout_behavior: deny}", want: Deny, reason: "timed out"},
		{name: "timeout setting leaves errors", event: pre, config: "{id}: {timeout_behavior: deny}", want: Continue},
		{name: "front matter deny", event: pre, pack: "error_behavior: deny\ntimeout_behavior: deny", want: Deny, reason: "boom"},
		{name: "front matter timeout deny", event: pre, loop: true, pack: "timeout_behavior: deny", want: Deny, reason: "timed out"},
		{name: "pack config beats front matter", event: pre, pack: "error_behavior: deny", config: "pk/: {error_behavior: skip}", want: Continue},
		{name: "file beats pack config", event: pre, pack: "error_behavior: skip", config: "pk/: {error_behavior: skip}\n  {file}: {error_behavior: deny}", want: Deny},
		{name: "file deny passed over without deny", event: post, config: "{file}: {error_behavior: deny}", want: Continue},
		{name: "front matter deny passed over without deny", event: post, pack: "error_behavior: deny", want: Continue},
		{name: "script deny", event: pre, opts: `error_behavior = "deny"`, want: Deny, reason: "boom"},
		{name: "script timeout deny", event: pre, loop: true, opts: `timeout_behavior = "deny"`, want: Deny, reason: "timed out"},
		{name: "script skip on a deny event", event: approve, opts: `error_behavior = "skip"`, want: Continue},
		{name: "script beats front matter", event: pre, pack: "error_behavior: deny", opts: `error_behavior = "skip"`, want: Continue},
		{name: "operator file beats script", event: pre, opts: `error_behavior = "deny"`, config: "{file}: {error_behavior: skip}", want: Continue},
		{name: "operator pack beats script", event: pre, pack: "name: x", opts: `error_behavior = "skip"`, config: "pk/: {error_behavior: deny}", want: Deny},
	} {
		for _, lang := range []string{"lua", "star"} {
			t.Run(c.name+"/"+lang, func(t *testing.T) {
				file := "g." + lang
				files := map[string]string{}
				if c.pack != "" {
					file = "pk/" + file
					files["pk/HOOK.md"] = "---\n" + c.pack + "\n---\n"
				}
				files[file] = failingHook(lang, c.event, c.loop, c.opts)
				id := file + ":h"
				yaml := ""
				if c.config != "" {
					yaml = "hooks:\n  " + strings.NewReplacer("{id}", `"`+id+`"`, "{file}", `"`+file+`"`).Replace(c.config) + "\n"
				}
				h := hostWithConfig(t, files, yaml, Options{})
				if p := h.Problems(); len(p) > 0 {
					t.Fatalf("problems: %v", p)
				}
				r, err := h.Fire(context.Background(), c.event, map[string]any{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Decision.Action != c.want || !strings.Contains(r.Decision.Reason, c.reason) {
					t.Fatalf("decision %+v, want %s with %q", r.Decision, c.want, c.reason)
				}
				if c.want == Deny && (r.Decision.Hook != id || !strings.Contains(r.Decision.Reason, id)) {
					t.Errorf("the deny does not name %s: %+v", id, r.Decision)
				}
				if e := entry(r, id); e == nil || e.Outcome == OutcomeNone {
					t.Errorf("the trace does not show the failure: %+v", r.Trace)
				}
			})
		}
	}
}

// Hooks on one event fail each by its own behaviour: a logger that
// errors does not block, a guard that errors does.
func TestHookBehaviorsPerHook(t *testing.T) {
	h := hostWithConfig(t, map[string]string{
		"log.lua": `hook.on("tool.execute.pre", function() error("log down") end, { name = "log", priority = 10 })`,
		"guard.star": "def g(params):\n    if params.get(\"cmd\") == \"boom\":\n        fail(\"parser crashed\")\n" +
			"hook.on(\"tool.execute.pre\", g, name = \"g\")",
	}, "hooks:\n  guard.star:\n    error_behavior: deny\n", Options{})
	for _, c := range []struct {
		cmd  string
		want Action
	}{{"ls", Continue}, {"boom", Deny}} {
		r, err := h.Fire(context.Background(), "tool.execute.pre", map[string]any{"params": map[string]any{"cmd": c.cmd}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Decision.Action != c.want {
			t.Errorf("%s: %+v, want %s", c.cmd, r.Decision, c.want)
		}
	}
	infos := map[string]HookInfo{}
	for _, hi := range h.Hooks() {
		infos[hi.ID] = hi
	}
	if infos["guard.star:g"].ErrorBehavior != FailClosed || infos["log.lua:log"].ErrorBehavior != Skip ||
		infos["guard.star:g"].TimeoutBehavior != Skip {
		t.Errorf("hook infos: %+v", infos)
	}
}

// A cancelled fire denies when a hook it did not get to fails closed on
// a timeout, though its event does not.
func TestCancelledFireDeniesForAnUncalledGuard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	probe := stdlib.Module{Name: "probe", Funcs: []stdlib.Func{{
		Name: "started", Impl: func(*stdlib.Call) (any, error) { cancel(); return nil, nil },
	}}}
	h := hostWithConfig(t, map[string]string{
		"slow.lua": `local probe = require("probe")
hook.on("tool.execute.pre", function() probe.started() while true do end end, { name = "slow", priority = 10, timeout = "10m" })`,
		"guard.lua": `hook.on("tool.execute.pre", function() end, { name = "g" })`,
	}, "hooks:\n  guard.lua:\n    timeout_behavior: deny\n", Options{Modules: []stdlib.Module{probe}})
	r, err := h.Fire(ctx, "tool.execute.pre", map[string]any{})
	if !errors.Is(err, context.Canceled) || r.Decision.Action != Deny {
		t.Fatalf("%+v, %v: want a deny and the context's error", r.Decision, err)
	}
}

// A per-id deny on an event without deny is the config's mistake,
// reported at its line; a bad value is a config error at its line, in
// hookhost.yaml and in HOOK.md.
func TestHookBehaviorErrors(t *testing.T) {
	h := hostWithConfig(t, map[string]string{"g.lua": failingHook("lua", "turn.post", false, "")},
		"hooks:\n  g.lua:h:\n    error_behavior: deny\n", Options{})
	p := h.Problems()
	if len(p) != 1 || !strings.Contains(p[0].Error(), "hookhost.yaml:3: hooks.g.lua:h.error_behavior: deny: the hook's event turn.post does not allow deny") {
		t.Fatalf("problems: %v", p)
	}
	if r, _ := h.Fire(context.Background(), "turn.post", map[string]any{}); r.Decision.Action != Continue {
		t.Errorf("%+v", r.Decision)
	}

	for _, lang := range []string{"lua", "star"} {
		file := "s." + lang
		h := hostWithConfig(t, map[string]string{file: failingHook(lang, "turn.post", false, `error_behavior = "deny"`)}, "", Options{})
		p := h.Problems()
		if len(p) != 1 || !strings.Contains(p[0].Error(), file+`:`) ||
			!strings.Contains(p[0].Error(), "hook.on: option error_behavior: deny: the event turn.post does not allow deny") {
			t.Fatalf("%s: problems %v", lang, p)
		}
		fsys := fstest.MapFS{file: &fstest.MapFile{Data: []byte(failingHook(lang, "turn.post", false, `timeout_behavior = "closed"`))}}
		h, err := New(context.Background(), Options{FS: fsys})
		if err != nil {
			t.Fatal(err)
		}
		p = h.Problems()
		h.Close()
		if len(p) != 1 || !strings.Contains(p[0].Error(), `hook.on: option timeout_behavior: want "skip" or "deny", got "closed"`) {
			t.Fatalf("%s: problems %v", lang, p)
		}
	}
	for _, c := range []struct{ yaml, want string }{
		{"hooks:\n  g.lua:\n    error_behavior: maybe\n", "hookhost.yaml:3: hooks.g.lua.error_behavior: want skip or deny, got \"maybe\""},
		{"hooks:\n  pk/:\n\n    timeout_behavior: [deny]\n", "hookhost.yaml:4: hooks.pk/.timeout_behavior: want a string"},
	} {
		if _, err := ParseConfig("hookhost.yaml", []byte(c.yaml)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
	if _, err := parsePackMeta("pk/HOOK.md", "pk", []byte("---\nname: x\nerror_behavior: closed\n---\n")); err == nil ||
		!strings.Contains(err.Error(), "pk/HOOK.md:3: error_behavior: want skip or deny, got \"closed\"") {
		t.Errorf("HOOK.md: %v", err)
	}
}
