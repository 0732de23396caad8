package host

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// A snapshot is an immutable view of every hook, ready to fire: each
// event's hooks already bound to their configuration and sorted. Fires
// load the current snapshot once and hold no lock.
type snapshot struct {
	gen      uint64
	loadedAt time.Time
	events   map[string]*eventTable
	hooks    []HookInfo
	files    []FileStatus
	problems []error
}

type eventTable struct {
	spec  EventSpec
	hooks []*boundHook
}

// A boundHook is a hook with its operator configuration applied.
type boundHook struct {
	id       string
	file     string
	line     int
	priority int64
	timeout  time.Duration
	config   map[string]any
	fn       scripting.Function
	strikes  *strikeRecord
}

// HookInfo describes a loaded hook, for listings.
type HookInfo struct {
	ID       string        `json:"id"`
	Event    string        `json:"event"`
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Priority int64         `json:"priority"`
	Timeout  time.Duration `json:"-"`
	// TimeoutFrom says which setting gave the timeout (see resolveTimeout).
	TimeoutFrom string   `json:"timeout_from"`
	Enabled     bool     `json:"enabled"`
	Params      []string `json:"params"`
	Quarantined bool     `json:"quarantined"`
}

// FileStatus describes a script file.
type FileStatus struct {
	Path  string
	Hooks int
	// Err is the latest version's error, or nil. A file whose latest
	// version failed keeps its last good version live when it has one.
	Err error
	// Version is the sha256 prefix of the source that is serving; empty
	// when no version of the file ever loaded.
	Version string
}

