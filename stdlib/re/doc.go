// Package re is the script module "re": regular expressions in Go's RE2
// syntax, the same in Lua and Starlark. Matching takes time linear in the
// text whatever the pattern, so a hostile text cannot make a guardrail
// backtrack for ever, and compiled patterns are cached, so a guardrail
// pays for compiling a pattern once, not on every call.
//
// # Functions
//
// Every function but escape takes the pattern first and the text second.
// Patterns use Go's syntax (https://pkg.go.dev/regexp/syntax): (?i) for
// case-insensitive, (?s) for . to match newlines, (?m) for ^ and $ at
// line breaks, (?P<name>…) or (?<name>…) for named groups. There are no
// backreferences or lookaround.
//
//	match(pattern, text)          true if pattern matches anywhere in text
//	                              (anchor with ^…$ to match all of it)
//	find(pattern, text)           the text of the first match, or nil
//	find_groups(pattern, text)    the first match with its groups, or nil:
//	                              a map with
//	                                match  the text of the whole match
//	                                groups a list of each group's text, in
//	                                       the order of their '('
//	                                named  a map from each group name to
//	                                       its text
//	                              A group that took no part in the match
//	                              is "" (a list cannot hold nil in Lua).
//	                              Lists start at 1 in Lua and 0 in
//	                              Starlark, so group 1 is m.groups[1] in
//	                              Lua and m["groups"][0] in Starlark.
//	find_all(pattern, text, n?)   a list of the texts of successive
//	                              non-overlapping matches; at most n of
//	                              them when n >= 0
//	replace(pattern, text, repl, n?)
//	                              text with each match replaced by repl, or
//	                              only the first n when n >= 0. In repl, $1
//	                              or ${1} is group 1's text, $name or
//	                              ${name} a named group's, $0 the whole
//	                              match, and $$ a '$'. A name runs as far as
//	                              letters, digits and '_' go: write ${1}x,
//	                              not $1x.
//	split(pattern, text, n?)      the pieces of text between matches; at
//	                              most n pieces when n >= 0, the last
//	                              holding the rest of the text (n = 0 gives
//	                              an empty list)
//	escape(text)                  text with every metacharacter escaped,
//	                              so that it matches itself literally
//
// An absent or negative n means no limit.
//
// A guardrail that refuses force-pushes to main:
//
//	-- Lua
//	local re = require("re")
//	if re.match([[^git\s+push\b.*(\s-f\b|--force)]], cmd) and re.match([[\bmain\b]], cmd) then return hook.deny("no force-push to main") end
//
//	# Starlark
//	load("re", "re")
//	if re.match(r"^git\s+push\b.*(\s-f\b|--force)", cmd) and re.match(r"\bmain\b", cmd): return hook.deny("no force-push to main")
//
// # Errors and limits
//
// A pattern that does not compile is an error naming it
// ("re.match: bad pattern `a(b`: missing closing )"). So are a pattern
// longer than [MaxPattern] (4 KiB) and one that would compile to more
// than [MaxProgram] instructions (counted repetition multiplies size:
// [a-z]{1000} is fine, seventeen of them in a row are not). Texts and replacements are limited to
// [MaxText] (4 MiB), and so are the strings replace and escape return;
// find_all, replace and split handle at most [MaxResults] (65536)
// matches or pieces and fail past that rather than drop any. These bound
// the memory of every call.
//
// Time is bounded by the call's deadline: matching is linear in the text
// with the compiled pattern's size as the factor, which no fixed limit
// keeps within a deadline, so a search whose worst case is more than a
// few milliseconds reads the text through a reader that stops it once
// the call's context is done (see search.go), and the function fails
// with the interrupt.
//
// # Cache
//
// Each module returned by [New] owns its cache: at most [CacheEntries]
// patterns, and a bounded number of instructions in all; when full it
// forgets the oldest. It is safe for concurrent use; the module holds no
// other state.
package re
