// Package eventcache lets a one-shot command compile only the hook files
// that can fire for its event. A command hook starts for every tool call,
// and compiling every file of the directory each time is most of its
// start-up; but which events a file's hooks are on depends only on its
// source (registration happens at the top level, and must come out the
// same every time it runs). So the cache records, per file content, the
// events its hooks registered for, learnt from a real load, and a later
// process hides from the host the files whose recorded events exclude
// its event.
//
// It stays correct because it never guesses: a file not in the cache (new,
// edited, or one that failed to load) is always compiled, so its problems
// are always reported; an entry's key covers the file's content, the
// operator config's content and the executable itself, so a new config
// or a new hookhost learns afresh. A missing, unreadable or corrupt cache
// file is an empty cache, and saving is best effort: the cache can make a
// command faster, never wrong or failing.
//
// A Cache is used by one goroutine.
package eventcache
