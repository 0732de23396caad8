package host

import "time"

// Hooks are timed on the monotonic clock, as durations since epoch: one
// clock read gives a duration (time.Since reads only the monotonic
// clock, where time.Now reads the wall clock too), and durations compare
// without conversions. epoch is set once, when the package loads, and
// never changes.
var epoch = time.Now()

// monoNow is the time since epoch.
func monoNow() time.Duration { return time.Since(epoch) }

// monoTime turns a duration since epoch back into a time.Time (with its
// monotonic reading), for the context.Context deadline of a call.
func monoTime(d time.Duration) time.Time { return epoch.Add(d) }
