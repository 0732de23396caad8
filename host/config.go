package host

import (
	"errors"
	"fmt"
	"github.com/hookhost/hookhost/scripting/engines"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/hookhost/hookhost/host/yamlnode"
	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// A Config is the operator's hookhost.yaml. The zero value
// means no configuration: every hook as its script declares it.
type Config struct {
	// Path is where the config was read from, for messages.
	Path string
	// Defaults apply when nothing more specific is set.
	Defaults Defaults
	// Limits bounds the host's resources.
	Limits ConfigLimits
	// Events overrides built-in events and declares custom ones.
	Events map[string]EventConfig
	// Hooks configures files ("guard.lua") and hooks
	// ("guard.lua:no-rm-root").
	Hooks map[string]HookConfig
	// Strict makes every fire of an event that allows deny answer deny
	// while some file has no good version (see Options.Strict).
	Strict bool
	// State says where the state module keeps its keys (state.go).
	State StateConfig
}

// Defaults holds the config's defaults section.
type Defaults struct {
	// Timeout is the budget of hooks nothing else gives one.
	Timeout time.Duration
	// Isolation is where the files nothing else configures run.
	Isolation Isolation
}

// Isolation says where a file's hooks run.
type Isolation string

const (
	// InProcess runs hooks in the host's own process (the default).
	InProcess Isolation = "none"
	// ProcessIsolation runs hooks in a supervised worker process, one per
	// file or pack, under operating-system limits.
	ProcessIsolation Isolation = "process"
)

// ConfigLimits holds the config's limits section.
type ConfigLimits struct {
	// Memory is the host's heap budget, in bytes: while hooks run, the
	// host samples the process heap every few milliseconds, and when it
	// passes Memory the hooks running are interrupted, fail, and count a
	// strike towards quarantine. When Options.Limits leaves the per-call
	// budget unset, each call may allocate an eighth of Memory through
	// what hookhost implements. Zero means DefaultMemoryLimit.
	Memory int64
	// Line is where the memory entry is in the file.
	Line int
	// WorkerStart bounds how long the worker process of isolated files
	// may take to start (the process, its hello, compiling its files),
	// and so how long a fire waits for one that is starting. Zero means
	// isolate.DefaultStartTimeout.
	WorkerStart time.Duration
	// Concurrency is how many hook calls run at once; the others wait in
	// line for a run slot, and a hook's deadline starts when it has one.
	// Zero means DefaultConcurrency().
	Concurrency int
	// QueueTimeout bounds a hook call's wait for a run slot; past it the
	// call fails, saying the host was saturated, and its error behaviour
	// applies. Zero means DefaultQueueTimeout.
	QueueTimeout time.Duration
}

// MaxConcurrency is the largest limits.concurrency accepted.
const MaxConcurrency = 4096

// Concurrency is the number of run slots the config asks for, or the
// default.
func (c *Config) Concurrency() int {
	if c == nil || c.Limits.Concurrency == 0 {
		return DefaultConcurrency()
	}
	return c.Limits.Concurrency
}

// QueueTimeout is the bound on a hook call's wait for a run slot that
// the config asks for, or the default.
func (c *Config) QueueTimeout() time.Duration {
	if c == nil || c.Limits.QueueTimeout == 0 {
		return DefaultQueueTimeout
	}
	return c.Limits.QueueTimeout
}

// MinWorkerStart is the smallest limits.worker_start accepted: no worker
// starts faster.
const MinWorkerStart = 100 * time.Millisecond

// DefaultMemoryLimit is the host's heap budget when the config sets none.
// Its eighth is the default per-call budget (scripting.DefaultMaxCallMemory).
const DefaultMemoryLimit = 512 << 20

// MinMemoryLimit is the smallest limits.memory accepted: below it the
// host's own working heap would trip the watchdog.
const MinMemoryLimit = 32 << 20

// MemoryLimit is the heap budget the config asks for, or the default.
func (c *Config) MemoryLimit() int64 {
	if c == nil || c.Limits.Memory == 0 {
		return DefaultMemoryLimit
	}
	return c.Limits.Memory
}

// EventConfig configures one event. For a built-in or embedder event only
// Timeout and the behaviours may be set; a custom event needs a Mode.
type EventConfig struct {
	Mode            Mode
	Actions         []Action
	Default         Action
	Timeout         time.Duration
	TimeoutBehavior Behavior
	ErrorBehavior   Behavior
	Fields          []string
	Description     string
	// Line is where the event's entry starts in the file.
	Line int
}

// HookConfig configures a file or one hook. Nil pointers and zero
// durations leave the script's own setting.
type HookConfig struct {
	Enabled  *bool
	Priority *int64
	Timeout  time.Duration
	// Timeouts sets the budget per event.
	Timeouts map[string]time.Duration
	// Config reaches the hooks as ctx.config (neutral values).
	Config map[string]any
	// Isolation is where the file's (or pack's) hooks run; empty leaves
	// it to the pack or the defaults. Not for a single hook.
	Isolation Isolation
	// ErrorBehavior and TimeoutBehavior say what a failure of the hooks
	// does to the fire (skip or deny); empty leaves it to the less
	// specific entries, the pack's HOOK.md, then the event (see
	// resolveBehaviors).
	ErrorBehavior   Behavior
	TimeoutBehavior Behavior
	// Enforce says whether the hooks' decisions are applied (enforce) or
	// only recorded (dryrun, warn); empty leaves it to the less specific
	// entries, then enforce (see resolveEnforcement).
	Enforce Enforcement
	// Line is where the entry starts in the file.
	Line int

	timeoutLines  map[string]int
	behaviorLines map[string]int // by key: error_behavior, timeout_behavior
}

// A ConfigError is a problem at a line of the config file.
type ConfigError struct {
	File string
	Line int
	Msg  string
}

// Error reads "file:line: message", or "file: message" for a problem of
// the whole file.
func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// LoadConfig reads and parses a config file.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return ParseConfig(filepath.ToSlash(path), data)
}

