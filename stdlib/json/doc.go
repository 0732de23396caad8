// Package json is the script module "json": JSON text to neutral values
// and back, the same in Lua and Starlark.
//
// # Functions
//
//	encode(value, indent?)  value as JSON text. Map keys are sorted, so
//	                        equal values always give the same text. Compact
//	                        by default; indent (0 to 16 spaces) puts each
//	                        element on its own line. An empty map is {}, an
//	                        empty list [] (an empty Lua table is a map, so
//	                        it encodes as {}). <, > and & are written as
//	                        they are. A float always shows a '.' or an
//	                        exponent (1.0, 1e+21), so it decodes as a float
//	                        again.
//	decode(text)            the value text describes. A number written as
//	                        an integer that fits in 64 bits is an integer,
//	                        any other number a float (1.0 stays a float).
//	                        Text after the value is an error.
//
// A guardrail that refuses tool calls whose JSON arguments name a
// production database:
//
//	-- Lua
//	local json = require("json")
//	if json.decode(params.body).database == "prod" then return hook.deny("not on prod") end
//
//	# Starlark
//	load("json", "json")
//	if json.decode(params["body"]).get("database") == "prod": return hook.deny("not on prod")
//
// # Errors and limits
//
// decode says where the text is wrong and what it found there
// ("json.decode: line 3, column 7: found '}', want a value"); in Go the
// error is a *SyntaxError. encode refuses NaN and infinities, functions
// and other values that have no JSON form, naming where in the value
// they are ("params.args[2]: NaN cannot be represented").
//
// Both refuse nesting deeper than stdlib.MaxDepth (512) levels — decode
// before it recurses — and texts longer than [MaxSize] (4 MiB), so neither
// can exhaust the stack or allocate without bound. Invalid UTF-8 in a
// string, in either direction, becomes U+FFFD; so does an unpaired
// surrogate escape such as "\ud800". When an object names a key twice,
// the last value wins.
//
// The module holds no state and is safe for concurrent use. [Encode] and
// [Decode] are the same operations for Go callers.
package json
