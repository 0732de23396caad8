// Package path is the script module "path": slash-separated paths with
// POSIX semantics, the same in Lua and Starlark and whatever the host's
// operating system.
//
// Every function is lexical: none touches the file system, so none
// resolves symbolic links or checks that a path exists. A guardrail that
// must be proof against symlinks needs the host to resolve them first.
//
// # Functions
//
//	clean(p)                the shortest path equivalent to p: repeated
//	                        slashes collapsed, "." elements dropped, ".."
//	                        resolved lexically, no trailing slash; "" is "."
//	join(a, b, …)           2 to 8 elements joined with '/' and cleaned;
//	                        empty elements are skipped. A later absolute
//	                        element does not restart the path:
//	                        join("/ws", "/etc") is "/ws/etc". To resolve a
//	                        path an agent gave against a directory, use
//	                        abs. To join a list, spread it: Lua
//	                        path.join(unpack(parts)), Starlark
//	                        path.join(*parts). A nil before a given element
//	                        is an error; a trailing nil cannot be told from
//	                        a missing argument, so check payload fields
//	                        before joining them.
//	base(p)                 the last element of p ("/a/b.txt" → "b.txt");
//	                        "." for "", "/" for "/"
//	dir(p)                  all but the last element, cleaned
//	                        ("/a/b.txt" → "/a", "b.txt" → ".")
//	ext(p)                  the extension of the last element, with its dot
//	                        ("a.tar.gz" → ".gz"), or ""
//	abs(p, cwd)             p made absolute against cwd and cleaned; an
//	                        absolute p is only cleaned. cwd must be absolute.
//	rel(base, target)       a relative path that leads from base to target
//	                        ("/a/b", "/a/c/d" → "../c/d"). An error when there
//	                        is none: one path absolute and the other not, or
//	                        base climbing out with ".." that target does not.
//	is_within(root, p)      true when p is root itself or lies below it.
//	                        root must be absolute. A relative p is taken
//	                        relative to root. Both are cleaned first, so ".."
//	                        is resolved lexically: is_within("/ws",
//	                        "/ws/a/../../etc") is false, and is_within(r, r)
//	                        is true. "/wsx" is not within "/ws". An empty p
//	                        is an error (it is almost always a missing
//	                        value). No file system access: a symlink inside
//	                        root that points out of it is not noticed, and
//	                        "~" is not expanded (use expand_home first).
//	glob(pattern, p)        whether p, cleaned, matches pattern: * and ?
//	                        within one element, [a-z] and [!a-z] classes,
//	                        {a,b} alternatives, \ to escape, and ** for any
//	                        number of whole elements ("/etc/**", "**/*.pem").
//	                        The whole of p must match. Cleaning p first
//	                        means "/ws/../etc/passwd" matches "/etc/**", and
//	                        a pattern with a trailing slash matches nothing.
//	                        A bad pattern is an error. Matching follows
//	                        github.com/bmatcuk/doublestar/v4.
//	expand_home(p, home)    "~" becomes home, and "~/x" home + "/x"; the rest
//	                        of p is kept as written (not cleaned). "~user"
//	                        paths are left alone: only the system knows
//	                        whose home that is. home must be absolute.
//
// A guardrail that keeps file writes inside the workspace:
//
//	-- Lua
//	local path = require("path")
//	if not path.is_within(cwd, params.file_path) then return hook.deny("write outside the workspace") end
//
//	# Starlark
//	load("path", "path")
//	if not path.is_within(cwd, params["file_path"]): return hook.deny("write outside the workspace")
//
// # Errors and limits
//
// Functions that need an absolute path (abs's cwd, is_within's root,
// expand_home's home) refuse any other, since resolving against a
// relative or empty directory would quietly give a wrong answer.
//
// Most functions take time and memory linear in their input. glob
// backtracks, so it bounds its work: a pattern is at most
// [MaxGlobPattern] (4 KiB) with at most [MaxGlobAlternatives] (1024) ways
// to choose among its {a,b} groups, and a pattern too complex for the
// length of p is refused rather than matched slowly; ordinary patterns
// match paths of hundreds of kilobytes.
//
// The module holds no state and is safe for concurrent use.
package path
