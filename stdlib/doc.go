// Package stdlib defines the shape of the modules hook scripts can load
// (json, re, path, shell, tool, setting, time, log, state) and the helpers their
// functions use to read arguments.
//
// A module is written once, in Go, over neutral values: nil, bool, int64,
// float64, string, []any and map[string]any. It imports nothing from the
// rest of hookhost and knows nothing of Lua or Starlark. Each script engine
// has one binder that exposes every [Module] with the same names,
// arguments and results: Lua scripts reach a module with require("json"),
// Starlark scripts with load("json", "json").
//
// # Lifecycle
//
// A host builds its modules once, when it starts (see package
// stdlib/std), binding whatever host-wide resources they need: the clock,
// the logger, the shared state store. Modules are immutable after that and
// are shared by every script and every goroutine.
//
// # Calls
//
// The binder converts a script's arguments to neutral values, fills a
// [Call] and runs [Func.Impl] on the hook's own goroutine. Implementations
// must be safe for concurrent use, must not keep references to argument
// values they do not own after returning, and must honour
// [Call.Context]: it is cancelled when the calling hook's deadline passes.
// A function that can block on something outside its control sets
// [Func.Blocking]; the binder then runs it where the host can abandon it.
//
// # Errors
//
// Implementations return plain errors that do not repeat the function's
// name; the binder raises them as script errors prefixed with
// "module.function: " (for example "shell.parse: unterminated quote").
// Argument helpers such as [Call.String] produce messages that name the
// argument. A panic inside an implementation is recovered by the binder
// and reported as a script error.
package stdlib