// ParseConfig parses a config. Unknown keys, bad durations (zero,
// negative, over 10 minutes) and bad values are errors naming their
// line; every problem is reported, joined. Event names and hook keys are
// checked against the host's events when a host is built with it.
func ParseConfig(name string, data []byte) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlnode.SyntaxError(err)
		return nil, &ConfigError{File: name, Line: line, Msg: msg}
	}
	if len(doc.Content) == 0 || doc.Content[0].ShortTag() == "!!null" {
		// An emptied config would quietly drop every setting the operator
		// made (fail-closed behaviours, strict, protected paths): it is an
		// error, so a running host keeps its last good config.
		return nil, &ConfigError{File: name, Msg: "the config is empty (no settings at all); write {} for a config that keeps every default"}
	}
	p := newConfigParser(name, &Config{Path: name})
	p.root(doc.Content[0])
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return p.cfg, nil
}

// A configParser reads hookhost.yaml (and HOOK.md front matter) with a
// yamlnode.Decoder that collects every problem as a ConfigError.
type configParser struct {
	yamlnode.Decoder
	file string
	cfg  *Config
	errs []error
}

func newConfigParser(file string, cfg *Config) *configParser {
	p := &configParser{file: file, cfg: cfg}
	p.Report = func(line int, msg string) {
		p.errs = append(p.errs, &ConfigError{File: p.file, Line: line, Msg: msg})
	}
	return p
}

func (p *configParser) root(n *yaml.Node) {
	p.Mapping(n, "config", []string{"defaults", "limits", "events", "hooks", "strict", "state"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "state":
			p.state(k, v)
		case "strict":
			if err := v.Decode(&p.cfg.Strict); err != nil || v.Tag != "!!bool" {
				p.Errorf(v, "strict: want true or false, got %q", v.Value)
			}
		case "limits":
			p.Mapping(v, "limits", []string{"memory", "worker_start", "concurrency", "queue_timeout"}, func(key string, k, v *yaml.Node) {
				switch key {
				case "concurrency":
					var n int
					if err := v.Decode(&n); err != nil || v.Tag != "!!int" || n < 1 || n > MaxConcurrency {
						p.Errorf(v, "limits.concurrency: want a number of hook calls from 1 to %d, got %q", MaxConcurrency, v.Value)
					} else {
						p.cfg.Limits.Concurrency = n
					}
				case "queue_timeout":
					p.cfg.Limits.QueueTimeout = p.duration(v, "limits.queue_timeout")
				case "memory":
					p.cfg.Limits.Memory, p.cfg.Limits.Line = p.size(v, "limits.memory", MinMemoryLimit), k.Line
				case "worker_start":
					if d := p.duration(v, "limits.worker_start"); d > 0 && d < MinWorkerStart {
						p.Errorf(v, "limits.worker_start: %v is under the %v a worker needs at least", v.Value, MinWorkerStart)
					} else {
						p.cfg.Limits.WorkerStart = d
					}
				}
			})
		case "defaults":
			p.Mapping(v, "defaults", []string{"timeout", "isolation"}, func(key string, _, v *yaml.Node) {
				switch key {
				case "timeout":
					p.cfg.Defaults.Timeout = p.duration(v, "defaults.timeout")
				case "isolation":
					p.cfg.Defaults.Isolation = p.isolation(v, "defaults.isolation")
				}
			})
		case "events":
			p.cfg.Events = map[string]EventConfig{}
			p.Mapping(v, "events", nil, func(name string, k, v *yaml.Node) { p.event(name, k, v) })
		case "hooks":
			p.cfg.Hooks = map[string]HookConfig{}
			p.Mapping(v, "hooks", nil, func(key string, k, v *yaml.Node) { p.hook(key, k, v) })
		}
	})
}

