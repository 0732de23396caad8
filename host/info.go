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
	for i := range out { // quarantine changes between snapshots
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
