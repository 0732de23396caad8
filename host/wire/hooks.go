package wire

import (
	"encoding/json"
	"io"
	"time"

	"github.com/hookhost/hookhost/host"
)

// A HookEntry describes one loaded hook: an element of the "hookhost list
// --json" array and of serve's GET /v1/hooks (docs/cli.md).
type HookEntry struct {
	ID          string   `json:"id"`
	Event       string   `json:"event"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
	Priority    int64    `json:"priority"`
	TimeoutMS   float64  `json:"timeout_ms"`
	TimeoutFrom string   `json:"timeout_from"`
	Enabled     bool     `json:"enabled"`
	Quarantined bool     `json:"quarantined"`
	Params      []string `json:"params"`
	// Pack is the hook pack of the hook's file and PackDescription its
	// HOOK.md description; both omitted for a top-level file.
	Pack            string `json:"pack,omitempty"`
	PackDescription string `json:"pack_description,omitempty"`
	// Isolated is true for a hook that runs in a worker process
	// ("isolation: process"); omitted in process.
	Isolated bool `json:"isolated,omitempty"`
	// Enforce is "dryrun" or "warn" for a hook in shadow mode, whose
	// decisions are recorded but not applied; omitted for one that
	// enforces (the default).
	Enforce host.Enforcement `json:"enforce,omitempty"`
	// QuarantinedUntil is when the hook's quarantine ends by itself
	// (RFC 3339); omitted while it is not quarantined.
	QuarantinedUntil string `json:"quarantined_until,omitempty"`
	// RecentFailures are the hook's timeouts and errors within the last
	// ten minutes (host.FailureWindow) and its last failure: what shows a
	// hook that fails on every call; omitted when there are none (always,
	// in a one-shot command, which has fired nothing).
	RecentFailures host.RecentFailures `json:"recent_failures,omitzero"`
}

// NewHookEntry is the entry of one hook.
func NewHookEntry(h host.HookInfo) HookEntry {
	params := h.Params
	if params == nil {
		params = []string{}
	}
	e := HookEntry{ID: h.ID, Event: h.Event, File: h.File, Line: h.Line, Priority: h.Priority,
		TimeoutMS: Milliseconds(h.Timeout), TimeoutFrom: h.TimeoutFrom, Enabled: h.Enabled,
		Quarantined: h.Quarantined, Params: params, Pack: h.Pack, PackDescription: h.PackDescription,
		Isolated: h.Isolated, RecentFailures: h.Recent}
	if h.Enforce != host.Enforce {
		e.Enforce = h.Enforce
	}
	if h.Quarantined && !h.QuarantinedUntil.IsZero() {
		e.QuarantinedUntil = h.QuarantinedUntil.UTC().Format(time.RFC3339)
	}
	return e
}

// HookEntries is the listing of hooks; never nil, so no hooks is [].
func HookEntries(hooks []host.HookInfo) []HookEntry {
	out := make([]HookEntry, len(hooks))
	for i, h := range hooks {
		out[i] = NewHookEntry(h)
	}
	return out
}

// Milliseconds is d in milliseconds, to the microsecond, as the fire
// trace's duration_ms.
func Milliseconds(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond)) / float64(time.Millisecond)
}

// WriteJSONLine writes v as one line of JSON, without HTML escaping:
// "a && b" stays "a && b".
func WriteJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
