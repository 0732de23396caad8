package starlark

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// cappedChildEnv names the test a child process runs in full, under the
// address-space limit runCapped gives it.
const cappedChildEnv = "HOOKHOST_STARLARK_CAPPED_TEST"

// runCapped runs cases in a child process under a 4 GiB address-space
// limit (prlimit), so that a case that is not contained ends that process
// with an out-of-memory error instead of taking the machine down; the
// child runs only the calling test, and cases there. Under the race
// detector, whose shadow memory does not fit such a limit, and without
// prlimit, cases run in this process, as TestHostileScripts does.
func runCapped(t *testing.T, cases func(t *testing.T)) {
	t.Helper()
	if os.Getenv(cappedChildEnv) == t.Name() || raceSlowdown != 1 {
		cases(t)
		return
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Log("prlimit not found: running the hostile cases in this process")
		cases(t)
		return
	}
	cmd := exec.Command(prlimit, "--as=4294967296", os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), cappedChildEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the hostile cases failed in their memory-limited process: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("the child process did not run the hostile cases:\n%s", out)
	}
}

// meteredBudget is the call budget of the cases that meter element by
// element up to it, and its text in their errors. Under the race detector
// that metering is ten times slower (up to 45 s a case on a loaded
// machine, past go test's ten minutes for the package), so there they run
// under an eighth of the default budget, which every case still passes,
// through the same meters.
func meteredBudget() (int64, string) {
	if raceSlowdown != 1 {
		return 8 << 20, "8MiB"
	}
	return scripting.DefaultMaxCallMemory, "64MiB"
}

// A hostileCase is a hook h(**fields) registered on "e": the prelude at
// the file's top level, the body in the hook.
type hostileCase struct {
	name    string
	prelude string
	body    string
	payload map[string]any
	timeout time.Duration // 300ms unless set
	limits  scripting.Limits
	wantIs  error  // the error wraps this, if set
	want    string // the error contains this; both empty: the call succeeds
	line    int    // the error names this line of h.star, if set
}

