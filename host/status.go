package host

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/hookhost/hookhost/stdlib/state"
)

// A Status is what a host is serving: the snapshot's generation, its
// files with their errors and live versions, the config, the quarantined
// hooks and the load problems. Its JSON is the shape of a daemon's
// status endpoint (docs/embedding.md).
type Status struct {
	Generation uint64
	LoadedAt   time.Time
	Files      []FileStatus
	Config     ConfigStatus
	// Packs are the hook packs of the directory.
	Packs []PackStatus
	// Notes say what the scan left out on purpose (a subdirectory that is
	// not a hook pack, one nested too deep).
	Notes       []string
	Quarantined []string
	// Quarantines describe the quarantined hooks: since when, until
	// when, and why.
	Quarantines []QuarantineInfo
	// Strict reports strict mode (Options.Strict or the config's strict).
	Strict bool
	// Problems are the load problems, one per line (Result.Problems),
	// and the error of a config edit that did not load (while the last
	// good config serves).
	Problems []string
	// State is the state module's backend and whether it answered last.
	State state.Health
	// Failing are the hooks that timed out or failed within the last
	// FailureWindow, sorted by id: how often, and the last failure.
	Failing []HookFailures
}

// A ConfigStatus is the operator config's state.
type ConfigStatus struct {
	// Path is the config file; empty when there is none.
	Path string
	// Err is the error of the config's latest content, while the last
	// good config stays live; nil when the latest content is live.
	Err error
}

// Status reports what the host is serving now.
func (h *Host) Status() Status {
	qs := h.Quarantines()
	ids := make([]string, len(qs))
	for i, q := range qs {
		ids[i] = q.Hook
	}
	snap := h.current.Load()
	if snap == nil {
		return Status{Quarantined: ids, Quarantines: qs, State: h.StateHealth()}
	}
	problems := slices.Clone(snap.problemLines)
	for _, e := range flattenErrors(snap.config.Err) {
		problems = append(problems, e.Error()+" (the last good config serves)")
	}
	return Status{Generation: snap.gen, LoadedAt: snap.loadedAt, Files: slices.Clone(snap.files),
		Config: snap.config, Packs: slices.Clone(snap.packs), Notes: slices.Clone(snap.notes),
		Quarantined: ids, Quarantines: qs, Strict: snap.strict, Problems: problems,
		State: h.StateHealth(), Failing: h.recent.failing(snap.hookVersions(), h.now())}
}

// Unhealthy lists, in strict mode, the files (and packs) that have no
// good version, as "<file>:<line> failed to load: …": while it is not
// empty every deny-capable fire is denied, and a daemon's health check
// should fail. Nil when not strict or all is well.
func (s Status) Unhealthy() []string {
	if !s.Strict {
		return nil
	}
	snap := snapshot{files: s.Files, packs: s.Packs}
	return snap.neverGood()
}

// MarshalJSON writes the status as the daemon's status endpoint answers
// it: generation, loaded_at (RFC 3339), files, config, packs, notes,
// quarantined, quarantines, strict, problems and failing, the lists
// never null.
func (s Status) MarshalJSON() ([]byte, error) {
	files := make([]fileJSON, len(s.Files))
	for i, f := range s.Files {
		files[i] = fileJSON{Path: f.Path, Pack: f.Pack, Hooks: f.Hooks, Error: errorText(f.Err), LiveVersion: f.Version}
	}
	packs := s.Packs
	if packs == nil {
		packs = []PackStatus{}
	}
	quarantines := s.Quarantines
	if quarantines == nil {
		quarantines = []QuarantineInfo{}
	}
	failing := s.Failing
	if failing == nil {
		failing = []HookFailures{}
	}
	return marshal(struct {
		Generation  uint64           `json:"generation"`
		LoadedAt    string           `json:"loaded_at"`
		Files       []fileJSON       `json:"files"`
		Config      configJSON       `json:"config"`
		Packs       []PackStatus     `json:"packs"`
		Notes       []string         `json:"notes"`
		Quarantined []string         `json:"quarantined"`
		Quarantines []QuarantineInfo `json:"quarantines"`
		Strict      bool             `json:"strict"`
		Problems    []string         `json:"problems"`
		State       stateJSON        `json:"state"`
		Failing     []HookFailures   `json:"failing"`
	}{s.Generation, s.LoadedAt.UTC().Format(time.RFC3339), files,
		configJSON{Path: s.Config.Path, Error: errorText(s.Config.Err)},
		packs, nonNil(s.Notes), nonNil(s.Quarantined), quarantines, s.Strict, nonNil(s.Problems),
		newStateJSON(s.State), failing})
}

type fileJSON struct {
	Path        string  `json:"path"`
	Pack        string  `json:"pack,omitempty"`
	Hooks       int     `json:"hooks"`
	Error       *string `json:"error"`
	LiveVersion string  `json:"live_version"`
}

// stateJSON is the state backend in the status: answered is null until
// the first operation, error null unless the last one got no answer.
type stateJSON struct {
	Backend  string  `json:"backend"`
	Target   string  `json:"target,omitempty"`
	Answered *bool   `json:"answered"`
	Error    *string `json:"error"`
	At       string  `json:"at,omitempty"`
}

func newStateJSON(h state.Health) stateJSON {
	j := stateJSON{Backend: h.Backend, Target: h.Target, Error: errorText(h.Err)}
	if j.Backend == "" {
		j.Backend = string(MemoryState)
	}
	if h.Checked {
		answered := h.Answered
		j.Answered = &answered
	}
	if !h.At.IsZero() {
		j.At = h.At.UTC().Format(time.RFC3339Nano)
	}
	return j
}

type configJSON struct {
	Path  string  `json:"path"`
	Error *string `json:"error"`
}

// errorText is an error as JSON wants it: its text, or null.
func errorText(err error) *string {
	if err == nil {
		return nil
	}
	s := err.Error()
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

var _ json.Marshaler = Status{}
