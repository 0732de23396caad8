package main

import (
	"strconv"
	"syscall"
	"unsafe"

	"github.com/hookhost/hookhost/cmd/internal/autosock"
)

// fastPath: here hookhost-hook answers from the server itself.
const fastPath = true

// post sends body to path on the server at the Unix socket sock and
// returns the answer's body: only a 200 that is not the server's
// refusal, from a server this user or root runs (SO_PEERCRED, asked
// before a byte is sent), within timeout. ok is false otherwise.
func post(sock, path string, body []byte, timeout int64) ([]byte, bool) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	// The socket's own timeouts bound connecting (a full backlog: as
	// hookhost's client, a server that does not accept within
	// connectTimeout is down), then each write and read, within the
	// deadline of the whole request.
	deadline := monotonic() + timeout
	if !setTimeout(fd, syscall.SO_SNDTIMEO, min(connectTimeout, timeout)) {
		return nil, false
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		return nil, false
	}
	if !setTimeout(fd, syscall.SO_SNDTIMEO, deadline-monotonic()) {
		return nil, false
	}
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || !autosock.Trusted(cred.Uid, syscall.Getuid()) {
		return nil, false
	}
	head := "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n"
	if !send(fd, append([]byte(head), body...)) {
		return nil, false
	}
	resp, ok := readAnswer(fd, deadline)
	if !ok {
		return nil, false
	}
	return parseAnswer(resp)
}

// send writes b to the socket fd; EAGAIN is its send timeout passing.
func send(fd int, b []byte) bool {
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

// readAnswer reads until the server closes the connection (the request
// said Connection: close), at most maxAnswer bytes beyond the head.
func readAnswer(fd int, deadline int64) ([]byte, bool) {
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			if len(buf) > maxAnswer+64<<10 {
				return nil, false
			}
			buf = append(buf, make([]byte, len(buf))...)[:len(buf)]
		}
		if !setTimeout(fd, syscall.SO_RCVTIMEO, deadline-monotonic()) {
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
func setTimeout(fd, opt int, d int64) bool {
	if d <= 0 {
		return false
	}
	tv := syscall.NsecToTimeval(max(d, 1000))
	return syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, opt, &tv) == nil
}

func dupOnto(fd, to int) error { return syscall.Dup3(fd, to, 0) }

// commandLine is the process's arguments after its name, as the kernel
// keeps them (os.Args would link package os).
func commandLine() ([]string, error) {
	fd, err := openFile("/proc/self/cmdline", syscall.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	data, err := readAll(fd, 1<<30)
	if err != nil {
		return nil, err
	}
	args := splitCmdline(data)
	if len(args) == 0 {
		return nil, syscall.EINVAL
	}
	return args[1:], nil
}

// executable is the path of this executable, as os.Executable gives it.
func executable() (string, error) {
	buf := make([]byte, 4096)
	n, err := syscall.Readlink("/proc/self/exe", buf)
	if err != nil {
		return "", err
	}
	return trimSuffix(string(buf[:n]), " (deleted)"), nil
}

// monotonic is the monotonic clock, in nanoseconds.
func monotonic() int64 {
	const clockMonotonic = 1
	var ts syscall.Timespec
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// waitFD waits until fd, which does not block, can be read (or written).
func waitFD(fd int, write bool) error {
	const pollIn, pollOut = 0x1, 0x4
	p := struct {
		fd              int32
		events, revents int16
	}{fd: int32(fd), events: pollIn}
	if write {
		p.events = pollOut
	}
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1, 0, 0, 0, 0)
		if e != syscall.EINTR {
			if e != 0 {
				return e
			}
			return nil
		}
	}
}
