// Package initlog keeps what hookhost's dependencies log while they are
// initialised off stderr for the command whose stderr is an answer:
// "hookhost gemini", whose stderr at exit 0 Gemini CLI reads as an
// explicit decision. go.starlark.net logs there, through the standard
// logger, from its package initialisation whenever it cannot reserve 4
// GiB of address space (under ulimit -v or a container's limit).
//
// Go initialises, at each step, the first package by import path whose
// imports are all initialised. This package imports only packages that
// go.starlark.net/starlark imports too, and its path sorts before
// go.starlark.net's, so it is initialised first when the program imports
// it (package main does).
package initlog

import (
	"bytes"
	"io"
	"log"
	"os"
	"sync"
)

// holdCommand is the command whose initialisation logs are held: the
// command of the dialect whose QuietStderr is true (this package cannot
// import the dialect, which imports go.starlark.net).
const holdCommand = "gemini"

// maxHeld bounds what is held: the logs of initialisation are a line or
// two.
const maxHeld = 64 << 10

// held is the standard logger's output from initialisation until
// Release. It is the package's state because package initialisation has
// no caller to hand it to.
var held *holder

func init() {
	if command(os.Args) == holdCommand {
		held = &holder{}
		log.SetOutput(held)
	}
}

// command is the command of a hookhost command line: its first argument
// that is not a flag (the program's own flags take no value).
func command(args []string) string {
	for _, a := range args[min(1, len(args)):] {
		if a == "" || a[0] != '-' {
			return a
		}
	}
	return ""
}

// Release writes to w what was held, and sends the standard logger's
// output to w from then on (stderr stays quiet). It does nothing when
// nothing was held (another command).
func Release(w io.Writer) {
	if held == nil {
		return
	}
	held.release(w)
}

// A holder keeps what is written to it, up to maxHeld, until released,
// and then passes it on.
type holder struct {
	mu  sync.Mutex
	buf bytes.Buffer
	to  io.Writer
}

// Write passes p on once released; before that it keeps what fits under
// maxHeld and drops the rest, never failing the logger.
func (h *holder) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.to != nil {
		return h.to.Write(p)
	}
	if room := maxHeld - h.buf.Len(); room > 0 {
		h.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (h *holder) release(w io.Writer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.to == nil {
		w.Write(h.buf.Bytes())
		h.buf = bytes.Buffer{}
	}
	h.to = w
}
