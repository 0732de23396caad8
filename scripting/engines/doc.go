// Package engines is the one list of the scripting engines hookhost
// ships: Lua and Starlark, each with its file extension. The host, the
// isolation worker, the test runner, the script-test harness and config
// validation all read it, so adding an engine (or an extension) is one
// line here.
package engines
