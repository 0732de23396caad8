package host

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Quarantine: a hook whose calls had to be abandoned leaves a
// goroutine behind that Go cannot kill. Three such strikes within ten
// minutes disable the hook until its file changes or the operator
// releases it.
const (
	strikeLimit  = 3
	strikeWindow = 10 * time.Minute
	// abandonGrace is how long after its interrupt a call may take to
	// return before it counts as a strike: an interrupted interpreter
	// stops between instructions almost at once, so a call that returns
	// much later was stuck inside one Go call.
	abandonGrace = 250 * time.Millisecond
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
	// heapEvent is the heapHit of the last heap event the hook was struck
	// for (heapblame.go).
	heapEvent atomic.Uint64

	mu      sync.Mutex
	times   []time.Time
	version string // the file version the strikes were earned by
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
		r.version, r.times = version, nil
		lifted = r.quarantined.Swap(false)
	}
	r.mu.Unlock()
	return r, lifted
}

// strike records one abandoned call and reports whether it quarantined
// the hook.
func (r *strikeRecord) strike(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	keep := r.times[:0]
	for _, t := range r.times {
		if now.Sub(t) < strikeWindow {
			keep = append(keep, t)
		}
	}
	r.times = append(keep, now)
	if len(r.times) >= strikeLimit && !r.quarantined.Load() {
		r.quarantined.Store(true)
		return true
	}
	return false
}

// release lifts a quarantine and clears the strikes.
func (q *quarantine) release(id string) bool {
	q.mu.Lock()
	r := q.byID[id]
	q.mu.Unlock()
	if r == nil {
		return false
	}
	r.mu.Lock()
	r.times = nil
	r.mu.Unlock()
	return r.quarantined.Swap(false)
}

// list returns the quarantined hook ids, sorted.
func (q *quarantine) list() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []string
	for id, r := range q.byID {
		if r.quarantined.Load() {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// peek returns a hook's record without creating one.
func (q *quarantine) peek(id string) *strikeRecord {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.byID[id]
}
