package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// Exit codes, documented in docs/cli.md.
const (
	// exitOK: the command did what it was asked (fire ran, list listed,
	// check found nothing).
	exitOK = 0
	// exitFailed: check found problems, or the command failed for a
	// reason that is not the caller's (an interrupted fire, a write error,
	// a panic of hookhost itself).
	exitFailed = 1
	// exitUsage: the invocation was wrong — a bad flag or argument count,
	// an unknown event, a bad payload, a bad config, an unreadable
	// directory.
	exitUsage = 2
)

// An exitError is an error with the process exit code it stands for.
// When bare is set its text is printed as it is, one problem a line
// (config errors, already in file:line: message form); otherwise it is
// printed after "hookhost: ".
type exitError struct {
	code int
	err  error
	bare bool
}

var _ cli.ExitCoder = (*exitError)(nil)

// Error is the underlying error's text; the code only chooses the exit status.
func (e *exitError) Error() string { return e.err.Error() }

// ExitCode implements cli.ExitCoder.
func (e *exitError) ExitCode() int { return e.code }

// Unwrap gives the underlying error, so errors.Is sees through the exit code.
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a usage error (exit 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// usageError wraps err as a usage error (exit 2).
func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

// bareUsageError is a usage error whose lines are printed as they are.
func bareUsageError(err error) error { return &exitError{code: exitUsage, err: err, bare: true} }

// failedErrorf is a failure that is not a usage error (exit 1).
func failedErrorf(format string, args ...any) error {
	return &exitError{code: exitFailed, err: fmt.Errorf(format, args...)}
}

// internalError is a panic of hookhost itself, caught: a failure (exit
// 1), printed with the stack so that it can be reported.
func internalError(r any, stack []byte) error {
	return failedErrorf("internal error: %v (please report this)\n%s", r, stack)
}

// exitCode is the process exit code for the error a command returned.
// urfave/cli's own exit errors (such as "No help topic for …", status 3)
// are usage errors.
func exitCode(err error) int {
	var ee *exitError
	var ec cli.ExitCoder
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ec):
		return exitUsage
	}
	return exitFailed
}

// printError writes err to w: bare errors line by line, others after
// "hookhost: ". An exit error with an empty message prints nothing (its
// command already reported).
func printError(w io.Writer, err error) {
	msg := err.Error()
	if msg == "" {
		return
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.bare {
		fmt.Fprintln(w, strings.TrimRight(msg, "\n"))
		return
	}
	fmt.Fprintln(w, "hookhost: "+msg)
}

// flatten splits joined errors (errors.Join) into their parts, so that
// each problem is printed on its own line.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}
