package host

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hookhost/hookhost/host/isolate"
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
	// problemLines are the problems one per line, shared read-only by
	// every Result of this snapshot; nil when there are none.
	problemLines []string
	// strictDeny is the reason every deny-capable fire is denied with,
	// when strict mode is on and some file has no good version.
	strictDeny string
	strict     bool
	config     ConfigStatus
	packs      []PackStatus
	notes      []string
	// dirErr is set while the hooks directory cannot be read: the hooks
	// are the last good ones.
	dirErr *DirError

	// refs counts the fires running on the snapshot. Once a newer one
	// replaced it and the last fire left, the snapshot is closed: it
	// releases its versions, and programs no snapshot holds are closed.
	refs     fireRefs
	versions []*version
}

// tryAcquire takes a reference for a fire, returning the shard to give
// back to release; it fails on a snapshot already retired (the fire then
// loads the current one again).
func (s *snapshot) tryAcquire() (shard int, ok bool) {
	shard, ok, closeNow := s.refs.acquire()
	if closeNow {
		s.close()
	}
	return shard, ok
}

// release drops a fire's reference; the last one closes a retired
// snapshot.
func (s *snapshot) release(shard int) {
	if s.refs.release(shard) {
		s.close()
	}
}

// retire is called once, when a newer snapshot replaced this one or the
// host closed: the snapshot closes as soon as no fire holds it.
func (s *snapshot) retire() {
	if s.refs.retire() {
		s.close()
	}
}

// close releases the snapshot's versions; fireRefs makes it run once.
func (s *snapshot) close() {
	for _, v := range s.versions {
		v.release()
	}
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
	// binds are the payload fields fn converts and checks (see
	// scripting.Hook.Binds); nil when it promises nothing.
	binds   *scripting.Binding
	strikes *strikeRecord
	// version is the hash of the file version the hook comes from, which
	// its recent failures belong to (failures.go).
	version string
	// worker is fn when the hook is isolated: its worker may be starting,
	// which the fire waits for before the hook's clock starts.
	worker isolate.WorkerFunction
	// onError and onTimeout are what the hook's failure does to the fire
	// (behavior.go); behaviorErr is the config's mistake in them.
	onError, onTimeout Behavior
	behaviorErr        error
	// enforce says whether the hook's decisions are applied or only
	// recorded (shadow mode, behavior.go).
	enforce Enforcement
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
	// Pack is the hook pack of the hook's file; empty for a top-level
	// file. PackDescription is the pack's description from its HOOK.md.
	Pack            string `json:"pack,omitempty"`
	PackDescription string `json:"pack_description,omitempty"`
	// Isolated is set when the hook runs in a worker process (its file
	// or pack is configured "isolation: process").
	Isolated bool `json:"isolated,omitempty"`
	// ErrorBehavior and TimeoutBehavior are what the hook's failure does
	// to its fire: skip or deny (see docs/config.md).
	ErrorBehavior   Behavior `json:"error_behavior"`
	TimeoutBehavior Behavior `json:"timeout_behavior"`
	// Enforce says whether the hook's decisions are applied (enforce) or
	// only recorded (dryrun, warn: shadow mode, see docs/config.md).
	Enforce Enforcement `json:"enforce"`
	// QuarantinedSince, QuarantinedUntil and QuarantineReason describe
	// the hook's quarantine while Quarantined is set.
	QuarantinedSince time.Time `json:"quarantined_since,omitzero"`
	QuarantinedUntil time.Time `json:"quarantined_until,omitzero"`
	QuarantineReason string    `json:"quarantine_reason,omitempty"`
	// Recent are the hook's timeouts and errors within the last
	// FailureWindow, counted since its file's version loaded in this
	// process (a one-shot command's host has none).
	Recent RecentFailures `json:"recent_failures,omitzero"`
}

