package host

import (
	"sort"
	"sync"
	"time"
)

// A hook that fails on every call (a loop that costs its timeout each
// time, an error on every payload) must not be visible only as a metric:
// the host counts each hook's timeouts and errors over the last ten
// minutes, keeps the last one's text and time, shows them in HookInfo
// and Status, and logs a warning for a hook that keeps failing, at most
// once a minute per hook. The counts live in the host (not in a snapshot)
// so a reload that leaves a file alone keeps them; a new version of the
// file starts them again, as it does the hook's strikes.
const (
	// FailureWindow is how far back a hook's recent failures count.
	FailureWindow = 10 * time.Minute
	// failureBucket is the window's resolution: counts are kept per
	// minute, so memory stays constant however often a hook fails.
	failureBucket = time.Minute
	// failingWarnAfter is how many failures in the window make a hook one
	// that keeps failing, and failingWarnEvery how often it is warned of.
	failingWarnAfter = 3
	failingWarnEvery = time.Minute
)

// RecentFailures are a hook's timeouts and errors within the last
// FailureWindow, and its last failure.
type RecentFailures struct {
	Timeouts int `json:"timeouts"`
	Errors   int `json:"errors"`
	// LastError is the last failure's text (an error, or "timed out
	// after 1s") and LastAt when it happened; empty and zero when the
	// hook has not failed within the window.
	LastError string    `json:"last_error,omitempty"`
	LastAt    time.Time `json:"last_at,omitzero"`
}

// Total is the number of failures in the window.
func (r RecentFailures) Total() int { return r.Timeouts + r.Errors }

// A HookFailures is a hook's recent failures, for Status.
type HookFailures struct {
	Hook string `json:"hook"`
	RecentFailures
}

// failureLog keeps every hook's recent failures by hook id.
type failureLog struct {
	mu   sync.Mutex
	byID map[string]*failureRecord
}

type failureRecord struct {
	version string // the file version the counts belong to
	// buckets count failures per minute, by minute number modulo the
	// ring's length; a bucket of an older minute is reset before use.
	buckets   [int(FailureWindow / failureBucket)]failureCount
	lastError string
	lastAt    time.Time
	warnedAt  time.Time
}

type failureCount struct {
	minute           int64
	timeouts, errors int
}

func newFailureLog() *failureLog { return &failureLog{byID: map[string]*failureRecord{}} }

// record counts one failure of hook id (in its file's version) at now,
// and reports the counts and whether it is time to warn that the hook
// keeps failing.
func (l *failureLog) record(id, version string, timeout bool, text string, now time.Time) (RecentFailures, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.byID[id]
	if r == nil || r.version != version {
		r = &failureRecord{version: version}
		l.byID[id] = r
	}
	minute := now.UnixNano() / int64(failureBucket)
	b := &r.buckets[minute%int64(len(r.buckets))]
	if b.minute != minute {
		*b = failureCount{minute: minute}
	}
	if timeout {
		b.timeouts++
	} else {
		b.errors++
	}
	r.lastError, r.lastAt = text, now
	rf := r.recent(now)
	warn := rf.Total() >= failingWarnAfter && (r.warnedAt.IsZero() || now.Sub(r.warnedAt) >= failingWarnEvery)
	if warn {
		r.warnedAt = now
	}
	return rf, warn
}

// recent sums the buckets within the window at now.
func (r *failureRecord) recent(now time.Time) RecentFailures {
	minute := now.UnixNano() / int64(failureBucket)
	var out RecentFailures
	for _, b := range r.buckets {
		if b.minute > minute-int64(len(r.buckets)) && b.minute <= minute {
			out.Timeouts += b.timeouts
			out.Errors += b.errors
		}
	}
	if out.Total() > 0 && now.Sub(r.lastAt) < FailureWindow {
		out.LastError, out.LastAt = r.lastError, r.lastAt
	}
	return out
}

// of returns hook id's recent failures at now, in its file's version.
func (l *failureLog) of(id, version string, now time.Time) RecentFailures {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.byID[id]
	if r == nil || r.version != version {
		return RecentFailures{}
	}
	return r.recent(now)
}

// failing lists the hooks of versions (hook id to file version) with
// failures in the window at now, sorted by id.
func (l *failureLog) failing(versions map[string]string, now time.Time) []HookFailures {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []HookFailures
	for id, r := range l.byID {
		if v, ok := versions[id]; !ok || v != r.version {
			continue
		}
		if rf := r.recent(now); rf.Total() > 0 {
			out = append(out, HookFailures{Hook: id, RecentFailures: rf})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Hook < out[j].Hook })
	return out
}

// noteFailure counts a hook's failed call (entry is its trace entry) and
// warns, at most once a minute, of a hook that keeps failing.
func (h *Host) noteFailure(b *boundHook, entry TraceEntry) {
	now := h.now()
	rf, warn := h.recent.record(b.id, b.version, entry.Outcome == OutcomeTimeout, entry.Error, now)
	if warn {
		h.logger.Warn("hook keeps failing", "hook", b.id, "file", b.file, "line", b.line,
			"timeouts", rf.Timeouts, "errors", rf.Errors, "window", FailureWindow.String(), "last_error", rf.LastError)
	}
}
