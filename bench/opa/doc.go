// Package opa compares hookhost with Open Policy Agent on the same
// guardrail: "deny a bash command that contains rm -rf /", and a
// variant with 20 such rules. It is a module of its own so that the main
// module never depends on OPA; nothing here is imported by hookhost.
//
// Each benchmark first checks that both sides decide alike on the
// inputs it times (allow and deny), then measures:
//
//	opa              OPA v1's rego.PreparedEvalQuery.Eval on the input
//	lua, star        host.Fire with the same guardrail as a hook
//	lua|star-raw-deadline  the same source through the interpreter's own
//	                 API, with a per-call deadline done the plain way
//
// Run it from this directory (docs/performance.md gives the numbers):
//
//	go test -run '^$' -bench . -count 10 | benchstat -col /impl /dev/stdin
package opa
