// Package starlark runs hook scripts written in Starlark, on go.starlark.net.
//
// A file is parsed, rewritten (below), resolved and compiled once to a
// starlark.Program (programs.go; a command hook can keep compiled programs
// between processes in a sealed cache). Its top level runs once, with
// the hook API predeclared and the stdlib modules reachable through load;
// hook.on calls register its hooks, and its globals are then frozen
// (freeze.go), so nothing a call does can change what a later call sees
// except through the state module.
//
// A call binds the payload fields a hook's signature names (signature.go,
// convert.go) into Starlark values on a recycled thread, runs the frozen
// function and converts its return value back to neutral values. A
// decision constructor (hook.deny and the others, decision.go) returns a
// read-only value that reaches the host as the scripting.Decision itself,
// without a round trip through a dict.
//
// # Containment
//
// go.starlark.net looks at a thread's cancellation between steps, but not
// inside its builtins, and it offers no hook on what an operation
// allocates. So:
//
//   - the builtins that can run long or build much (range consumers, str,
//     repr, sorted and the others in builtins.go) are hookhost's own,
//     metered versions (meter.go): they check the call's interrupt as they
//     go and charge what they build to the call's memory budget
//     (scripting.Limits.MaxCallMemory);
//   - the syntax tree is rewritten before it is resolved (ops*.go) so that
//     +, *, %, the set and dict operators and their augmented forms, and
//     the methods whose output grows with their operands (join, replace,
//     format, split, upper, items, union…), call hidden builtins that
//     charge the result's size before it is allocated;
//   - the same rewrite weighs every tuple a call builds, refusing one too
//     heavy to hash (ops_tuples.go), and routes comparisons of lists,
//     tuples and dicts (==, <, in, index, sorted…) through a metered walk
//     (ops_compare.go);
//   - conversions charge every value they reach, shared sub-values
//     included, so a value that shares itself exponentially fails fast.
//
// What one operation still allocates without a check is listed in
// docs/scripting.md; isolation: process bounds it with the operating
// system's limits.
package starlark
