//go:build !unix

package benchcpu

import (
	"testing"
	"time"
)

// Used is 0 where getrusage is not available: CPU time is not reported.
func Used(testing.TB) time.Duration { return 0 }

// PerOp reports nothing where getrusage is not available.
func PerOp(*testing.B) func() { return func() {} }