var eventKeys = []string{"mode", "actions", "default", "timeout", "timeout_behavior", "error_behavior", "fields", "description"}

func (p *configParser) event(name string, k, n *yaml.Node) {
	ec := EventConfig{Line: k.Line}
	what := "events." + name
	p.Mapping(n, what, eventKeys, func(key string, _, v *yaml.Node) {
		switch key {
		case "mode":
			ec.Mode = Mode(p.Str(v, what+".mode"))
		case "actions":
			for _, s := range p.StrList(v, what+".actions") {
				ec.Actions = append(ec.Actions, Action(s))
			}
		case "default":
			ec.Default = Action(p.Str(v, what+".default"))
		case "timeout":
			ec.Timeout = p.duration(v, what+".timeout")
		case "timeout_behavior":
			ec.TimeoutBehavior = p.behavior(v, what+".timeout_behavior")
		case "error_behavior":
			ec.ErrorBehavior = p.behavior(v, what+".error_behavior")
		case "fields":
			ec.Fields = p.StrList(v, what+".fields")
		case "description":
			ec.Description = p.Str(v, what+".description")
		}
	})
	p.cfg.Events[name] = ec
}

var hookKeys = []string{"enabled", "priority", "timeout", "timeouts", "config", "isolation", "error_behavior", "timeout_behavior", "enforce"}

func (p *configParser) hook(key string, k, n *yaml.Node) {
	hc := HookConfig{Line: k.Line, behaviorLines: map[string]int{}}
	what := "hooks." + key
	_, hookName, err := SplitHookKey(key)
	if err != nil {
		p.Errorf(k, "hooks: %v", err)
		return
	}
	p.Mapping(n, what, hookKeys, func(field string, _, v *yaml.Node) {
		switch field {
		case "isolation":
			if hookName != "" {
				p.Errorf(v, "%s.isolation: isolation applies to a whole file or pack, not to one hook", what)
			}
			hc.Isolation = p.isolation(v, what+".isolation")
		case "enabled":
			var b bool
			if err := v.Decode(&b); err != nil || v.Tag != "!!bool" {
				p.Errorf(v, "%s.enabled: want true or false, got %q", what, v.Value)
			}
			hc.Enabled = &b
		case "priority":
			var i int64
			if err := v.Decode(&i); err != nil || v.Tag != "!!int" {
				p.Errorf(v, "%s.priority: want an integer, got %q", what, v.Value)
			}
			hc.Priority = &i
		case "timeout":
			hc.Timeout = p.duration(v, what+".timeout")
		case "timeouts":
			hc.Timeouts, hc.timeoutLines = map[string]time.Duration{}, map[string]int{}
			p.Mapping(v, what+".timeouts", nil, func(ev string, k, v *yaml.Node) {
				hc.Timeouts[ev] = p.duration(v, what+".timeouts."+ev)
				hc.timeoutLines[ev] = k.Line
			})
		case "config":
			hc.Config = p.FreeMap(v, what+".config")
		case "error_behavior":
			hc.ErrorBehavior, hc.behaviorLines[field] = p.behavior(v, what+".error_behavior"), v.Line
		case "timeout_behavior":
			hc.TimeoutBehavior, hc.behaviorLines[field] = p.behavior(v, what+".timeout_behavior"), v.Line
		case "enforce":
			hc.Enforce = p.enforcement(v, what+".enforce")
		}
	})
	p.cfg.Hooks[key] = hc
}

