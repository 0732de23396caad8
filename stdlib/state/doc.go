// Package state is the script module "state": a key-value store shared by
// all hooks of one host, with expiring keys, counters and rate limits, the
// same in Lua and Starlark.
//
// Hooks must not keep state in their own globals (a file may run in
// several pooled interpreters, and is reloaded when it changes); they keep
// it here instead.
//
// # Functions
//
//	get(key)                  the value under key, or nil when it is
//	                          absent or expired
//	set(key, value, ttl?)     stores a copy of value, replacing what the
//	                          key held; ttl ("30s", or milliseconds)
//	                          makes it expire, no ttl means never; a nil
//	                          (or absent) value deletes the key
//	delete(key)               removes key; true if it held anything
//	incr(key, by?, ttl?)      adds by (an integer, default 1, may be
//	                          negative) to the integer under key and
//	                          returns the sum; an absent key counts from 0
//	                          and gets ttl, an existing one keeps its
//	                          expiry; an error if the key holds anything
//	                          but an integer, or the sum overflows
//	rate(key, limit, window)  counts one event if fewer than limit were
//	                          counted in the last window ("1m", or
//	                          milliseconds) and returns a map
//	                          {allowed, remaining, reset_ms}
//
// Keys are non-empty strings, by default of at most 256 bytes. Values are
// neutral values (booleans, integers, floats, strings, and lists and maps
// of them, nil included); what get returns is a copy, so changing it
// changes nothing stored. Rate windows share the key space with values:
// get and incr on a rate key, and rate on a value key, are errors, while
// set and delete replace or remove either kind. A prefix ("rate:search")
// keeps them apart.
//
// A guardrail allowing no more than 5 web searches a minute:
//
//	-- Lua
//	local state = require("state")
//	local r = state.rate("web_search", 5, "1m")
//	if not r.allowed then
//	  return hook.deny("no more than 5 web searches a minute; retry in " .. r.reset_ms .. " ms")
//	end
//
//	# Starlark
//	load("state", "state")
//	r = state.rate("web_search", 5, "1m")
//	if not r["allowed"]:
//	    return hook.deny("no more than 5 web searches a minute; retry in %d ms" % r["reset_ms"])
//
// and one counting a session's failed commands, forgotten after an hour:
// state.incr("failures:" .. session_id, 1, "1h").
//
// # rate
//
// rate is a sliding log, exact rather than approximate: each key keeps the
// timestamps of the events it counted, oldest first, at most limit of them
// (a ring that grows by doubling, so a key with a high limit but few
// events stays small). A call drops the timestamps older than window and
// counts the event if fewer than limit remain. remaining is how many more
// events are allowed now; reset_ms is how long until the oldest counted
// event leaves the window (rounded up to a whole millisecond), so a denied
// caller that waits reset_ms is allowed, unless another caller takes the
// slot first. Denied events are not counted. limit must be between 1 and
// Limits.MaxRateLimit (10000 by default); a key expires one window after
// its newest event.
//
// # Limits and expiry
//
// A [Store] is bounded by [Limits]: number of keys, key length, the size
// of one value (measured roughly as the length of its JSON text) and of
// everything together, and the largest rate limit. Zero fields mean the
// defaults: 10000 keys, 256-byte keys, 64 KiB values, 32 MiB in all, rate
// limits up to 10000. Past a bound a call fails with a clear error
// (wrapping [ErrTooLarge] or [ErrFull]) and changes nothing.
//
// No goroutine sweeps expired keys. A read drops the key it finds
// expired; writes count towards a full sweep that runs once they reach a
// quarter of the keys held (at least 64), so each write pays for a few key
// visits on average; and a write that would pass a bound sweeps first, so
// expired keys never make the store look full. [Store.Sweep] sweeps on
// demand. Nothing needs closing.
//
// # Clock and persistence
//
// The store reads time only from the clock given to [NewStore], so tests
// can fix it; with the system clock it measures intervals on the
// monotonic clock. A [Store] lives in memory only: it is shared by all
// hooks of one host, survives script reloads, and is lost when the
// process exits.
//
// # Backends
//
// The module works over a [Backend]: [Memory] adapts a Store, and
// package redisstate keeps the keys in Redis, shared by every process
// that names it and kept across restarts, with the same functions,
// semantics and errors ([NewOver] builds the module over either). The
// module checks keys, values, limits and windows with the backend's
// [Limits] before calling it, and passes the hook's context, so that a
// backend on a network never outlives the hook's deadline.
//
// # Concurrency
//
// A Store is safe for concurrent use. Each call holds its one mutex
// briefly — at most one sweep of the keys; values are measured, checked
// and copied outside it — so no call blocks for long, and none waits on
// anything but that mutex. The module holds nothing but its store.
package state
