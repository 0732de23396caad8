package host

import (
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte(`
defaults: { timeout: 1s }
limits: { memory: 256MiB, worker_start: 30s }
events:
  tool.approve: { timeout: 5s, timeout_behavior: deny }
  deploy.requested: { mode: chain, actions: [allow, deny, modify] }
hooks:
  "guard.lua":
    enabled: true
    priority: 80
    timeout: 2s
    timeouts: { tool.execute.pre: 500 }
    config: { max_calls: 5, nested: { list: [1, 2.5, "x"] } }
  "guard.lua:no-rm-root": { enabled: false }
`))
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Hooks["guard.lua"]
	if *g.Priority != 80 || !*g.Enabled || g.Timeout != 2*time.Second || g.Timeouts["tool.execute.pre"] != 500*time.Millisecond {
		t.Errorf("guard.lua: %+v", g)
	}
	// yaml integers become int64, so scripts print 5, not 5.0
	if v := g.Config["max_calls"]; v != int64(5) {
		t.Errorf("max_calls = %#v", v)
	}
	if *cfg.Hooks["guard.lua:no-rm-root"].Enabled {
		t.Error("no-rm-root should be disabled")
	}
	if cfg.Events["tool.approve"].TimeoutBehavior != FailClosed || cfg.Defaults.Timeout != time.Second {
		t.Errorf("events: %+v", cfg.Events)
	}
	if cfg.Limits.Memory != 256<<20 || cfg.Limits.WorkerStart != 30*time.Second || cfg.Limits.Line != 3 {
		t.Errorf("limits: %+v", cfg.Limits)
	}
	if _, err := resolveEvents(AgentEvents(), cfg); err != nil {
		t.Errorf("resolveEvents: %v", err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"emptied", "", `hookhost.yaml: the config is empty (no settings at all); write {} for a config that keeps every default`},
		{"blank", "\n  \n", `hookhost.yaml: the config is empty (no settings at all); write {} for a config that keeps every default`},
		{"comments only", "# all off\n", `hookhost.yaml: the config is empty (no settings at all); write {} for a config that keeps every default`},
		{"null", "null\n", `hookhost.yaml: the config is empty (no settings at all); write {} for a config that keeps every default`},
		{"tilde", "~\n", `hookhost.yaml: the config is empty (no settings at all); write {} for a config that keeps every default`},
		{"document marker", "---\n", `hookhost.yaml: the config is empty (no settings at all); write {} for a config that keeps every default`},
		{"unknown top key", "defautls: {}\n", `hookhost.yaml:1: config: unknown key "defautls" (want defaults, limits, events, hooks, strict, state)`},
		{"unknown limit", "limits: { cpu: 1s }\n", `hookhost.yaml:1: limits: unknown key "cpu" (want memory, worker_start, concurrency, queue_timeout)`},
		{"bad size", "limits:\n  memory: 512MB\n", `hookhost.yaml:2: limits.memory: size "512MB": want a whole number and a unit, such as 512MiB or 1GiB`},
		{"small size", "limits:\n  memory: 1MiB\n", "hookhost.yaml:2: limits.memory: 1MiB is below the 32MiB minimum"},
		{"size list", "limits:\n  memory: [1]\n", "hookhost.yaml:2: limits.memory: want a size such as 512MiB or 1GiB"},
		{"short worker start", "limits:\n  worker_start: 10ms\n", "hookhost.yaml:2: limits.worker_start: 10ms is under the 100ms a worker needs at least"},
		{"bad worker start", "limits:\n  worker_start: soon\n", "hookhost.yaml:2: limits.worker_start: "},
		{"unknown hook key", "hooks:\n  a.lua:\n    priorty: 1\n", `hookhost.yaml:3: hooks.a.lua: unknown key "priorty" (want enabled, priority, timeout, timeouts, config, isolation, error_behavior, timeout_behavior, enforce)`},
		{"zero timeout", "defaults: { timeout: 0s }\n", "hookhost.yaml:1: defaults.timeout: 0s must be more than zero"},
		{"negative", "hooks:\n  a.lua: { timeout: -1s }\n", "hookhost.yaml:2: hooks.a.lua.timeout: duration must not be negative"},
		{"too long", "hooks:\n  a.lua: { timeout: 11m }\n", "hookhost.yaml:2: hooks.a.lua.timeout: 11m is over the 10m0s cap"},
		{"bad duration", "hooks:\n  a.lua: { timeout: soon }\n", `hookhost.yaml:2: hooks.a.lua.timeout: bad duration "soon"`},
		{"bad key", "hooks:\n  guard: {}\n", `hookhost.yaml:2: hooks: key "guard": want a file (guard.lua), a hook id (guard.lua:no-rm-root) or a hook pack (pack/)`},
		{"hook isolation", "hooks:\n  a.lua:h: { isolation: process }\n", "hookhost.yaml:2: hooks.a.lua:h.isolation: isolation applies to a whole file or pack, not to one hook"},
		{"bad isolation", "defaults: { isolation: vm }\n", `hookhost.yaml:1: defaults.isolation: want process or none, got "vm"`},
		{"bad bool", "hooks:\n  a.lua: { enabled: yes please }\n", "hookhost.yaml:2: hooks.a.lua.enabled: want true or false"},
		{"bad priority", "hooks:\n  a.lua: { priority: high }\n", "hookhost.yaml:2: hooks.a.lua.priority: want an integer"},
		{"bad behavior", "events:\n  tool.approve: { timeout_behavior: maybe }\n", "hookhost.yaml:2: events.tool.approve.timeout_behavior: want skip or deny"},
		{"duplicate", "hooks:\n  a.lua: {}\n  a.lua: {}\n", `hookhost.yaml:3: hooks: key "a.lua" appears twice`},
		{"yaml syntax", "hooks: [\n", "hookhost.yaml:1: did not find expected node content"},
		{"not a map", "hooks: 5\n", "hookhost.yaml:1: hooks: want a mapping"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("hookhost.yaml", []byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// Errors that need the events: unknown events and actions, changes to a
// built-in event, fail-closed where deny is not allowed.
func TestConfigEventErrors(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"unknown event", "events:\n  tool.exec: { timeout: 1s }\n", "hookhost.yaml:2: events.tool.exec: unknown event; to declare a custom event, give its mode"},
		{"unknown action", "events:\n  x: { mode: chain, actions: [allow, dney] }\n", `hookhost.yaml:2: event x: unknown action "dney"`},
		{"bad mode", "events:\n  x: { mode: fold }\n", `hookhost.yaml:2: event x: mode "fold": want observe, collect, first or chain`},
		{"built-in mode", "events:\n  tool.approve: { mode: chain }\n", "hookhost.yaml:2: events.tool.approve: a built-in event's mode"},
		{"deny not allowed", "events:\n  session.end: { error_behavior: deny }\n", "hookhost.yaml:2: event session.end: error_behavior deny: the event does not allow deny"},
		{"observe with actions", "events:\n  x: { mode: observe, actions: [deny] }\n", "an observe event allows no actions"},
		{"collect with deny", "events:\n  x: { mode: collect, actions: [deny] }\n", "a collect event allows only message"},
		{"timeouts event", "hooks:\n  a.lua:\n    timeouts: { tool.exec: 1s }\n", `hookhost.yaml:3: hooks.a.lua.timeouts: unknown event "tool.exec"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseConfig("hookhost.yaml", []byte(c.yaml))
			if err == nil {
				_, err = resolveEvents(AgentEvents(), cfg)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// Every problem is reported, not just the first.
func TestParseConfigReportsAll(t *testing.T) {
	_, err := ParseConfig("c.yaml", []byte("hooks:\n  a.lua: { priorty: 1 }\n  b.lua: { timeout: 0 }\n"))
	if err == nil || !strings.Contains(err.Error(), "c.yaml:2:") || !strings.Contains(err.Error(), "c.yaml:3:") {
		t.Fatalf("got %v", err)
	}
}

func TestParseConfigLimits(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want int64
	}{
		{"limits: { memory: 512MiB }\n", 512 << 20},
		{"limits:\n  memory: 2GiB\n", 2 << 30},
		{"limits: { memory: 67108864 }\n", 64 << 20},
		{"defaults: { timeout: 1s }\n", DefaultMemoryLimit},
	} {
		cfg, err := ParseConfig("hookhost.yaml", []byte(c.yaml))
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		if got := cfg.MemoryLimit(); got != c.want {
			t.Errorf("%q: memory limit %d, want %d", c.yaml, got, c.want)
		}
	}
}

func TestConfigIsolation(t *testing.T) {
	cfg, err := ParseConfig("hookhost.yaml", []byte(`
defaults: { isolation: process }
hooks:
  trusted.lua: { isolation: none }
  untrusted/: { isolation: process }
  vetted/: { isolation: none }
  vetted/odd.star: { isolation: process }
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, pack string
		want       Isolation
	}{
		{"trusted.lua", "", InProcess},
		{"other.lua", "", ProcessIsolation},
		{"untrusted/a.lua", "untrusted", ProcessIsolation},
		{"vetted/a.lua", "vetted", InProcess},
		{"vetted/odd.star", "vetted", ProcessIsolation},
	} {
		if got := cfg.isolationOf(c.file, c.pack); got != c.want {
			t.Errorf("isolationOf(%s) = %s, want %s", c.file, got, c.want)
		}
	}
	if got := (&Config{}).isolationOf("a.lua", ""); got != InProcess {
		t.Errorf("no config: %s, want in process", got)
	}
}
