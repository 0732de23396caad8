package peerauth

import (
	"errors"
	"strconv"
	"sync"
	"time"
)

// DefaultMaxNonces bounds the nonces a server remembers: 65,536, a few
// megabytes, and far more requests than a machine's agents make within
// the replay window (at most 2 × MaxSkew).
const DefaultMaxNonces = 1 << 16

// ErrBusy: the server remembers as many nonces as it may, none of them
// past its window; the request is refused (answered 503) rather than
// remembered nowhere.
var ErrBusy = errors.New("too many requests within the replay window")

// Nonces remembers the nonces of accepted requests until their time is
// more than MaxSkew in the past, when VerifyRequest would refuse them
// anyway. Only requests whose MAC matched reach it, so only holders of
// the token can fill it.
type Nonces struct {
	mu   sync.Mutex
	seen map[string]int64 // nonce → Unix seconds after which it may be forgotten
	max  int
}

// NewNonces remembers at most max nonces; 0 means DefaultMaxNonces.
func NewNonces(max int) *Nonces {
	if max <= 0 {
		max = DefaultMaxNonces
	}
	return &Nonces{seen: map[string]int64{}, max: max}
}

// Use records req's nonce at now, or fails with ErrReplay when it was
// recorded before, or ErrBusy when there is no room.
func (n *Nonces) Use(req Request, now time.Time) error {
	sec, err := strconv.ParseInt(req.Time, 10, 64)
	if err != nil {
		return ErrMalformed
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.seen[req.Nonce]; ok {
		return ErrReplay
	}
	if len(n.seen) >= n.max {
		n.forgetLocked(now.Unix())
		if len(n.seen) >= n.max {
			return ErrBusy
		}
	}
	n.seen[req.Nonce] = sec + int64(MaxSkew/time.Second)
	return nil
}

// forgetLocked drops the nonces whose requests are past the window.
func (n *Nonces) forgetLocked(now int64) {
	for k, until := range n.seen {
		if until < now {
			delete(n.seen, k)
		}
	}
}