func (p *configParser) behavior(n *yaml.Node, what string) Behavior {
	s := Behavior(p.Str(n, what))
	if !s.valid() {
		p.Errorf(n, "%s: want skip or deny, got %q", what, s)
	}
	return s
}

func (p *configParser) enforcement(n *yaml.Node, what string) Enforcement {
	s := Enforcement(p.Str(n, what))
	if s != "" && !slices.Contains(enforcements, s) {
		p.Errorf(n, "%s: want %s, got %q", what, enforcementChoices(), s)
	}
	return s
}

// enforcementChoices lists the values of an enforce key for messages:
// "enforce, dryrun or warn".
func enforcementChoices() string {
	names := make([]string, len(enforcements))
	for i, e := range enforcements {
		names[i] = string(e)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// duration reads a timeout: a duration string or integer milliseconds,
// more than zero and at most 10 minutes.
func (p *configParser) duration(n *yaml.Node, what string) time.Duration {
	var v any = n.Value
	if n.Kind != yaml.ScalarNode {
		p.Errorf(n, "%s: want a duration such as 500ms or 2s", what)
		return 0
	}
	if n.Tag == "!!int" {
		var i int64
		_ = n.Decode(&i)
		v = i
	}
	d, err := stdlib.ParseDuration(v)
	switch {
	case err != nil:
		p.Errorf(n, "%s: %v", what, err)
	case d <= 0:
		p.Errorf(n, "%s: %v must be more than zero", what, n.Value)
	case d > scripting.MaxTimeout:
		p.Errorf(n, "%s: %v is over the %v cap", what, n.Value, scripting.MaxTimeout)
	}
	return d
}

// size reads a byte size ("512MiB", "1GiB", or a number of bytes) of at
// least least bytes.
func (p *configParser) size(n *yaml.Node, what string, least int64) int64 {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "!!int") {
		p.Errorf(n, "%s: want a size such as 512MiB or 1GiB", what)
		return 0
	}
	b, err := scripting.ParseBytes(n.Value)
	switch {
	case err != nil:
		p.Errorf(n, "%s: %v", what, err)
	case b < least:
		p.Errorf(n, "%s: %s is below the %s minimum", what, n.Value, scripting.FormatBytes(least))
	}
	return b
}

func (p *configParser) isolation(n *yaml.Node, what string) Isolation {
	s := Isolation(p.Str(n, what))
	if s != "" && s != InProcess && s != ProcessIsolation {
		p.Errorf(n, "%s: want process or none, got %q", what, s)
	}
	return s
}

// isolationOf is where a file's hooks run: the file's setting, else its
// pack's, else the defaults'.
func (c *Config) isolationOf(file, pack string) Isolation {
	keys := []string{file}
	if pack != "" {
		keys = append(keys, pack+"/")
	}
	for _, key := range keys {
		if hc := c.Hooks[key]; hc.Isolation != "" {
			return hc.Isolation
		}
	}
	if c.Defaults.Isolation != "" {
		return c.Defaults.Isolation
	}
	return InProcess
}

// SplitHookKey splits a key of the config's hooks section into the
// file it names and the hook name, "" for a key that names a whole file.
// A hook pack's key ("pack/") is its own file part. The file part ends in
// one of the engines' extensions (scripting/engines); a key that fits
// none of these forms is an error.
func SplitHookKey(key string) (file, name string, err error) {
	if dir, ok := strings.CutSuffix(key, "/"); ok && dir != "" && !strings.ContainsAny(dir, "/:") && !strings.HasPrefix(dir, ".") {
		return key, "", nil
	}
	for _, ext := range engines.Extensions() {
		if strings.HasSuffix(key, ext) && len(key) > len(ext) {
			return key, "", nil
		}
		if i := strings.Index(key, ext+":"); i > 0 && i+len(ext)+1 < len(key) {
			return key[:i+len(ext)], key[i+len(ext)+1:], nil
		}
	}
	return "", "", fmt.Errorf("key %q: want a file (guard.lua), a hook id (guard.lua:no-rm-root) or a hook pack (pack/)", key)
}
