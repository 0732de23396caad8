// Package redisstate is a [state.Backend] on Redis: every process whose
// state module uses the same Redis (serve replicas, one-shot commands,
// the worker processes of isolated files) sees the same keys, and the
// keys survive a restart of any of them.
//
// Scripts see the same functions, semantics and errors as with the
// memory backend. What must be atomic runs on the server: set with a
// ttl is one SET … PX, incr and rate are Lua scripts that Redis runs
// whole (EVALSHA, falling back to EVAL), never a read-modify-write from
// Go, so a limit of 5 a minute allows exactly 5 however many processes
// ask at once. rate reads the time from the Redis server (TIME), so the
// processes' clocks need not agree.
//
// # Layout
//
// Every key is Options.Prefix followed by the script's key. A value is
// a Redis string holding its JSON text, in which an integer is written
// without a point and a float always with one (2.0, 1e+21), so that
// kinds survive the round trip; an integer at the top is therefore
// plain decimal, which INCRBY works on. A rate window is a sorted set of
// the microsecond timestamps it counts.
//
// # Failures
//
// Each operation is bounded by Options.Timeout and by the hook's
// context, whichever ends first; nothing is retried (a rate script
// retried after a lost reply could count twice). An operation that gets
// no answer fails with an error naming Redis, its address and the
// cause; the hook then fails as it would for any error. The client
// reconnects by itself: after a refused connection it probes the server
// about once a second, so calls work again within about a second of the
// server coming back.
//
// Limits.MaxKeys and Limits.MaxBytes do not apply: the Redis server's own
// maxmemory policy bounds what it holds. Key length, value size and the
// largest rate limit are checked as in memory.
package redisstate
