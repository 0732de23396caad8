package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/cmd/hookhost/internal/testrun"
	"github.com/hookhost/hookhost/host"
)

// shippedDir is the guardrails directory hookhost ships (what serve and
// fire load by default).
const shippedDir = "../../hooks.d"

// TestShippedHooks runs the shipped guardrails' own tests — the table
// tests and script tests next to them — as hookhost test does, so that
// CI runs them, and checks that every shipped hook is fired by one.
//
// The packs' own deadlines (a second or two) are for production; under
// the race detector on a busy machine a long case can take many times
// that, and a hook that times out denies (the packs fail closed) where
// the case expects the ask its work budget gives. So each pack runs here
// under a minute's deadline: these tests check decisions, not deadlines.
func TestShippedHooks(t *testing.T) {
	t.Parallel() // in process, sharing nothing with the other tests
	report, err := testrun.Run(context.Background(), testrun.Options{Dir: shippedDir,
		Config: generousDeadlines(t), Timeout: 2 * time.Minute})
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

// TestShippedGuardsFailClosed: every shipped hook on an event that can
// deny fails closed — its error, its timeout, its memory limit or its
// quarantine denies the call rather than letting it through — because
// its pack's HOOK.md declares it so.
func TestShippedGuardsFailClosed(t *testing.T) {
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{Dir: shippedDir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	canDeny := map[string]bool{}
	for _, spec := range host.AgentEvents() {
		canDeny[spec.Name] = slices.Contains(spec.Actions, host.Deny)
	}
	// At loop.continue deny means "let the agent stop", which is what a
	// hook that fails and decides nothing already gives: no guard there.
	canDeny["loop.continue"] = false
	guards := 0
	for _, hk := range h.Hooks() {
		if !canDeny[hk.Event] {
			continue
		}
		guards++
		if hk.ErrorBehavior != host.FailClosed || hk.TimeoutBehavior != host.FailClosed {
			t.Errorf("%s on %s: error_behavior %s, timeout_behavior %s; a shipped guard fails closed (declare deny in its HOOK.md)",
				hk.ID, hk.Event, hk.ErrorBehavior, hk.TimeoutBehavior)
		}
	}
	if guards < 8 {
		t.Errorf("%d shipped hooks on events that can deny; want at least 8", guards)
	}
}

// generousDeadlines is a config that gives every shipped pack's hooks a
// minute (see TestShippedHooks).
func generousDeadlines(t *testing.T) *host.Config {
	t.Helper()
	entries, err := os.ReadDir(shippedDir)
	if err != nil {
		t.Fatal(err)
	}
	var yaml strings.Builder
	yaml.WriteString("hooks:\n")
	for _, e := range entries {
		if e.IsDir() {
			fmt.Fprintf(&yaml, "  %q: { timeout: 1m }\n", e.Name()+"/")
		}
	}
	cfg, err := host.ParseConfig("generous.yaml", []byte(yaml.String()))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
