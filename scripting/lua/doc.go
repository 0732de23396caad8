// Package lua runs hook scripts written in Lua 5.1, on gopher-lua.
//
// A file is parsed and compiled once to a FunctionProto. Each program
// keeps a pool of initialised interpreters (LStates): each ran the file's
// top level, so each holds the file's hook functions. A call takes an
// interpreter from the pool, pushes the payload fields the function's
// parameters name, runs it, converts its return value and gives the
// interpreter back. An interpreter never serves two goroutines at once,
// and one that was interrupted or hit a Go panic is closed, never reused.
// The pool keeps its interpreters across garbage collections (creating one
// costs a run of the file's top level).
//
// # Deadlines
//
// Every interpreter carries one cancellable context for its whole life;
// interrupting a call cancels it, and gopher-lua checks it between
// instructions. No timer is made per call: the host's watchdog does the
// interrupting. Builtins that could run for long inside one Go call — the
// pattern functions of the string library on large inputs — run through
// scripting.Guard, which the deadline abandons.
//
// # Sandbox
//
// Scripts get base (without dofile, loadfile, load, loadstring, module,
// collectgarbage, getfenv, setfenv, newproxy), string (rep capped by
// Limits.MaxStringSize; the string metatable protected), table, math, and
// from os only time, clock and date. print goes to the host's log.
// require resolves the host's modules and nothing else. There is no io,
// debug, package, coroutine or channel library.
//
// Module-level variables of a script are per interpreter: a file runs in
// several pooled interpreters, so scripts must not rely on them across
// calls (the state module is the shared store).
package lua
