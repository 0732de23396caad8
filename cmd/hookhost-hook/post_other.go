//go:build !linux

package main

import (
	"os"
	"syscall"
)

// fastPath: hookhost-hook answers from the server on Linux only, where
// SO_PEERCRED tells who serves the socket: elsewhere every call goes to
// the full hookhost, which checks the socket's owner its own way.
const fastPath = false

// post is never called without fastPath.
func post(sock, path string, body []byte, timeout int64) ([]byte, bool) {
	return nil, false
}

// commandLine is the process's arguments after its name.
func commandLine() ([]string, error) { return os.Args[1:], nil }

// executable is the path of this executable.
func executable() (string, error) { return os.Executable() }

// waitFD is never called without fastPath (stdin is not read).
func waitFD(fd int, write bool) error { return syscall.EAGAIN }

func dupOnto(fd, to int) error { return syscall.Dup2(fd, to) }
