package host

import (
	"fmt"
	"time"
)

// An Observer is told what a host does: every fire that finished, every
// reload with its report, every hook quarantined or released. Metrics,
// a decision log, a daemon's status page and a CLI's problem output are
// observers; nothing in hookhost reads log text to learn these things.
//
// The host calls an Observer outside any lock, from the goroutine that
// did the work, possibly from several goroutines at once. A method must
// return quickly and must not call back into the host's reloads: hand
// slow work (writing a file, a network call) to a goroutine of your own,
// dropping what does not fit, so that observing never slows or fails a
// fire. A panicking Observer is recovered and logged.
type Observer interface {
	// FireDone is called once per Fire that ran (not for an unknown
	// event, a bad payload or a closed host).
	FireDone(FireReport)
	// ReloadDone is called once per reload, successful or not, after the
	// new snapshot (if any) was published.
	ReloadDone(ReloadReport)
	// QuarantineChanged is called when a hook is quarantined or released.
	QuarantineChanged(QuarantineReport)
}

// NopObserver is an Observer that ignores every report. Embed it in an
// observer that wants only some of them, so that the methods it does
// not need are not written out again as empty ones.
type NopObserver struct{}

var _ Observer = NopObserver{}

// FireDone ignores the fire.
func (NopObserver) FireDone(FireReport) {}

// ReloadDone ignores the reload.
func (NopObserver) ReloadDone(ReloadReport) {}

// QuarantineChanged ignores the change.
func (NopObserver) QuarantineChanged(QuarantineReport) {}

// A FireReport describes one finished fire. Result is the Result Fire
// returned; the observer must treat it (and its Payload) as read-only.
type FireReport struct {
	Result Result
	// Generation is the snapshot the fire ran on.
	Generation uint64
	// Start is when the fire began; Duration how long it took.
	Start    time.Time
	Duration time.Duration
	// Input is the payload the fire was given, read-only.
	Input map[string]any
	// Err is Fire's error, when the caller's context ended the fire.
	Err error
}

// A ReloadReport says what one reload did.
type ReloadReport struct {
	// Generation is the snapshot the reload published; when nothing was
	// published (Published is false), the generation still serving.
	Generation uint64
	// Published reports that the reload swapped in a new snapshot. A
	// reload that finds nothing changed (every file and pack manifest
	// unchanged, the config content the same, the same notes) publishes
	// nothing and keeps the generation; so does one with Err.
	Published bool
	// Trigger names what asked for the reload: "start", "watch", "signal",
	// "api" or whatever an embedder passes.
	Trigger string
	// Start is when the reload began; Duration how long it took.
	Start    time.Time
	Duration time.Duration
	// Files has one entry per script file seen or removed, sorted by path.
	Files []FileOutcome
	// Config is what became of the operator config.
	Config ConfigOutcome
	// Notes say what the scan left out on purpose: a subdirectory that is
	// not a hook pack, one nested too deep.
	Notes []string
	// Err is set when the reload could not run at all (unreadable
	// directory, cancelled context): the previous hooks keep serving. For
	// a directory that cannot be read it is a *DirError, and Published
	// says whether a snapshot showing it among its problems was published.
	Err error
}

// OK reports whether the reload ran and everything on disk is what
// serves: no file, pack manifest or config whose current content failed
// to load, whether it failed in this reload or in an earlier one and has
// not changed since. A reload that leaves a broken file as it was is not
// OK while the file stays broken.
func (r ReloadReport) OK() bool {
	if r.Err != nil || r.Config.Err != nil {
		return false
	}
	for _, f := range r.Files {
		if f.Err != nil {
			return false
		}
	}
	return true
}

// FailedNow reports whether something failed in this reload: it could
// not run, or content it read for the first time (a file, a pack
// manifest, the config) did not load. A file still broken from an
// earlier reload is not counted again.
func (r ReloadReport) FailedNow() bool {
	if r.Err != nil || (r.Config.Err != nil && !r.Config.Unchanged) {
		return true
	}
	for _, f := range r.Files {
		if f.Outcome == FileFailed {
			return true
		}
	}
	return false
}

// A FileOutcome is what a reload did with one file.
type FileOutcome struct {
	Path string
	// Pack is the hook pack of the file; empty for a top-level file.
	Pack    string
	Outcome FileAction
	// Err is the file's error when Outcome is FileFailed.
	Err error
	// Version is the sha256 prefix of the version serving after the
	// reload; empty when none does.
	Version string
}

// A FileAction is what a reload did with a file.
type FileAction string

// What a reload does with a file.
const (
	FileUnchanged FileAction = "unchanged"
	FileAdded     FileAction = "added"
	FileReloaded  FileAction = "reloaded"
	// FileFailed: the file's new content did not load; its last good
	// version, if any, keeps serving.
	FileFailed  FileAction = "failed"
	FileRemoved FileAction = "removed"
)

// A ConfigOutcome is what a reload did with the operator config.
type ConfigOutcome struct {
	// Path is the config file; empty when the host has none or was given
	// a Config value.
	Path string
	// Changed reports that a new config was applied.
	Changed bool
	// Err is the error of the config content on disk when it did not
	// load; the last good config stays live. It stays set on later
	// reloads until the file changes, with Unchanged set.
	Err error
	// Unchanged reports that the config file's content is the one the
	// previous reload read, so Err (if any) was reported already.
	Unchanged bool
}

// A QuarantineReport says that a hook was quarantined or released.
type QuarantineReport struct {
	Hook        string
	Quarantined bool
	Time        time.Time
}

// Observers fans out to several observers, in order, skipping nils; nil
// when none is left. A panic in one does not keep the others from being
// told: it is raised again, to the host, once all have been called.
func Observers(obs ...Observer) Observer {
	var out fanOut
	for _, o := range obs {
		if o != nil {
			out = append(out, o)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
}

type fanOut []Observer

// FireDone tells each observer.
func (f fanOut) FireDone(r FireReport) { f.each(func(o Observer) { o.FireDone(r) }) }

// ReloadDone tells each observer.
func (f fanOut) ReloadDone(r ReloadReport) { f.each(func(o Observer) { o.ReloadDone(r) }) }

// QuarantineChanged tells each observer.
func (f fanOut) QuarantineChanged(r QuarantineReport) {
	f.each(func(o Observer) { o.QuarantineChanged(r) })
}

// each calls call on every observer, recovering a panic until all have
// been called and then raising the first again.
func (f fanOut) each(call func(Observer)) {
	var first any
	for _, o := range f {
		func() {
			defer func() {
				if p := recover(); p != nil && first == nil {
					first = p
				}
			}()
			call(o)
		}()
	}
	if first != nil {
		panic(first)
	}
}

// fireDone tells the observer of a fire.
func (h *Host) fireDone(r FireReport) {
	defer h.recoverObserver("FireDone")
	h.obs.FireDone(r)
}

// quarantineChanged tells the observer that a hook was quarantined or
// released. Callers hold no lock.
func (h *Host) quarantineChanged(id string, quarantined bool) {
	if h.obs == nil {
		return
	}
	defer h.recoverObserver("QuarantineChanged")
	h.obs.QuarantineChanged(QuarantineReport{Hook: id, Quarantined: quarantined, Time: time.Now()})
}

// recoverObserver keeps a panicking observer from failing the host.
func (h *Host) recoverObserver(method string) {
	if p := recover(); p != nil {
		h.logger.Error("observer panicked; ignored", "method", method, "panic", fmt.Sprint(p))
	}
}
