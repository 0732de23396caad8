package main

import (
	"context"
	"strings"
	"testing"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/testrun"
)

// shippedDir is the guardrails directory hookhost ships (what serve and
// fire load by default).
const shippedDir = "../../hooks.d"

// TestShippedHooks runs the shipped guardrails' own tests — the table
// tests and script tests next to them — as hookhost test does, so that
// CI runs them, and checks that every shipped hook is fired by one.
func TestShippedHooks(t *testing.T) {
	report, err := testrun.Run(context.Background(), testrun.Options{Dir: shippedDir})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range append(report.Problems, report.LoadErrors...) {
		t.Errorf("does not load: %v", e)
	}
	if len(report.Results) < 150 {
		t.Errorf("%d tests ran; the shipped guardrails have at least 150", len(report.Results))
	}
	for _, res := range report.Results {
		if res.Outcome != testrun.Pass {
			t.Errorf("%s:%d %s: %s: %s%s", res.File, res.Line, res.Name, res.Outcome, res.Failure, lastDecision(res))
		}
	}
	for _, fc := range report.Coverage() {
		if unfired := fc.Unfired(); len(unfired) > 0 {
			t.Errorf("%s: no test fires %s", fc.File, strings.Join(unfired, ", "))
		}
	}
}

// lastDecision describes the decision of a failed test's last fire.
func lastDecision(res testrun.Result) string {
	if len(res.Fires) == 0 {
		return ""
	}
	d := res.Fires[len(res.Fires)-1].Result.Decision
	return "\n\tgot " + string(d.Action) + " by " + d.Hook + ": " + d.Reason
}