// FileStatus describes a script file.
type FileStatus struct {
	Path string
	// Pack is the hook pack the file belongs to; empty for a top-level
	// file.
	Pack  string
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

// snapshotInput is what a snapshot is built from.
type snapshotInput struct {
	gen    uint64
	now    time.Time
	events map[string]*EventSpec
	cfg    *Config
	files  map[string]*loadedFile
	q      *quarantine
	strict bool
	config ConfigStatus
	packs  map[string]*packState
	notes  []string
	dirErr *DirError
}

// buildSnapshot binds every live hook to its configuration. The snapshot
// holds a reference to every live version (released when it is
// retired).
func buildSnapshot(in snapshotInput) (s *snapshot, released []string) {
	s = &snapshot{gen: in.gen, loadedAt: in.now, events: make(map[string]*eventTable, len(in.events)),
		strict: in.strict, config: in.config, packs: packStatuses(in.packs), notes: in.notes, dirErr: in.dirErr}
	if in.dirErr != nil {
		s.problems = append(s.problems, in.dirErr)
	}
	for name, spec := range in.events {
		s.events[name] = &eventTable{spec: *spec}
	}
	for _, name := range slices.Sorted(maps.Keys(in.files)) {
		f := in.files[name]
		if f.live != nil {
			f.live.acquire()
			s.versions = append(s.versions, f.live)
		}
		var meta *packMeta
		if p := in.packs[f.pack]; p != nil {
			meta = p.meta
		}
		released = append(released, s.addFile(f, meta, in.cfg, in.q)...)
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
	for _, p := range s.packs {
		if p.Err != nil {
			s.problems = append(s.problems, p.Err)
		}
	}
	s.summarizeProblems()
	return s, released
}

// summarizeProblems writes the problems one per line and, in strict
// mode, the deny reason of a snapshot where a file has no good version.
func (s *snapshot) summarizeProblems() {
	for _, p := range s.problems {
		for _, e := range flattenErrors(p) {
			s.problemLines = append(s.problemLines, e.Error())
		}
	}
	if !s.strict {
		return
	}
	if bad := s.neverGood(); len(bad) > 0 {
		s.strictDeny = "hookhost: " + bad[0]
		if len(bad) > 1 {
			s.strictDeny += fmt.Sprintf(" (and %d more)", len(bad)-1)
		}
	}
}

// neverGood describes the files with no good version serving, as
// "<file>:<line> failed to load: <message>".
func (s *snapshot) neverGood() []string {
	var out []string
	for _, f := range s.files {
		if f.Version != "" || f.Err == nil {
			continue
		}
		out = append(out, failedToLoad(f.Path, f.Err))
	}
	return append(out, s.packFailures()...)
}

func failedToLoad(file string, err error) string {
	var se *scripting.Error
	if errs := flattenErrors(err); len(errs) > 0 && errors.As(errs[0], &se) && se.File != "" {
		where := se.File
		if se.Line > 0 {
			where = fmt.Sprintf("%s:%d", se.File, se.Line)
		}
		return where + " failed to load: " + se.Msg
	}
	return file + " failed to load: " + err.Error()
}

// flattenErrors splits joined errors into their leaves.
func flattenErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// addFile adds a file's live hooks. A hook registered for an unknown
// event makes the whole file a load error. It returns the hooks whose
// quarantine the new version lifted.
func (s *snapshot) addFile(f *loadedFile, pack *packMeta, cfg *Config, q *quarantine) (released []string) {
	st := FileStatus{Path: f.path, Pack: f.pack, Err: f.err}
	defer func() { s.files = append(s.files, st) }()
	if f.err != nil {
		s.problems = append(s.problems, f.err)
	}
	if f.live == nil {
		return nil
	}
	hooks := lastByName(f.live.prog.Hooks())
	if err := checkEvents(f.path, hooks, s.eventSpecs()); err != nil {
		st.Err = errors.Join(st.Err, err)
		s.problems = append(s.problems, err)
		return nil
	}
	st.Version, st.Hooks = f.live.hash, len(hooks)
	for _, h := range hooks {
		b, info, lifted := bind(f, pack, h, cfg, s.events[h.Event].spec, q)
		if b.behaviorErr != nil {
			s.problems = append(s.problems, b.behaviorErr)
		}
		if lifted {
			released = append(released, b.id)
		}
		s.hooks = append(s.hooks, info)
		if info.Enabled {
			t := s.events[h.Event]
			t.hooks = append(t.hooks, b)
		}
	}
	return released
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

// eventSpecs is the snapshot's events as checkEvents wants them.
func (s *snapshot) eventSpecs() map[string]*EventSpec {
	out := make(map[string]*EventSpec, len(s.events))
	for name, t := range s.events {
		out[name] = &t.spec
	}
	return out
}

// checkEvents reports the hooks registered for events that do not exist.
func checkEvents(file string, hooks []scripting.Hook, events map[string]*EventSpec) error {
	var errs []error
	for _, h := range hooks {
		if events[h.Event] == nil {
			errs = append(errs, &scripting.Error{File: file, Line: h.Line, Hook: file + ":" + h.Name,
				Msg: fmt.Sprintf("hook.on: unknown event %q (known events: %s)", h.Event, eventNames(events))})
		}
	}
	return errors.Join(errs...)
}

func eventNames(events map[string]*EventSpec) string {
	return strings.Join(slices.Sorted(maps.Keys(events)), ", ")
}

// bind resolves a hook's priority, enabled, timeout and config from the
// operator's settings, most specific first, over its pack's defaults.
func bind(f *loadedFile, pack *packMeta, h scripting.Hook, cfg *Config, spec EventSpec, q *quarantine) (*boundHook, HookInfo, bool) {
	id := f.path + ":" + h.Name
	byID, byFile, byPack := cfg.Hooks[id], cfg.Hooks[f.path], HookConfig{}
	enabled := h.Enabled
	var packConfig map[string]any
	if f.pack != "" {
		byPack = cfg.Hooks[f.pack+"/"]
		if pack != nil {
			enabled, packConfig = enabled && pack.enabled, pack.config
		}
	}
	strikes, lifted := q.record(id, f.live.hash)
	b := &boundHook{id: id, file: f.path, line: h.Line, priority: h.Priority, fn: h.Func, binds: h.Binds,
		config: mergeConfig(packConfig, byPack.Config, byFile.Config, byID.Config), strikes: strikes,
		version: f.live.hash}
	for _, hc := range []HookConfig{byPack, byFile, byID} { // later wins
		if hc.Priority != nil {
			b.priority = *hc.Priority
		}
		if hc.Enabled != nil {
			enabled = *hc.Enabled
		}
	}
	b.worker, _ = h.Func.(isolate.WorkerFunction)
	var from string
	b.timeout, from = resolveTimeout(h, spec, cfg, byID, byFile, byPack)
	b.onError, b.onTimeout, b.behaviorErr = resolveBehaviors(id, f.path, h, &spec, pack, cfg.Path, byID, byFile, byPack)
	b.enforce = resolveEnforcement(byID, byFile, byPack)
	info := HookInfo{ID: id, Event: h.Event, File: f.path, Line: h.Line, Priority: b.priority, Timeout: b.timeout,
		TimeoutFrom: from, Enabled: enabled, Params: h.Params, Quarantined: b.strikes.blocks(time.Now()), Pack: f.pack,
		Isolated: f.live.unit != "", ErrorBehavior: b.onError, TimeoutBehavior: b.onTimeout, Enforce: b.enforce}
	if pack != nil {
		info.PackDescription = pack.description
	}
	return b, info, lifted
}

// DefaultTimeout is the budget of a hook that nothing else gives one.
const DefaultTimeout = time.Second

// resolveTimeout applies the documented precedence (docs/config.md): operator per-hook-id →
// operator per-file per-event → operator per-file → operator per-pack
// per-event → operator per-pack → operator per-event → script-declared →
// event spec default → operator defaults.timeout → built-in 1s. A
// per-hook-id per-event entry counts as per-hook-id.
func resolveTimeout(h scripting.Hook, spec EventSpec, cfg *Config, byID, byFile, byPack HookConfig) (time.Duration, string) {
	candidates := []struct {
		d    time.Duration
		from string
	}{
		{byID.Timeouts[h.Event], "hook config (per event)"},
		{byID.Timeout, "hook config"},
		{byFile.Timeouts[h.Event], "file config (per event)"},
		{byFile.Timeout, "file config"},
		{byPack.Timeouts[h.Event], "pack config (per event)"},
		{byPack.Timeout, "pack config"},
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

// mergeConfig merges config layers key by key, later layers winning
// (pack defaults, then the operator's pack, file and hook entries); the
// result is shared read-only by every call.
func mergeConfig(layers ...map[string]any) map[string]any {
	n := 0
	for _, l := range layers {
		n += len(l)
	}
	out := make(map[string]any, n)
	for _, l := range layers {
		maps.Copy(out, l)
	}
	return out
}
