package adapter

import (
	"errors"
	"net"
	"syscall"
)

// unixPeer asks the kernel who listens on the other end of conn
// (SO_PEERCRED: the credentials the server had when it called listen),
// which no one can forge and which no file swapped in later changes.
func unixPeer(conn net.Conn, _ string) (peerCred, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return peerCred{}, errors.New("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return peerCred{}, err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return peerCred{}, err
	}
	if credErr != nil {
		return peerCred{}, credErr
	}
	return peerCred{UID: cred.Uid, PID: cred.Pid}, nil
}
