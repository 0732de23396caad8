package host

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// Quarantine: a hook whose calls had to be abandoned leaves a
// goroutine behind that Go cannot kill. Three such strikes within ten
// minutes quarantine the hook for a cool-down: 1 minute the first time,
// doubling with each repeat offence of the same file version, at most 10
// minutes. A quarantined hook is not called, and counts as a failing
// hook: its error behaviour applies (a guard that fails closed denies
// every fire until the quarantine ends). It ends when the cool-down is
// over, when the hook's file changes, or when the operator releases it.
const (
	strikeLimit  = 3
	strikeWindow = 10 * time.Minute
	// firstCoolDown and maxCoolDown bound a quarantine's length.
	firstCoolDown = time.Minute
	maxCoolDown   = 10 * time.Minute
)

// quarantine keeps strike records by hook id. Records outlive snapshots,
// so a reload that does not change a file keeps its hooks' strikes.
type quarantine struct {
	mu   sync.Mutex
	byID map[string]*strikeRecord
}

type strikeRecord struct {
	id          string
	quarantined atomic.Bool
	// until is when the quarantine ends, in Unix nanoseconds: a fire reads
	// it only when quarantined is set.
	until atomic.Int64
	// heapEvent is the heapHit of the last heap event the hook was struck
	// for (heapblame.go).
	heapEvent atomic.Uint64

	mu      sync.Mutex
	times   []time.Time
	version string // the file version the strikes were earned by
	// since and why describe the quarantine in force; offences counts the
	// quarantines of this version, which lengthen the next one.
	since    time.Time
	why      string
	offences int
}

// coolDown is how long a hook's offence-th quarantine lasts.
func coolDown(offence int) time.Duration {
	d := firstCoolDown
	for i := 1; i < offence && d < maxCoolDown; i++ {
		d *= 2
	}
	return min(d, maxCoolDown)
}

// blocks reports whether the hook is quarantined at now: set, and its
// cool-down not over.
func (r *strikeRecord) blocks(now time.Time) bool {
	return r.quarantined.Load() && now.UnixNano() < r.until.Load()
}

// expire lifts a quarantine whose cool-down is over at now, and reports
// whether it did.
func (r *strikeRecord) expire(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.quarantined.Load() || now.UnixNano() < r.until.Load() {
		return false
	}
	return r.quarantined.Swap(false)
}

// A QuarantineInfo describes a quarantined hook.
type QuarantineInfo struct {
	Hook string `json:"hook"`
	// Since is when the hook was quarantined and Until when the
	// quarantine ends by itself (unless released before).
	Since time.Time `json:"since"`
	Until time.Time `json:"until"`
	// Reason is the last strike's cause.
	Reason string `json:"reason"`
	// Offences counts the quarantines of the hook's file version, this
	// one included: each doubles the cool-down, up to 10 minutes.
	Offences int `json:"offences"`
}

// info describes the quarantine in force at now; ok is false when there
// is none.
func (r *strikeRecord) info(now time.Time) (qi QuarantineInfo, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.blocks(now) {
		return QuarantineInfo{}, false
	}
	return QuarantineInfo{Hook: r.id, Since: r.since, Until: time.Unix(0, r.until.Load()), Reason: r.why, Offences: r.offences}, true
}

func newQuarantine() *quarantine { return &quarantine{byID: map[string]*strikeRecord{}} }

// record returns the record of a hook in a given version of its file; a
// new version starts with a clean record. lifted reports that this ended
// a quarantine.
func (q *quarantine) record(id, version string) (r *strikeRecord, lifted bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r = q.byID[id]
	if r == nil {
		r = &strikeRecord{id: id}
		q.byID[id] = r
	}
	r.mu.Lock()
	if r.version != version {
		r.version, r.times, r.offences = version, nil, 0
		lifted = r.quarantined.Swap(false)
	}
	r.mu.Unlock()
	return r, lifted
}

// strike records one strike (why says for what) and reports whether it
// quarantined the hook. The strikes that quarantine a hook are spent: it
// takes three new ones to quarantine it again once the cool-down ends.
func (r *strikeRecord) strike(now time.Time, why string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	keep := r.times[:0]
	for _, t := range r.times {
		if now.Sub(t) < strikeWindow {
			keep = append(keep, t)
		}
	}
	r.times = append(keep, now)
	if len(r.times) < strikeLimit || r.quarantined.Load() && now.UnixNano() < r.until.Load() {
		return false
	}
	r.offences++
	r.times, r.since, r.why = nil, now, why
	r.until.Store(now.Add(coolDown(r.offences)).UnixNano())
	r.quarantined.Store(true)
	return true
}

// release lifts a quarantine in force at now and clears the strikes; the
// count of offences stays, so a hook released early that offends again
// sits out a longer cool-down.
func (q *quarantine) release(id string, now time.Time) bool {
	q.mu.Lock()
	r := q.byID[id]
	q.mu.Unlock()
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.times = nil
	in := r.blocks(now)
	r.quarantined.Store(false)
	return in
}

// records returns every record, sorted by hook id.
func (q *quarantine) records() []*strikeRecord {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]*strikeRecord, 0, len(q.byID))
	for _, r := range q.byID {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// list describes the quarantines in force at now, sorted by hook id.
func (q *quarantine) list(now time.Time) []QuarantineInfo {
	var out []QuarantineInfo
	for _, r := range q.records() {
		if qi, ok := r.info(now); ok {
			out = append(out, qi)
		}
	}
	return out
}

// ids are the hooks of quarantines in force at now, sorted.
func (q *quarantine) ids(now time.Time) []string {
	var out []string
	for _, qi := range q.list(now) {
		out = append(out, qi.Hook)
	}
	return out
}

// peek returns a hook's record without creating one.
func (q *quarantine) peek(id string) *strikeRecord {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.byID[id]
}

// ReleaseAll lifts every quarantine in force (the operator's "release
// everything", as serve's SIGHUP does) and returns the ids released,
// sorted.
func (h *Host) ReleaseAll() []string {
	var out []string
	for _, id := range h.strikes.ids(h.now()) {
		if h.Release(id) {
			out = append(out, id)
		}
	}
	return out
}

// Quarantines describes the quarantines in force, sorted by hook id:
// since when, until when, and why.
func (h *Host) Quarantines() []QuarantineInfo {
	h.expireQuarantines()
	return h.strikes.list(h.now())
}

// expireQuarantines lifts the quarantines whose cool-down is over and
// tells the observer; a fire does the same for the hooks it meets.
func (h *Host) expireQuarantines() {
	now := h.now()
	for _, r := range h.strikes.records() {
		if r.expire(now) {
			h.quarantineExpired(r)
		}
	}
}

func (h *Host) quarantineExpired(r *strikeRecord) {
	h.logger.Info("hook quarantine ended: its cool-down is over", "hook", r.id)
	h.quarantineChanged(r.id, false)
}

// quarantineError is the failure of a quarantined hook, for its trace
// entry and its fire's deny.
func quarantineError(b *boundHook, qi QuarantineInfo) error {
	return &scripting.Error{File: b.file, Line: b.line, Hook: b.id, Err: ErrQuarantined,
		Msg: fmt.Sprintf("quarantined since %s until %s (%s)", qi.Since.UTC().Format(time.RFC3339),
			qi.Until.UTC().Format(time.RFC3339), qi.Reason)}
}

// ErrQuarantined is the cause of a quarantined hook's failure.
var ErrQuarantined = errors.New("hook quarantined")
