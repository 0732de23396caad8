// Package scripting is the boundary between the hook host and the script
// engines (scripting/lua, scripting/starlark).
//
// The host knows engines only through [Engine], [Program] and [Function],
// and exchanges data with them only as neutral values (see
// stdlib.Check): nil, bool, int64, float64, string, []any and
// map[string]any. No engine type crosses this boundary, so the host never
// imports an engine's package and an engine never imports the host.
//
// # Lifecycle
//
// [Engine.Compile] turns one source file into an immutable [Program]:
// Lua compiles the file once and keeps a pool of initialised
// interpreters; Starlark executes the file once and freezes its globals.
// The program lists the hooks the file registered with hook.on. Each
// [Function] may then be called any number of times, concurrently.
// [Program.Close] releases pooled interpreters; calls must not be started
// after it.
//
// # Calls and deadlines
//
// The host describes one invocation with a [Call]: the payload, the hook's
// identity and configuration, and its deadline. A Function runs on the
// caller's goroutine. It arms the call with an [Interrupter] (Lua cancels
// the interpreter's context, Starlark cancels the thread) before running
// script code, and disarms it afterwards. The host's watchdog calls
// [Call.Interrupt] when the deadline passes; the protocol in call.go makes
// sure an interpreter that may have been interrupted is never reused.
// Work that might not return at all (a Go builtin stuck on pathological
// input) runs through [Guard], which the interrupt abandons, leaving its
// goroutine behind; [Call.Abandoned] then reports it so the host can
// quarantine a hook that does this repeatedly.
//
// # Test files
//
// A file compiled with [Env.Testing] may load the expect module, and its
// program, a [TestProgram], lists the file's top-level test_* functions
// in definition order ([Test]); a test runner calls each like a hook.
// hook.fire calls [Env.Fire], which only a runner sets; everywhere else
// it fails with [ErrNoFire], so a hook file that calls it learns why.
//
// # Errors
//
// Engines report problems as [*Error], which names the file, the line, the
// hook and what was expected, and unwraps to the cause.
package scripting
