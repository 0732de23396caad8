package adapter

import (
	"fmt"
	"net"
	"strconv"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// A peerCred is who serves a Unix socket: the user (and, where the
// system says, the process) that listens on it.
type peerCred struct {
	UID uint32
	// PID is the listening process, or 0 where the system does not say.
	PID int32
}

// checkPeer makes sure the Unix socket at path, connected as conn, is
// served by this user (uid self) or by root, before anything is sent on
// it: another user's process could be listening in the server's place,
// to collect the token and forge answers. Anyone else is an *AuthError
// (ErrImpostor) naming who listens.
func checkPeer(conn net.Conn, path string, self int) error {
	p, err := unixPeer(conn, path)
	if err != nil {
		return &AuthError{Server: path, Err: fmt.Errorf("%w: cannot tell who listens on the socket: %w", ErrImpostor, err)}
	}
	return judgePeer(path, p, self)
}

// judgePeer is checkPeer's rule: the same user or root.
func judgePeer(path string, p peerCred, self int) error {
	if autosock.Trusted(p.UID, self) {
		return nil
	}
	return &AuthError{Server: path, Err: fmt.Errorf("%w: the socket is served by %s, not by this user (%s) or root; nothing was sent to it",
		ErrImpostor, p, userName(uint32(self)))}
}

// String names the peer for an error: its uid, and its pid when known.
func (p peerCred) String() string {
	if p.PID > 0 {
		return userName(p.UID) + ", pid " + strconv.Itoa(int(p.PID))
	}
	return userName(p.UID)
}

// userName is "uid 1000". (Names would need os/user, which links cgo
// and would cost every command hook the dynamic loader.)
func userName(uid uint32) string {
	return "uid " + strconv.FormatUint(uint64(uid), 10)
}
