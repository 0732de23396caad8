package scripting

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// An Error is a problem in a script: a syntax error, a failed top level,
// a bad registration, or a failed hook call. It names where the problem
// is and what was expected.
type Error struct {
	// File is the script's name relative to the watched directory.
	File string
	// Line is the 1-based line, or 0 when unknown.
	Line int
	// Hook is the hook's id when the error is about one hook.
	Hook string
	// Msg says what went wrong and, where it can, what was expected.
	Msg string
	// Backtrace is the script's stack at the failure, innermost first,
	// one frame per line; empty when unknown.
	Backtrace string
	// Err is the underlying cause, if any (ErrInterrupted, a module's
	// error, …).
	Err error
}

// Error formats the error as "file:line: hook "id": message", dropping
// the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.File != "" || e.Line > 0 {
		b.WriteString(": ")
	}
	if e.Hook != "" {
		fmt.Fprintf(&b, "hook %q: ", e.Hook)
	}
	b.WriteString(Clip(e.Msg, MaxErrorText))
	return b.String()
}

// MaxErrorText is the longest message or backtrace an error carries into
// a trace, a log line or an answer: an interpreter's message may quote
// what the script gave it (int() of a 4 MB string), and a backtrace may
// list a hundred thousand frames.
const MaxErrorText = 4 << 10

// Clip keeps the first n bytes of s, cut at a character boundary, and
// says how much it left out.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error for file and line.
func Errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}
