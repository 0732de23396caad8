//go:build !linux

package adapter

import (
	"errors"
	"net"
	"os"
	"syscall"
)

// unixPeer cannot ask the kernel who listens here: SO_PEERCRED is
// Linux's, and the standard library has no counterpart (getpeereid,
// LOCAL_PEERCRED) on other systems. It reads the owner of the socket
// file instead — the user that bound it. That is weaker: between the
// connection and this look, a user who can write the socket's directory
// could put another socket in its place. Keep sockets in a directory
// only their owner can write ($XDG_RUNTIME_DIR, or --server auto's).
func unixPeer(_ net.Conn, path string) (peerCred, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return peerCred{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return peerCred{}, errors.New("the socket file's owner is unknown on this system")
	}
	return peerCred{UID: st.Uid}, nil
}
