// Package time is the script module "time": the host's clock, durations
// and timestamps, the same in Lua and Starlark.
//
// # Representation
//
// A point in time is an integer: Unix time in milliseconds (UTC). A
// duration is an integer number of milliseconds. Both are plain numbers in
// both languages — they compare with <, add and subtract without helpers,
// survive json.encode and state.set unchanged, and stay exact in Lua, whose
// numbers are floats, until the year 287396. Text appears only at the
// edge, through format.
//
// # Functions
//
//	now()                  the current time, Unix milliseconds
//	parse_duration(d)      d ("1m30s", "250ms", or milliseconds) in
//	                       milliseconds, truncated to a whole millisecond;
//	                       negative durations are an error
//	since(t)               milliseconds from t to now; negative when t is
//	                       in the future
//	format(t, layout?)     t as UTC text; layout is one of "rfc3339" (the
//	                       default, 2006-01-02T15:04:05Z), "rfc3339ms"
//	                       (with milliseconds), "date" (2006-01-02), "time"
//	                       (15:04:05), "datetime" (2006-01-02 15:04:05), or
//	                       a Go layout of at most 128 bytes; an unknown
//	                       lower-case word ("iso") or a layout with no time
//	                       fields is an error, since it is almost always a
//	                       misspelt name
//
// There is no time zone support: format always writes UTC, because
// loading zone data would touch the host's file system.
//
// A guardrail that allows deployments only in working hours (UTC):
//
//	-- Lua
//	local time = require("time")
//	local hour = tonumber(time.format(time.now(), "15"))
//	if hour < 8 or hour >= 18 then return hook.deny("deploys only 08:00–18:00 UTC") end
//
//	# Starlark
//	load("time", "time")
//	hour = int(time.format(time.now(), "15"))
//	if hour < 8 or hour >= 18: return hook.deny("deploys only 08:00–18:00 UTC")
//
// To remember when something happened across calls, store time.now() with
// the state module and compare later with time.since.
//
// # Clock
//
// [New] takes the clock to read, so the host can fix it in tests; nil
// means the system clock. The module holds nothing else and is safe for
// concurrent use.
//
// # Errors
//
// Every function checks its arguments; errors name the argument and are
// prefixed by the binder ("time.format: argument 2 (layout): …").
package time
