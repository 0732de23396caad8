//go:build unix

// Package benchcpu measures the CPU time a benchmark uses, for reporting
// beside wall time. On a shared or virtual machine a benchmark's wall
// time counts the time it waited for a core and varies by tens of
// percent between runs; the process's CPU time (user and system, the
// garbage collector's included, from getrusage) varies far less, so the
// project's benchmarks compare it.
package benchcpu

import (
	"syscall"
	"testing"
	"time"
)

// Used is the CPU time the process has used so far, user and system.
func Used(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PerOp starts counting; the function it returns reports the CPU time
// used since, per op, as cpu-ns/op. Use it as defer benchcpu.PerOp(b)().
func PerOp(b *testing.B) func() {
	start := Used(b)
	return func() { b.ReportMetric(float64(Used(b)-start)/float64(b.N), "cpu-ns/op") }
}
