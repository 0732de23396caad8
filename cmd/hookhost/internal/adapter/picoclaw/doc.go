// Package picoclaw is the PicoClaw process-hook dialect: PicoClaw's
// JSON-RPC methods (hook.before_tool, hook.approve_tool, hook.after_tool,
// hook.before_llm, hook.after_llm and the hook.runtime_event
// notification) mapped to hookhost events, and results mapped to the
// answers PicoClaw's client decodes.
//
// PicoClaw replaces its whole request envelope with the one an answer
// carries (call, request, response, result), so a modify echoes the
// request with its fields replaced — never a partial object, or the call
// would lose its tool name, meta and context. approve_tool always answers
// approved explicitly: PicoClaw reads {} as a denial.
//
// The transport (adapter.Serve) owns ids, concurrency and line limits;
// this package is pure functions over decoded params.
package picoclaw
