// Package testrun runs the tests of a hooks directory for hookhost test.
//
// Test files sit next to the hooks, in the directory and in its hook
// packs one level down (Find): Lua and Starlark files named *_test.lua
// and *_test.star, and table tests named *_test.yaml or *_test.json.
// The host never loads them as hooks.
//
// # Script tests
//
// A script test file is compiled with a testing scripting.Env: the
// expect module is loadable, and hook.fire fires an event through the
// real host — host.New on the directory, with the operator's config —
// and returns the result as the fire --json object with the decision's
// fields at the top (action, reason, hook, payload, messages, trace,
// result, approval). Its top-level test_* functions run one at a time in
// definition order, each under its own deadline (Options.Timeout) and on
// a host of its own, made on its first fire, so a test never sees the
// state another left behind and selecting tests cannot change outcomes.
// hook.fire at a file's top level is an error: no test is running.
//
// # Table tests
//
// A table test (DecodeTable) is a list of cases: an event, a payload and
// expectations about the result. A file's cases run in order on one
// host. Each expectation is checked by the expect module's own
// assertion, so both kinds of test report a failure alike.
//
// # Outcomes
//
// A test passes, fails (an expectation did not hold, the script raised
// an error, or a hook failed or timed out during a fire that did not
// allow it with allow_hook_errors) or errs (it timed out, or asked
// hook.fire for an unknown event or option: it could not test what it
// meant to). Test files that do not load and the directory's hook files
// that do not load are in the Report apart from the results. Coverage
// reports, per hook file, the hooks no fire's trace shows.
//
// Run runs the tests one after another and calls Options.OnResult on the
// calling goroutine; separate runs share nothing and may proceed
// concurrently.
package testrun