// resolveEvents applies the config's event entries to the base specs and
// adds its custom events. Errors name the config line.
func resolveEvents(base []EventSpec, cfg *Config) (map[string]*EventSpec, error) {
	out := make(map[string]*EventSpec, len(base)+len(cfg.Events))
	for _, s := range base {
		out[s.Name] = &s
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(cfg.Events)) {
		ec := cfg.Events[name]
		spec, err := applyEventConfig(out[name], name, ec)
		if err != nil {
			errs = append(errs, &ConfigError{File: cfg.Path, Line: ec.Line, Msg: err.Error()})
			continue
		}
		out[name] = spec
	}
	errs = append(errs, checkHookTimeouts(cfg, out)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func applyEventConfig(known *EventSpec, name string, ec EventConfig) (*EventSpec, error) {
	var s EventSpec
	if known != nil {
		if ec.Mode != "" || ec.Actions != nil || ec.Default != "" || ec.Fields != nil {
			return nil, fmt.Errorf("events.%s: a built-in event's mode, actions, default and fields cannot be changed (set timeout, timeout_behavior, error_behavior)", name)
		}
		s = *known
	} else {
		if ec.Mode == "" {
			return nil, fmt.Errorf("events.%s: unknown event; to declare a custom event, give its mode (observe, collect, first or chain) and actions", name)
		}
		s = EventSpec{Name: name, Mode: ec.Mode, Actions: ec.Actions, Default: ec.Default, Fields: ec.Fields, Doc: ec.Description}
	}
	if ec.TimeoutBehavior != "" {
		s.OnTimeout = ec.TimeoutBehavior
	}
	if ec.ErrorBehavior != "" {
		s.OnError = ec.ErrorBehavior
	}
	n, err := s.normalized()
	if err != nil {
		return nil, err
	}
	return &n, nil
}

func checkHookTimeouts(cfg *Config, events map[string]*EventSpec) []error {
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(cfg.Hooks)) {
		hc := cfg.Hooks[key]
		for _, ev := range slices.Sorted(maps.Keys(hc.Timeouts)) {
			if events[ev] == nil {
				errs = append(errs, &ConfigError{File: cfg.Path, Line: hc.timeoutLines[ev],
					Msg: fmt.Sprintf("hooks.%s.timeouts: unknown event %q", key, ev)})
			}
		}
	}
	return errs
}

// buildSnapshot binds every live hook to its configuration.
func buildSnapshot(gen uint64, now time.Time, events map[string]*EventSpec, cfg *Config, files map[string]*loadedFile, q *quarantine) *snapshot {
	s := &snapshot{gen: gen, loadedAt: now, events: make(map[string]*eventTable, len(events))}
	for name, spec := range events {
		s.events[name] = &eventTable{spec: *spec}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		s.addFile(files[name], cfg, q)
	}
	for _, t := range s.events {
		sort.Slice(t.hooks, func(i, j int) bool {
			a, b := t.hooks[i], t.hooks[j]
			if a.priority != b.priority {
				return a.priority > b.priority
			}
			return a.id < b.id
		})
	}
	sort.Slice(s.hooks, func(i, j int) bool { return s.hooks[i].ID < s.hooks[j].ID })
	return s
}

// addFile adds a file's live hooks. A hook registered for an unknown
// event makes the whole file a load error.
func (s *snapshot) addFile(f *loadedFile, cfg *Config, q *quarantine) {
	st := FileStatus{Path: f.path, Err: f.err}
	defer func() { s.files = append(s.files, st) }()
	if f.err != nil {
		s.problems = append(s.problems, f.err)
	}
	if f.live == nil {
		return
	}
	hooks := lastByName(f.live.prog.Hooks())
	if err := s.checkEvents(f.path, hooks); err != nil {
		st.Err = errors.Join(st.Err, err)
		s.problems = append(s.problems, err)
		return
	}
	st.Version, st.Hooks = f.live.hash, len(hooks)
	for _, h := range hooks {
		b, info := bind(f, h, cfg, s.events[h.Event].spec, q)
		s.hooks = append(s.hooks, info)
		if info.Enabled {
			t := s.events[h.Event]
			t.hooks = append(t.hooks, b)
		}
	}
}

// lastByName keeps the last registration of each name, in first-seen
// order of the names kept.
func lastByName(hooks []scripting.Hook) []scripting.Hook {
	last := make(map[string]int, len(hooks))
	for i, h := range hooks {
		last[h.Name] = i
	}
	out := make([]scripting.Hook, 0, len(last))
	for i, h := range hooks {
		if last[h.Name] == i {
			out = append(out, h)
		}
	}
	return out
}

func (s *snapshot) checkEvents(file string, hooks []scripting.Hook) error {
	var errs []error
	for _, h := range hooks {
		if s.events[h.Event] == nil {
			errs = append(errs, &scripting.Error{File: file, Line: h.Line, Hook: file + ":" + h.Name,
				Msg: fmt.Sprintf("hook.on: unknown event %q (known events: %s)", h.Event, s.eventNames())})
		}
	}
	return errors.Join(errs...)
}

func (s *snapshot) eventNames() string {
	return strings.Join(slices.Sorted(maps.Keys(s.events)), ", ")
}

// bind resolves a hook's priority, enabled, timeout and config from the
// operator's settings, most specific first.
func bind(f *loadedFile, h scripting.Hook, cfg *Config, spec EventSpec, q *quarantine) (*boundHook, HookInfo) {
	id := f.path + ":" + h.Name
	byID, byFile := cfg.Hooks[id], cfg.Hooks[f.path]
	b := &boundHook{id: id, file: f.path, line: h.Line, priority: h.Priority, fn: h.Func,
		config: mergeConfig(byFile.Config, byID.Config), strikes: q.record(id, f.live.hash)}
	enabled := h.Enabled
	for _, hc := range []HookConfig{byFile, byID} { // later wins
		if hc.Priority != nil {
			b.priority = *hc.Priority
		}
		if hc.Enabled != nil {
			enabled = *hc.Enabled
		}
	}
	var from string
	b.timeout, from = resolveTimeout(h, spec, cfg, byID, byFile)
	info := HookInfo{ID: id, Event: h.Event, File: f.path, Line: h.Line, Priority: b.priority, Timeout: b.timeout,
		TimeoutFrom: from, Enabled: enabled, Params: h.Params, Quarantined: b.strikes.quarantined.Load()}
	return b, info
}

// DefaultTimeout is the budget of a hook that nothing else gives one.
const DefaultTimeout = time.Second

// resolveTimeout applies the documented precedence (docs/config.md): operator per-hook-id →
// operator per-file per-event → operator per-file → operator per-event →
// script-declared → event spec default → operator defaults.timeout →
// built-in 1s. A per-hook-id per-event entry counts as per-hook-id.
func resolveTimeout(h scripting.Hook, spec EventSpec, cfg *Config, byID, byFile HookConfig) (time.Duration, string) {
	candidates := []struct {
		d    time.Duration
		from string
	}{
		{byID.Timeouts[h.Event], "hook config (per event)"},
		{byID.Timeout, "hook config"},
		{byFile.Timeouts[h.Event], "file config (per event)"},
		{byFile.Timeout, "file config"},
		{cfgEventTimeout(cfg, h.Event), "event config"},
		{h.Timeout, "script"},
		{spec.Timeout, "event default"},
		{cfg.Defaults.Timeout, "config defaults"},
	}
	for _, c := range candidates {
		if c.d > 0 {
			return min(c.d, scripting.MaxTimeout), c.from
		}
	}
	return DefaultTimeout, "built-in default"
}

func cfgEventTimeout(cfg *Config, event string) time.Duration {
	return cfg.Events[event].Timeout
}

// mergeConfig merges file-level and hook-level config key by key, the
// hook's winning; the result is shared read-only by every call.
func mergeConfig(file, hook map[string]any) map[string]any {
	out := make(map[string]any, len(file)+len(hook))
	maps.Copy(out, file)
	maps.Copy(out, hook)
	return out
}
