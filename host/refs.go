package host

import (
	"math/rand/v2"
	"sync/atomic"
)

// fireRefs counts the fires running on a snapshot, so that what the
// snapshot holds is closed only after the last of them, once a newer
// snapshot has replaced it.
//
// One counter would make every fire write the same cache line twice,
// a line that then moves between the cores running fires (on the
// 2-core machine it was measured on, the end-to-end difference was
// within the noise). So the count is split into
// padded shards, and a fire adds to one picked at random
// (math/rand/v2's generator is per processor):
// two fires running at once rarely share one. A snapshot is closed when
// it is retired and the shards add up to zero:
//
//   - a fire adds one to its shard, then checks retired; if it is set,
//     it takes its one back and fails (the caller loads the current
//     snapshot again);
//   - retire sets retired, then tries to close;
//   - whoever takes one back while retired tries to close too.
//
// A fire that saw retired unset added to its shard before retired was
// set (Go's atomics are sequentially consistent), so every sum taken
// after retired was set counts it until it leaves; and no shard is ever
// negative, so a sum read shard by shard while others come and go is
// zero only when no fire that got in is left. closed makes the close
// happen once.
type fireRefs struct {
	shards  [refShards]refShard
	retired atomic.Bool
	closed  atomic.Bool
}

// refShards is how many counters a snapshot's fires spread over.
const refShards = 16

// refShard is padded to two cache lines, so that the hardware's
// adjacent-line prefetch does not pair it with a neighbour.
type refShard struct {
	n atomic.Int64
	_ [120]byte
}

// acquire takes a reference for a fire, returning its shard for
// release; ok is false on a retired snapshot, and closeNow is true when
// that failed attempt was the last thing holding it open: the caller
// then closes it.
func (r *fireRefs) acquire() (shard int, ok, closeNow bool) {
	shard = int(rand.Uint32() % refShards)
	r.shards[shard].n.Add(1)
	if !r.retired.Load() {
		return shard, true, false
	}
	r.shards[shard].n.Add(-1)
	return 0, false, r.tryClose()
}

// release drops the reference acquire took; closeNow is true when the
// caller must close the snapshot.
func (r *fireRefs) release(shard int) (closeNow bool) {
	r.shards[shard].n.Add(-1)
	return r.retired.Load() && r.tryClose()
}

// retire stops new references; closeNow is true when no fire holds one,
// and the caller must close the snapshot.
func (r *fireRefs) retire() (closeNow bool) {
	r.retired.Store(true)
	return r.tryClose()
}

// tryClose reports whether the snapshot, retired, is to be closed now:
// no reference is left and nobody closed it before.
func (r *fireRefs) tryClose() bool {
	var sum int64
	for i := range r.shards {
		sum += r.shards[i].n.Load()
	}
	return sum == 0 && r.closed.CompareAndSwap(false, true)
}
