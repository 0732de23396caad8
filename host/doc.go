// Package host loads hook scripts and fires events through them: it is
// the hookhost library an agent (or any Go service) embeds.
//
// # Lifecycle
//
// [New] loads every *.lua and *.star file of a directory (or of an fs.FS,
// for tests) and of its hook packs (subdirectories with a HOOK.md, whose
// hooks have ids "<pack>/<file>:<name>"), compiles each once, and publishes an immutable snapshot of
// the hooks they registered: each event's hooks bound to the operator's
// [Config] and sorted by priority (higher first, ties by id). [Host.Fire]
// runs on the snapshot current when it starts, with no lock held.
// [Host.Rescan] (and [Host.Reload], [Host.Watch]) rescans, recompiles
// only the files whose content changed, keeps the last good version of a
// file that no longer compiles, builds the whole new snapshot and swaps it
// in atomically; what it replaced is closed only when no fire can reach it
// any more. Every reload returns a [ReloadReport]. [Host.Watch] runs
// those reloads by itself as the directory, its packs or the config file
// (Options.ConfigPath) change. [Host.Status] says what is serving, load
// problems included; every [Result] carries them too, and in strict mode
// (Options.Strict) a file that never loaded makes deny-capable events
// deny. [Host.Close] stops the host.
//
// # Observing
//
// An [Observer] in the options is told of every fire, reload and
// quarantine change, outside any lock; [Observers] fans out to several.
//
// # Firing
//
// Fire runs an event's hooks on the caller's goroutine, each under its own
// deadline, and folds their returns per the event's [Mode] into one
// [Decision]: observe, collect, first or chain. Each hook gets
// only the payload fields its parameters name, as copies. A hook that
// errs, returns something that is not a valid decision for the event, or
// overruns its deadline is isolated: it is logged, shown in the trace,
// and the event's [Behavior] applies — skip, or fail closed with deny.
// Fire always returns a usable [Result].
//
// # Deadlines
//
// One watchdog goroutine per host interrupts calls whose deadline passed:
// Lua between two instructions, Starlark at its next step. Work that a
// script started inside one Go call that might not return (a pathological
// Lua pattern, a blocking module function) is abandoned at the deadline,
// so Fire moves on; a hook abandoned three times within ten minutes (not
// counted while the process is starved of CPU) is quarantined for a
// cool-down of 1 minute, doubling with each repeat up to 10, or until its
// file changes or [Host.Release] or [Host.ReleaseAll] is called. A
// quarantined hook is not called and fails: its error behaviour applies.
// Timeouts resolve most specific setting first (docs/config.md) and are capped at 10
// minutes.
//
// # Events
//
// The agent catalog ([AgentEvents]) is registered unless
// Options.NoAgentEvents is set; embedders add their own [EventSpec]s in
// Options.Events or with [Host.RegisterEvent], and operators declare
// custom events in the config. [Host.BeforeTool], [Host.ApproveTool] and
// [Host.AfterTool] fire the tool events with typed arguments.
//
// See the package examples for a complete embedding.
package host
