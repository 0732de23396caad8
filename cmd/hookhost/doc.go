// Command hookhost loads a directory of Lua (*.lua) and Starlark (*.star)
// hook scripts and fires an agent's lifecycle events through them. It is
// the command-line face of package host; docs/cli.md is its reference.
//
// # Commands
//
//	hookhost fire [--dir D] [--config F] [--json] EVENT [PAYLOAD | -]
//	hookhost list [--dir D] [--config F] [--json]
//	hookhost check [--dir D] [--config F]
//	hookhost serve [--dir D] [--config F] [--http ADDR] [--token-file F] [--strict] …
//	hookhost test [DIR] [--config F] [-run REGEX] [-v] [--json] [--coverage] [--timeout D]
//	hookhost init [DIR]
//	hookhost claude|gemini|codex [--dir D] [--config F] [--server URL] [--fail-closed] [--log FILE] [--print-settings]
//	hookhost picoclaw [--dir D] [--config F] [--server URL]
//
// fire loads D (default ./hooks.d), fires EVENT once with PAYLOAD (a JSON
// object; "-" reads it from stdin; omitted or empty means {}) and prints
// the trace and the decision — with --json, exactly one JSON object, the
// json.Marshal of host.Result, which other programs parse.
// list prints every loaded hook; check compiles and validates every
// script (and the config's hook entries against them) and prints each
// problem as file:line: message.
// serve keeps the host loaded, hot-reloads it (and rescans on SIGHUP)
// and serves fires over HTTP (package internal/server, with
// internal/metrics and internal/decisionlog as the host's observers;
// docs/operations.md).
// test runs the test files next to the hooks (package internal/testrun):
// script tests that fire through the real host with hook.fire, and table
// tests; its last line is "N passed, N failed". init writes the embedded
// scaffold of package internal/scaffold and never overwrites a file.
// claude, gemini, codex, cursor and copilot are command hooks for those
// agents: one event on stdin (Copilot's names no event: --event does),
// the agent's own answer on stdout; picoclaw is a PicoClaw
// process hook, JSON-RPC lines until stdin ends (package internal/adapter
// and its dialects; docs/integrations/).
//
// Flags may come before or after the positional arguments: urfave/cli v2
// stops at the first positional argument, so the command line is
// reordered (flags first, then "--" and the positional arguments) before
// it is parsed; a "--" given by the caller still ends the flags.
//
// # Output and exit codes
//
// stdout carries only the command's result. Scripts that fail to load
// are reported on stderr by fire and list (on stdout by check, where they
// are the result), one line each, as file:line: message with the file
// relative to the hooks directory; they do not stop the other scripts.
// The host's logger (hook failures, timeouts, the scripts' print and log
// output) writes text records without timestamps to stderr from
// --log-level up (warn by default). The host also logs each load problem;
// those records are dropped because the commands print the problems
// themselves, so each is reported once.
//
// Exit codes: 0 when the command did its work (fire ran, whatever the
// decision); 1 when check found problems, or a fire was interrupted;
// 2 for usage errors — a bad flag or argument count, an unknown event, a
// payload that is not a JSON object or nests past 512 levels, a bad
// config (every config problem is printed, file:line: message), a hooks
// directory that cannot be read.
//
// # Shape
//
// Each command has an options struct, a constructor that only wires its
// flags, a validate method, and a run function over explicit readers and
// writers; exit codes are typed errors (exitError, a cli.ExitCoder).
// runMain runs a whole command line in-process and returns the exit code;
// only main calls os.Exit. The tests in testdata/*.txtar run the command
// through testscript.
package main