func (tc hostileCase) run(t *testing.T) {
	timeout := tc.timeout
	if timeout == 0 {
		timeout = 300 * time.Millisecond
	}
	_, err := hostileCall(t, hookSrc(tc.prelude, tc.body), tc.payload, timeout, tc.limits)
	if tc.want == "" && tc.wantIs == nil {
		if err != nil {
			t.Fatalf("want success, got %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("want an error containing %q, got none", tc.want)
	}
	if errors.Is(err, scripting.ErrInterrupted) && !errors.Is(tc.wantIs, scripting.ErrInterrupted) && !strings.Contains(tc.want, "timed out") {
		// The case wants a limit error, and on a loaded machine under the
		// race detector the deadline can come first: both are correct
		// bounds, and the call was contained (it did not succeed).
		t.Logf("the deadline came before %q: %v", tc.want, err)
		return
	}
	if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
		t.Errorf("error %q does not wrap %v", err, tc.wantIs)
	}
	if !strings.Contains(err.Error(), tc.want) {
		t.Errorf("error %q does not contain %q", err, tc.want)
	}
	if !strings.Contains(err.Error(), `hook "h.star:h"`) {
		t.Errorf("error %q does not name the hook", err)
	}
	var se *scripting.Error
	if !errors.As(err, &se) || se.File != "h.star" || tc.line != 0 && se.Line != tc.line {
		t.Errorf("error %q: want file h.star, line %d; got %+v", err, tc.line, se)
	}
}

// A range made at a file's top level belongs to no call; iterated from a
// hook by go.starlark.net's Go code (l.extend, +=, *args, the set
// methods), it must be charged to the call that iterates it, like a
// range the call made. Unmetered, the first case ran the process out of
// memory after 23 s. The hook's body starts at line 4 of h.star (after
// the load, the prelude and the def), so a one-line body fails there.
func TestHostileGlobalRanges(t *testing.T) {
	requireMeteredBuiltins(t)
	runCapped(t, func(t *testing.T) {
		const (
			huge   = "R = range(1 << 40)"
			big    = "R = range(1 << 22)" // 4 Mi elements: 128 MiB as list slots, 64 MiB as arguments
			bigger = "R = range(1 << 23)"
			ofLst  = "RS = [range(1 << 40), range(1 << 23)]"
		)
		budget, budgetText := meteredBudget()
		limit := "iterating range: memory limit exceeded: this call would allocate more than " + budgetText
		for _, tc := range []hostileCase{
			{name: "extend a global range", prelude: huge, body: "l = []\nl.extend(R)", line: 5},
			{name: "+= a global range", prelude: big, body: "l = []\nl += R", line: 5},
			{name: "*args of a global range", prelude: big, body: "print(*R)", want: "memory limit exceeded", line: 4},
			{name: "*args of a larger global range", prelude: bigger, body: "print(*R)", want: "*args: 8388608 elements: memory limit exceeded", line: 4},
			{name: "*args of a global range to a def", prelude: bigger + "\ndef f(*a):\n    return len(a)", body: "return hook.respond(f(*R))", want: "*args: 8388608 elements: memory limit exceeded", line: 6},
			{name: "extend a global range through a method value", prelude: huge, body: "l = []\ne = l.extend\ne(R)", line: 6},
			{name: "extend a global range through getattr", prelude: huge, body: "l = []\ngetattr(l, 'extend')(R)", line: 5},
			{name: "issubset of a global range through a method value", prelude: huge, body: "f = set([-1]).issubset\nreturn hook.respond(f(R))", line: 5},
			{name: "extend a slice of a global range", prelude: big, body: "l = []\nl.extend(R[::1])", line: 5},
			{name: "extend a slice of a slice", prelude: big, body: "l = []\nl.extend(R[1:][::1])", line: 5},
			{name: "extend a range from a frozen list", prelude: ofLst, body: "l = []\nl.extend(RS[0])", line: 5},
			{name: "+= a range from a frozen list", prelude: ofLst, body: "l = []\nfor r in RS:\n    l += r", line: 6},
			{name: "*args of a range from a frozen list", prelude: ofLst, body: "print(*RS[1])", want: "*args: 8388608 elements: memory limit exceeded", line: 4},
			{name: "extend *args of a frozen list", prelude: ofLst, body: "l = []\nl.extend(*RS[:1])", line: 5},
			{name: "+= a global range through a held address", prelude: big, body: "d = {'k': []}\nk = lambda: 'k'\nd[k()] += R", line: 6},
			{name: "set.update of a global range", prelude: huge, body: "s = set()\ns.update(R)", line: 5},
			{name: "set.union of a global range", prelude: huge, body: "return hook.respond(len(set().union(R)))", line: 4},
			{name: "set.difference of a global range", prelude: huge, body: "return hook.respond(len(set([1]).difference(R)))", line: 4},
			{name: "set.intersection of a global range", prelude: huge, body: "return hook.respond(len(set([1]).intersection(R)))", line: 4},
			{name: "set.symmetric_difference of a global range", prelude: huge, body: "return hook.respond(len(set().symmetric_difference(R)))", line: 4},
			{name: "set.issubset of a global range", prelude: huge, body: "return hook.respond(set([-1]).issubset(R))", line: 4},
			{name: "set.issubset of a range from a frozen list", prelude: ofLst, body: "return hook.respond(set([-1]).issubset(RS[0]))", line: 4},
			{name: "set.issubset without an argument", body: "return hook.respond(set([-1]).issubset())", want: "issubset: got 0 arguments, want 1", line: 4},
			{name: "set.issuperset without an argument", body: "return hook.respond(set([-1]).issuperset())", want: "issuperset: got 0 arguments, want 1", line: 4},
			{name: "dict.update of a global range", prelude: huge, body: "d = {}\nd.update(R)", want: "update: dictionary update sequence element #0 is not iterable (int)"},
		} {
			if tc.want == "" {
				tc.want = limit
			}
			if tc.timeout == 0 {
				tc.timeout = time.Minute // the budget, not the deadline, must stop these
			}
			tc.limits.MaxCallMemory = budget
			t.Run(tc.name, tc.run)
		}
		// hookhost's own builtins meter a global range as they go.
		for _, tc := range []hostileCase{
			{name: "list of a global range", prelude: huge, body: "return list(R)", want: "list: 1099511627776 elements: memory limit exceeded"},
			{name: "tuple of a global range", prelude: huge, body: "return tuple(R)", want: "tuple: 1099511627776 elements: memory limit exceeded"},
			{name: "set of a global range", prelude: huge, body: "return set(R)", want: "set: 1099511627776 elements: memory limit exceeded"},
			{name: "sorted of a global range", prelude: huge, body: "return sorted(R)", want: "sorted: 1099511627776 elements: memory limit exceeded"},
			{name: "reversed of a global range", prelude: huge, body: "return reversed(R)", want: "reversed: 1099511627776 elements: memory limit exceeded"},
			{name: "enumerate of a global range", prelude: huge, body: "return enumerate(R)", want: "enumerate: 1099511627776 elements: memory limit exceeded"},
			{name: "zip of global ranges", prelude: huge, body: "return zip(R, R)", want: "zip: 1099511627776 rows: memory limit exceeded"},
			{name: "dict of a global range", prelude: huge, body: "return dict(R)", want: "dict: 1099511627776 entries: memory limit exceeded"},
			{name: "bytes of a global range", prelude: huge, body: "return bytes(R)", wantIs: scripting.ErrMemoryLimit},
			{name: "min of a global range", prelude: huge, body: "return min(R)", wantIs: scripting.ErrInterrupted, want: "timed out"},
			{name: "max of a range from a frozen list", prelude: ofLst, body: "return max(RS[0])", wantIs: scripting.ErrInterrupted, want: "timed out"},
			{name: "all of a global range", prelude: "R = range(1, 1 << 40)", body: "return all(R)", wantIs: scripting.ErrInterrupted, want: "timed out"},
			{name: "any of a global range", prelude: huge, body: "return hook.respond(any(R))"},
			{name: "join of a global range", prelude: huge, body: "return ''.join(R)", want: "join: in list, want string, got int"},
			{name: "set.issuperset of a global range stops at the first miss", prelude: "R = range(1 << 40)\nS = set(range(10))", body: "return hook.respond(S.issuperset(R))"},
			// 500,000 elements at even 8 bytes each would pass the 2 MiB
			// budget if the loop were charged; fewer iterations than before
			// keep the case within its deadline under -race on a loaded
			// machine (5,000,000 took over a minute there).
			{name: "a for loop over a global range is not charged", prelude: "R = range(500000)\nB = range(1 << 40)",
				body:    "n = 0\nfor i in R:\n    n += 1\nfor i in B:\n    if i > 10:\n        break\nreturn hook.respond(n)",
				timeout: time.Minute, limits: scripting.Limits{MaxCallMemory: 2 << 20}},
		} {
			t.Run(tc.name, tc.run)
		}
	})
}

// Go code that consumes a range at a file's top level is metered too: the
// top level has a call's budget.
func TestTopLevelGlobalRangeIsMetered(t *testing.T) {
	runCapped(t, func(t *testing.T) {
		for _, tc := range []struct{ src, want string }{
			{"R = range(1 << 40)\nL = []\nL.extend(R)", "top.star:3: Starlark computation cancelled: iterating range: memory limit exceeded: this call would allocate more than 64MiB"},
			{"R = range(1 << 22)\nL = []\nL += R", "top.star:3: Starlark computation cancelled: iterating range: memory limit exceeded"},
			{"R = range(1 << 23)\nprint(*R)", "top.star:2: *args: 8388608 elements: memory limit exceeded"},
			{"R = range(10)\nL = []\nL.extend(R)\nL += R\nS = set(R)\nS.update(R)\nT = set().union(R[::2])", ""},
		} {
			_, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "top.star", Code: []byte(tc.src)},
				&scripting.Env{Limits: scripting.Limits{InitTimeout: time.Minute}})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%q: %v", tc.src, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%q: got %v, want an error containing %q", tc.src, err, tc.want)
			}
		}
	})
}
