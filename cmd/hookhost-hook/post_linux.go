package main

import (
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// post sends body to path on the server at the Unix socket sock and
// returns the answer's body: only a 200 that is not the server's
// refusal, from a server this user or root runs (SO_PEERCRED, asked
// before a byte is sent), within timeout. ok is false otherwise.
func post(sock, path string, body []byte, timeout time.Duration) ([]byte, bool) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	// The socket's own timeouts bound connecting (a full backlog: as
	// hookhost's client, a server that does not accept within
	// connectTimeout is down), then each write and read, within the
	// deadline of the whole request.
	deadline := time.Now().Add(timeout)
	if !setTimeout(fd, syscall.SO_SNDTIMEO, min(connectTimeout, timeout)) {
		return nil, false
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		return nil, false
	}
	if !setTimeout(fd, syscall.SO_SNDTIMEO, time.Until(deadline)) {
		return nil, false
	}
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || !autosock.Trusted(cred.Uid, os.Getuid()) {
		return nil, false
	}
	head := "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n"
	if !writeAll(fd, append([]byte(head), body...)) {
		return nil, false
	}
	resp, ok := readAll(fd, deadline)
	if !ok {
		return nil, false
	}
	return parseAnswer(resp)
}

func writeAll(fd int, b []byte) bool {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// readAll reads until the server closes the connection (the request
// said Connection: close), at most maxAnswer bytes beyond the head.
func readAll(fd int, deadline time.Time) ([]byte, bool) {
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			if len(buf) > maxAnswer+64<<10 {
				return nil, false
			}
			buf = append(buf, make([]byte, len(buf))...)[:len(buf)]
		}
		if !setTimeout(fd, syscall.SO_RCVTIMEO, time.Until(deadline)) {
			return nil, false
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
		case err != nil:
			return nil, false // EAGAIN: the socket's timeout passed
		case n == 0:
			return buf, true
		default:
			buf = buf[:len(buf)+n]
		}
	}
}

// setTimeout sets the socket's send or receive timeout to d; a d that
// has run out (which the kernel would read as "none") fails.
func setTimeout(fd, opt int, d time.Duration) bool {
	if d <= 0 {
		return false
	}
	tv := syscall.NsecToTimeval(max(d, time.Microsecond).Nanoseconds())
	return syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &tv) == nil
}

func dupOnto(fd, to int) error { return syscall.Dup3(fd, to, 0) }
