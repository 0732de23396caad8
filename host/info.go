package host

import (
	"maps"
	"slices"
	"time"
)

// Hooks lists every loaded hook, enabled or not, sorted by id.
func (h *Host) Hooks() []HookInfo {
	snap := h.current.Load()
	if snap == nil {
		return nil
	}
	out := slices.Clone(snap.hooks)
	now := h.now()
	versions := snap.fileVersions()
	for i := range out { // quarantine and failures change between snapshots
		out[i].Recent = h.recent.of(out[i].ID, versions[out[i].File], now)
		if r := h.strikes.peek(out[i].ID); r != nil {
			qi, ok := r.info(now)
			out[i].Quarantined, out[i].QuarantinedSince, out[i].QuarantinedUntil, out[i].QuarantineReason =
				ok, qi.Since, qi.Until, qi.Reason
		}
	}
	return out
}

// Files lists the script files, sorted by path, with their errors.
func (h *Host) Files() []FileStatus {
	snap := h.current.Load()
	if snap == nil {
		return nil
	}
	return slices.Clone(snap.files)
}

// Problems returns every file's problem (compile errors, failed top
// levels, unknown events), each naming the file and line.
func (h *Host) Problems() []error {
	snap := h.current.Load()
	if snap == nil {
		return nil
	}
	return slices.Clone(snap.problems)
}

// Events returns the specs of every event the host fires, sorted by name.
func (h *Host) Events() []EventSpec {
	snap := h.current.Load()
	if snap == nil {
		return nil
	}
	out := make([]EventSpec, 0, len(snap.events))
	for _, name := range slices.Sorted(maps.Keys(snap.events)) {
		out = append(out, snap.events[name].spec)
	}
	return out
}

// Generation counts the snapshots published; it is 1 after New and grows
// with each reload that changed something (see ReloadReport.Published).
// LoadedAt is when the current one was published.
func (h *Host) Generation() (gen uint64, loadedAt time.Time) {
	snap := h.current.Load()
	if snap == nil {
		return 0, time.Time{}
	}
	return snap.gen, snap.loadedAt
}

// fileVersions maps each file of the snapshot to the version serving.
func (s *snapshot) fileVersions() map[string]string {
	out := make(map[string]string, len(s.files))
	for _, f := range s.files {
		out[f.Path] = f.Version
	}
	return out
}

// hookVersions maps each hook of the snapshot to its file's version.
func (s *snapshot) hookVersions() map[string]string {
	files := s.fileVersions()
	out := make(map[string]string, len(s.hooks))
	for _, hk := range s.hooks {
		out[hk.ID] = files[hk.File]
	}
	return out
}
