// Package lua runs hook scripts written in Lua 5.1, on gopher-lua.
//
// A file is parsed and compiled once to a FunctionProto; with a program
// cache (scripting.Env.Programs) the FunctionProto is kept across
// processes in an encoding of ours (programs.go), so that a command hook
// decodes it instead of compiling it again. Each program
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
// Every interpreter carries one context of its own for its whole life
// (interrupt.go); interrupting a call closes its Done channel, which
// gopher-lua looks at between instructions. No timer is made per call: the host's watchdog does the
// interrupting. Builtins that could run long or build much inside one Go
// call are replaced by hookhost's own (tablelib.go, strlib.go, format.go,
// patterns.go): each is bounded before it starts, looks at the call's
// interrupt as it goes, and charges what it builds to the call's memory
// budget (scripting.Limits.MaxCallMemory), as the conversions do
// (convert.go). Pattern matching is hookhost's own (match.go) and looks
// at the interrupt as it backtracks, so no Lua builtin has to be
// abandoned; only a module function that blocks runs through
// scripting.Guard.
//
// gopher-lua gives no hook on concatenation or on table writes, so the
// parsed file is rewritten before it is compiled (rewrite.go): a .. b and
// the assignments inside function bodies call Go helpers (guard.go). The
// same rewrite steers around what gopher-lua's compiler gets wrong
// (multiple assignment, and/or and calls assigned to locals, loops whose
// body starts with a jump); TestAgainstLua51 compares generated programs
// with Lua 5.1 itself.
//
// # Clean interpreters
//
// A pooled interpreter serves calls of many sessions, so once the top
// level has run every table reachable from it is frozen and every
// module-level local it captured is recorded (freeze.go): calls cannot
// write a global or a frozen table (rewritten assignments, rawset,
// setmetatable and the table library refuse), and each module-level local
// is reset after every call. Only the state module outlives a call.
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
// Module-level variables of a script are per interpreter and, for hook
// calls, read-only: the state module is the shared store.
package lua
