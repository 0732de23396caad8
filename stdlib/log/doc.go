// Package log is the script module "log": structured logging into the
// host's slog logger, the same in Lua and Starlark.
//
// # Functions
//
//	debug(msg, key=value…)
//	info(msg, key=value…)
//	warn(msg, key=value…)
//	error(msg, key=value…)
//
// Each logs the string msg at its level and returns nil. Starlark passes
// attributes as keyword arguments; Lua as one trailing table:
//
//	-- Lua
//	local log = require("log")
//	log.warn("web search denied", { tool = tool_name, calls = n })
//
//	# Starlark
//	load("log", "log")
//	log.warn("web search denied", tool = tool_name, calls = n)
//
// Every line carries the attribute hook=<the calling hook's id> first,
// then the attributes sorted by key, so the same call always logs the same
// line. Strings, numbers, booleans and nil keep their type (a JSON handler
// prints numbers as numbers); a list or map is logged as its JSON text.
// The key "hook" is reserved and passing it is an error, so a script
// cannot make its lines look like another hook's.
//
// A guardrail that leaves an audit trail of what it refuses:
//
//	if tool_name == "web_search" and not allowed then
//	  log.info("denied web search", { query = params.query })
//	  return hook.deny("no more than 5 web searches a minute")
//	end
//
// # Bounds
//
// A log call never fails because of size; it cuts instead, and marks the
// cut ("…[truncated 1234 bytes]"): the message at [MaxMessage] bytes,
// keys at [MaxKey], string values and the JSON text of lists and maps at
// [MaxValue]. Attributes past the first [MaxAttrs] (in key order) are
// dropped and counted in the attribute dropped_attrs. Encoding a large
// list or map stops once the bound is reached, so logging a huge value
// costs no more than logging a small one.
//
// # Logger
//
// [New] takes the host's logger; nil discards everything. A call whose
// level the logger does not enable returns at once, after checking its
// arguments so that a bad call fails whatever the level. The module holds
// nothing but the logger and is safe for concurrent use.
package log
