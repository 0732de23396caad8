// Package eventcache lets a one-shot command compile only the hook files
// that can fire for its event. A command hook starts for every tool call,
// and compiling every file of the directory each time is most of its
// start-up; but which events a file's hooks are on depends only on its
// source (registration happens at the top level, and must come out the
// same every time it runs). So the cache records, per file content, the
// events its hooks registered for, learnt from a real load, and a later
// process hides from the host the files whose recorded events exclude
// its event. The plan reads each script file once and serves the host
// the content it keyed.
//
// It stays correct because it never guesses: a file not in the cache (new,
// edited, or one that failed to load) is always compiled, so its problems
// are always reported; an entry's key covers the file's content, the
// operator config's content and the executable itself, so a new config
// or a new hookhost learns afresh. A missing, unreadable or corrupt cache
// file is an empty cache, and saving is best effort: the cache can make a
// command faster, never wrong or failing.
//
// The cache also keeps compiled programs (Programs), for the engines that
// can reuse them (both do): one file per program in programs-v1/ beside
// the cache file, named by the engine's key (file name, content, language
// options) and the same salt, so that a later run decodes a file's
// program instead of parsing and compiling it. The engine seals what it
// stores with a checksum and compiles from source whatever does not
// match; a file that fails to compile is never stored. Like the events,
// the programs are only as trustworthy as the user's cache directory:
// whoever can write there can already hide hook files from the command
// hooks. So a cache directory, cache file or programs' directory that
// another user could write (group- or world-writable, or someone else's)
// is not used at all (private.go).
//
// A Cache is used by one goroutine; the store Programs returns is safe
// for concurrent use.
package eventcache
