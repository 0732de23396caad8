package starlark

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/json"
)

// returnSlack is how long after its deadline a hostile call may take to
// return before the test calls it stuck. It is generous, for a loaded
// machine under the race detector; a call that is not contained does not
// return at all (or takes minutes).
const returnSlack = 10 * time.Second

// hostileCall compiles src (which registers one hook on "e"), calls the
// hook with payload under a watchdog that interrupts it at timeout, and
// fails the test if the call has not returned by timeout+returnSlack.
func hostileCall(t *testing.T, src string, payload map[string]any, timeout time.Duration, limits scripting.Limits) (any, error) {
	t.Helper()
	env := &scripting.Env{Modules: []stdlib.Module{json.New()}, Limits: limits}
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "h.star", Code: []byte(src)}, env)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	defer p.Close()
	hook := p.Hooks()[0]
	c := &scripting.Call{Payload: payload, Event: "e", Hook: "h.star:" + hook.Name, Config: map[string]any{},
		Timeout: timeout, Deadline: time.Now().Add(timeout)}
	watchdog := time.AfterFunc(timeout, c.Interrupt)
	defer watchdog.Stop()
	type result struct {
		out any
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := hook.Func.Call(c)
		done <- result{scripting.AsNeutral(out), err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(timeout + returnSlack):
		t.Fatalf("the call did not return within %v of its %v deadline", returnSlack, timeout)
		return nil, nil
	}
}

// hookSrc wraps a body into a hook h(**fields) registered on "e".
func hookSrc(prelude, body string) string {
	return fmt.Sprintf("load(\"json\", \"json\")\n%s\ndef h(**fields):\n%s\n\nhook.on(\"e\", h)\n", prelude, indent(body))
}

func indent(body string) string {
	lines := strings.Split(strings.TrimSpace(body), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

// shared builds t = [t, t] forty times: 2^40 leaves if expanded.
const shared = `
t = []
for _ in range(40):
    t = [t, t]
`

const deep = `
x = []
for _ in range(300000):
    x = [x]
`

// TestHostileScripts runs what an attacker would write; each call must
// come back, within its deadline plus slack, with a clear error (or, for
// print, a truncated line), and never crash or hang. Several cases would
// allocate gigabytes if the metering regressed, so the cases run in a
// child process under a 4 GiB address-space limit (prlimit), except under
// the race detector, whose shadow memory does not fit such a limit; there
// the check that every replaced builtin is hookhost's own, first, keeps a
// regression from reaching the big allocations.
func TestHostileScripts(t *testing.T) {
	requireMeteredBuiltins(t)
	if os.Getenv(hostileChildEnv) == "" && raceSlowdown == 1 {
		if prlimit, err := exec.LookPath("prlimit"); err == nil {
			runHostileChild(t, prlimit)
			return
		}
		t.Log("prlimit not found: running the hostile cases in this process")
	}
	runHostileCases(t)
}

// hostileChildEnv marks the child process that runs the hostile cases.
const hostileChildEnv = "HOOKHOST_STARLARK_HOSTILE_CHILD"

func runHostileChild(t *testing.T, prlimit string) {
	cmd := exec.Command(prlimit, "--as=4294967296", os.Args[0], "-test.run=^TestHostileScripts$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), hostileChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the hostile cases failed in their memory-limited process: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestHostileScripts/min_of_range_2^62") {
		t.Fatalf("the child process did not run the hostile cases:\n%s", out)
	}
}

// requireMeteredBuiltins fails unless every builtin the hostile cases
// rely on is hookhost's, not go.starlark.net's.
func requireMeteredBuiltins(t *testing.T) {
	env := predeclared(hookModule(&scripting.Env{}))
	for _, name := range replacedBuiltins() {
		b, ok := env[name].(*starlark.Builtin)
		if !ok || b == starlark.Universe[name] {
			t.Fatalf("%s is not hookhost's metered builtin", name)
		}
	}
}

func runHostileCases(t *testing.T) {
	budget, budgetText := meteredBudget() // for the cases that meter element by element
	metered := scripting.Limits{MaxCallMemory: budget}
	for _, tc := range []hostileCase{
		{name: "min of range 2^62", body: "return min(range(1 << 62))", wantIs: scripting.ErrInterrupted, want: "timed out"},
		{name: "max of range 2^62", body: "return max(range(1 << 62))", wantIs: scripting.ErrInterrupted, want: "timed out"},
		{name: "min out of steps", body: "return min(range(1 << 62))", timeout: time.Minute, limits: scripting.Limits{MaxSteps: 5_000_000}, want: "min: too many steps"},
		{name: "all of range 2^62", body: "return all(range(1, 1 << 62))", wantIs: scripting.ErrInterrupted},
		{name: "any of a long range", body: "return hook.respond(any([False] * 1000000 + [True]))", timeout: time.Minute},
		{name: "copies of a big string, reversed", body: "big = 'x' * (1 << 20)\nkeep = []\nfor _ in range(1000):\n    keep.append(big[::-1])\nreturn len(keep)",
			timeout: time.Minute, wantIs: scripting.ErrMemoryLimit, want: "str slice: 1048576 bytes: memory limit exceeded"},
		{name: "copies of a big list, sliced", body: "big = list(range(1 << 18))\nkeep = []\nfor _ in range(1000):\n    keep.append(big[:])\nreturn len(keep)",
			timeout: time.Minute, wantIs: scripting.ErrMemoryLimit, want: "list slice: 262144 elements: memory limit exceeded"},
		{name: "views of a string and a tuple are free", body: "s = fields['s']\nn = 0\nfor i in range(len(s)):\n    if s[i:].startswith('ab'):\n        n += 1\nt = tuple(range(12000))\nfor _ in range(len(t)):\n    t = t[1:]\nreturn hook.respond(n + len(t))",
			payload: map[string]any{"s": strings.Repeat("ab", 6000)}, timeout: time.Minute},
		{name: "a big list reversed, kept", body: "big = list(range(1 << 18))\nkeep = []\nfor _ in range(1000):\n    keep.append(big[::-1])\nreturn len(keep)",
			timeout: time.Minute, wantIs: scripting.ErrMemoryLimit, want: "list slice: 262144 elements: memory limit exceeded"},
		{name: "a slice whose index is computed", body: "big = list(range(1 << 18))\nkeep = []\nfor i in range(1000):\n    keep.append(big[i + 1:])\nreturn len(keep)",
			timeout: time.Minute, wantIs: scripting.ErrMemoryLimit, want: "list slice: 2621"},
		{name: "short slices of a big string", body: "big = 'x' * (1 << 20)\nkeep = []\nfor i in range(10000):\n    keep.append(big[i:i + 10] + big[-10:] + big[i * 2:i * 2 + 1])\nreturn hook.respond(len(keep))", timeout: time.Minute},
		{name: "appends without end", body: "l = []\nfor _ in range(1 << 30):\n    l.append(0)\nreturn len(l)", timeout: time.Minute, limits: metered,
			wantIs: scripting.ErrMemoryLimit, want: "list.append: 1 elements: memory limit exceeded"},
		{name: "set.add without end", body: "s = set()\nfor i in range(1 << 30):\n    s.add(i)\nreturn len(s)", timeout: time.Minute, limits: metered,
			wantIs: scripting.ErrMemoryLimit, want: "set.add: 1 entries: memory limit exceeded"},
		{name: "sorted range 2^25", body: "return sorted(range(1 << 25))", wantIs: scripting.ErrMemoryLimit, want: "sorted: 33554432 elements: memory limit exceeded: this call would allocate more than 64MiB"},
		{name: "sorted range 2^62", body: "return sorted(range(1 << 62))", wantIs: scripting.ErrMemoryLimit, want: "sorted: 4611686018427387904 elements"},
		{name: "list range 2^30", body: "return list(range(1 << 30))", wantIs: scripting.ErrMemoryLimit, want: "list: 1073741824 elements"},
		{name: "tuple range 2^62", body: "return tuple(range(1 << 62))", wantIs: scripting.ErrMemoryLimit},
		{name: "reversed range 2^40", body: "return reversed(range(1 << 40))", wantIs: scripting.ErrMemoryLimit},
		{name: "set range 2^30", body: "return set(range(1 << 30))", wantIs: scripting.ErrMemoryLimit},
		{name: "dict of range", body: "return dict(range(1 << 40))", wantIs: scripting.ErrMemoryLimit},
		{name: "enumerate range 2^62", body: "return enumerate(range(1 << 62))", wantIs: scripting.ErrMemoryLimit},
		{name: "zip ranges", body: "return zip(range(1 << 62), range(1 << 61))", wantIs: scripting.ErrMemoryLimit},
		{name: "bytes of range", body: "return bytes(range(1 << 40))", wantIs: scripting.ErrMemoryLimit},
		{name: "budget spans builtins", body: "a = list(range(3000000))\nb = list(range(3000000))\nreturn len(a) + len(b)", timeout: time.Minute, wantIs: scripting.ErrMemoryLimit, want: "list: 3000000 elements"},
		// The top level that builds L gets minutes: under -race on a loaded
		// machine it passed the default 5 s, and the case is about sorted.
		{name: "sorted past the deadline", prelude: "L = list(reversed(range(1000000)))", body: "return sorted(L)", timeout: 20 * time.Millisecond, wantIs: scripting.ErrInterrupted,
			limits: scripting.Limits{InitTimeout: 2 * time.Minute}},
		{name: "str of a 300000-deep list", prelude: deep, body: "return str(x)", want: "str: the value nests deeper than 1000 levels"},
		{name: "repr of a 300000-deep list", prelude: deep, body: "return repr(x)", want: "repr: the value nests deeper than 1000 levels"},
		{name: "fail with a deep list", prelude: deep, body: "fail(x)", want: "fail: [[[[[[[[[[[["},
		{name: "str of shared sub-values", prelude: shared, body: "return str(t)", timeout: time.Minute, limits: scripting.Limits{MaxStringSize: 1 << 20}, want: "str: the text would be too long (more than 1MiB)"},
		{name: "str of shared sub-values, interrupted", prelude: shared, body: "return str(t)", wantIs: scripting.ErrInterrupted},
		{name: "return shared sub-values", prelude: shared, body: `return {"action": "modify", "fields": {"t": t}}`, wantIs: scripting.ErrMemoryLimit, want: "bad return value: memory limit exceeded"},
		{name: "modify with shared sub-values", prelude: shared, body: `return hook.modify({"t": t})`, wantIs: scripting.ErrMemoryLimit, want: "hook.modify: argument 1 (fields): memory limit exceeded"},
		{name: "return shared tuples", body: "u = ()\nfor _ in range(40):\n    u = (u, u)\nreturn hook.respond(u)", want: "h.star:6: hook \"h.star:h\": tuple: hashing the tuple would visit more than 4194304 elements (it repeats sub-tuples or long strings); a call that may allocate 64MiB builds none heavier"},
		{name: "json.encode shared sub-values", prelude: shared, body: `return hook.respond(json.encode(t))`, wantIs: scripting.ErrMemoryLimit, want: "json.encode"},
		{name: "list.extend of a range", body: "l = []\nl.extend(range(1 << 62))\nreturn len(l)", timeout: time.Minute, limits: metered, want: "iterating range: memory limit exceeded: this call would allocate more than " + budgetText},
		{name: "+= a range", body: "l = []\nl += range(1 << 62)\nreturn len(l)", timeout: time.Minute, limits: metered, want: "iterating range: memory limit exceeded"},
		{name: "set.update of a range", body: "s = set()\ns.update(range(1 << 62))\nreturn len(s)", timeout: time.Minute, limits: metered, want: "iterating range: memory limit exceeded"},
		{name: "set.difference of a range", body: "return len(set([1]).difference(range(1 << 62)))", timeout: time.Minute, limits: metered, want: "iterating range: memory limit exceeded"},
		{name: "*args of a range", body: "print(*range(1 << 62))", timeout: time.Minute, limits: metered, want: "memory limit exceeded: this call would allocate more than " + budgetText},
		// 500,000 elements at even 8 bytes each would pass the 2 MiB budget
		// if the loop were charged (as in TestHostileGlobalRanges).
		{name: "a for loop over a range is not charged", body: "n = 0\nfor i in range(500000):\n    n += 1\nfor i in range(1 << 62):\n    if i > 10:\n        break\nreturn hook.respond(n)",
			timeout: time.Minute, limits: scripting.Limits{MaxCallMemory: 2 << 20}},
		{name: "repeat past go.starlark.net's bound", body: "return [0] * (1 << 30)", want: "excessive repeat"},
		{name: "string repeat past the bound", body: `return "ab" * (1 << 30)`, want: "excessive repeat"},
		// hashing: a tuple too heavy to hash is never built
		{name: "dict key of shared tuples", body: "u = ()\nfor _ in range(40):\n    u = (u, u)\nreturn hook.respond(len({u: 1}))", want: "tuple: hashing the tuple would visit more than 4194304 elements"},
		{name: "*args that double", body: "def f(*a):\n    return a\nu = ()\nfor _ in range(40):\n    u = f(u, u)\nreturn hook.respond(u in {})", want: "*args: hashing the tuple would visit more than 4194304 elements"},
		{name: "lambda *args that double", body: "f = lambda *a: a\nu = ()\nfor _ in range(40):\n    u = f(u, u)\nreturn hook.respond(u in {})", want: "*args: hashing the tuple"},
		{name: "dict.items pairs that double", body: "u = ()\nfor _ in range(40):\n    d = {u: u}\n    u = d.items()[0]\nreturn hook.respond(u in {})", timeout: time.Minute, want: "dict.items: hashing the tuple"},
		{name: "tuple * int that doubles", body: "u = ()\nfor _ in range(40):\n    u = (u,) * 2\nreturn hook.respond(u in {})", want: "tuple * int: hashing the tuple"},
		{name: "tuple + tuple that doubles", body: "u = ()\nfor _ in range(40):\n    u = (u,) + (u,)\nreturn hook.respond(u in {})", want: "tuple: hashing the tuple"}, // the compiler folds (u,) + (u,) into (u, u)
		{name: "tuple + tuple of names that doubles", body: "u = ()\nfor _ in range(40):\n    v = (u,)\n    u = v + v\nreturn hook.respond(u in {})", want: "tuple + tuple: hashing the tuple"},
		{name: "tuple() that doubles", body: "u = ()\nfor _ in range(40):\n    u = tuple([u, u])\nreturn hook.respond(u in {})", want: "tuple: hashing the tuple"},
		{name: "zip rows that double", body: "u = ()\nfor _ in range(40):\n    u = zip([u], [u])[0]\nreturn hook.respond(u in {})", want: "zip: hashing the tuple"},
		{name: "a long string many times in a tuple", body: "big = \"x\" * (1 << 20)\nt = (big,) * 1000\nreturn hook.respond(t in {})", want: "tuple * int: hashing the tuple"},
		{name: "a cons list of tuples hashes", body: "acc = ()\nfor i in range(100000):\n    acc = (i, acc)\nreturn hook.respond(len({acc: 1}))", timeout: time.Minute},
		{name: "set.union of one heavy tuple many times", body: "u = ()\nfor _ in range(9):\n    u = (u,) * 5\nreturn hook.respond(len(set().union([u] * 2000)))", timeout: time.Minute, want: "set.union: hashing its elements would visit more than 4194304 elements"},
		{name: "set() of one heavy tuple many times", body: "u = ()\nfor _ in range(9):\n    u = (u,) * 5\nreturn hook.respond(len(set([u] * 2000)))", timeout: time.Minute, want: "set: hashing its elements would visit more than 4194304 elements"},
		{name: "dict.update of one heavy key many times", body: "u = ()\nfor _ in range(9):\n    u = (u,) * 5\nd = {}\nd.update([(u, 1)] * 2000)\nreturn hook.respond(len(d))", timeout: time.Minute, want: "dict.update: hashing its elements would visit more than 4194304 elements"},
		{name: "set.issuperset of one long string many times", body: "big = \"x\" * (1 << 20)\nreturn hook.respond(set([big]).issuperset([big] * 1000000))", timeout: time.Minute, want: "set.issuperset: hashing its elements"},
		{name: "d.items taken as a value", body: "u = ()\nfor _ in range(40):\n    d = {u: u}\n    f = d.items\n    u = f()[0]\nreturn hook.respond(u in {})", timeout: time.Minute, want: "dict.items: hashing the tuple"},
		{name: "getattr(d, \"items\")", body: "u = ()\nfor _ in range(40):\n    d = {u: u}\n    u = getattr(d, \"items\")()[0]\nreturn hook.respond(u in {})", timeout: time.Minute, want: "dict.items: hashing the tuple"},
		{name: "list.index taken as a value", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\ni = [l].index\nreturn hook.respond(i(l))", wantIs: scripting.ErrInterrupted},
		{name: "set | set of heavy tuples", body: "u = ()\nfor _ in range(19):\n    u = (u, u)\ns = set()\nfor i in range(5):\n    s.add((i, u))\nreturn hook.respond(len(s | s))", timeout: time.Minute, want: "set | set: hashing its elements would visit more than 4194304 elements"},
		// comparing: metered, so the deadline ends it
		{name: "== of shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\nreturn hook.respond(l == l)", wantIs: scripting.ErrInterrupted},
		{name: "< of shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\nreturn hook.respond(l < l)", wantIs: scripting.ErrInterrupted},
		{name: "in of shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\nreturn hook.respond(l in [l])", wantIs: scripting.ErrInterrupted},
		{name: "== of dicts of shared lists", body: "l = [0]\nfor _ in range(7):\n    l = [l] * 1000\nreturn hook.respond({\"a\": l} == {\"a\": l})", wantIs: scripting.ErrInterrupted},
		{name: "list.index of shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\nreturn hook.respond([l].index(l))", wantIs: scripting.ErrInterrupted},
		{name: "list.remove of shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\n[l].remove(l)", wantIs: scripting.ErrInterrupted},
		{name: "sorted shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\nreturn hook.respond(sorted([l, l]))", wantIs: scripting.ErrInterrupted},
		{name: "max of shared lists", body: "l = [0]\nfor _ in range(8):\n    l = [l] * 1000\nreturn hook.respond(max(l, l))", wantIs: scripting.ErrInterrupted},
		{name: "a long string among many equal ones", body: "big = \"x\" * (1 << 20)\nother = \"x\" * ((1 << 20) - 1) + \"y\"\nl = [big] * 1000000\nreturn hook.respond(other in l)", wantIs: scripting.ErrInterrupted},
		{name: "a cycle stays an error", body: "l = []\nl.append(l)\nreturn hook.respond(l)", want: "contains itself"},
	} {
		t.Run(tc.name, tc.run)
	}
}

// A payload of 120,000 fields binds to **kwargs: the field names are
// sorted in O(n log n), not by insertion. The insertion sort took 9 s of
// CPU for this payload; the binding now takes about 0.1 s (see
// BenchmarkKwargsOfAWidePayload), well within the default one-second
// budget. The test allows 5 s, so that a machine loaded many times over
// cannot fail it while a quadratic binding still does.
func TestKwargsOfAWidePayload(t *testing.T) {
	payload := make(map[string]any, 120_000)
	for i := range 120_000 {
		payload[fmt.Sprintf("field%06d", i)] = int64(i)
	}
	out, err := hostileCall(t, hookSrc("", `return hook.respond([len(fields), fields["field000000"], fields["field119999"]])`), payload, raceSlowdown*5*time.Second, scripting.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"action": "respond", "result": []any{int64(120_000), int64(0), int64(119_999)}}
	if !stdlib.Equal(out, want) {
		t.Fatalf("got %v, want %v", out, want)
	}
}

// Binding a payload is charged to the call's budget.
func TestPayloadConversionIsCharged(t *testing.T) {
	big := make([]any, 100_000)
	for i := range big {
		big[i] = map[string]any{"k": int64(i)}
	}
	src := hookSrc("", "return hook.respond(len(fields))")
	_, err := hostileCall(t, src, map[string]any{"big": big}, time.Minute, scripting.Limits{MaxCallMemory: 1 << 20})
	if !errors.Is(err, scripting.ErrMemoryLimit) || !strings.Contains(err.Error(), "binding the payload: memory limit exceeded: this call would allocate more than 1MiB") {
		t.Fatalf("want a memory-limit error while binding, got %v", err)
	}
	if _, err := hostileCall(t, src, map[string]any{"big": big}, time.Minute, scripting.Limits{}); err != nil {
		t.Fatalf("under the default budget: %v", err)
	}
}

// A global that shares tuples exponentially would take go.starlark.net's
// Freeze 2^40 visits: the file fails to load instead, and one that
// shares only a little loads.
func TestFreezingSharedTuples(t *testing.T) {
	for _, tc := range []struct {
		levels int
		want   string
	}{
		{levels: 40, want: "h.star: global u holds a value that shares tuples so much that freezing it would visit more than 10000000 elements"},
		{levels: 10},
	} {
		src := fmt.Sprintf("u = ()\nfor _ in range(%d):\n    u = (u, [u], lambda x = u: x)\n\ndef h():\n    pass\n\nhook.on(\"e\", h)\n", tc.levels)
		_, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "h.star", Code: []byte(src)}, &scripting.Env{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%d levels: %v", tc.levels, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%d levels: got %v, want %s", tc.levels, err, tc.want)
		}
	}
}

func BenchmarkKwargsOfAWidePayload(b *testing.B) {
	payload := make(map[string]any, 120_000)
	for i := range 120_000 {
		payload[fmt.Sprintf("field%06d", i)] = int64(i)
	}
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "k.star", Code: []byte("def h(**f):\n    return len(f)\n\nhook.on(\"e\", h)\n")}, &scripting.Env{})
	if err != nil {
		b.Fatal(err)
	}
	fn := p.Hooks()[0].Func
	for b.Loop() {
		if _, err := fn.Call(&scripting.Call{Payload: payload, Hook: "k.star:h", Timeout: time.Minute}); err != nil {
			b.Fatal(err)
		}
	}
}

// A file's top level is metered like a call: its builtins stop at the
// initialisation timeout and charge the same budget. Only the case that
// wants the timeout has a short one (200ms); the others have one a busy
// machine cannot reach, so that their own bound, or their success, is
// what ends them.
func TestTopLevelIsMetered(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		timeout   time.Duration
	}{
		{"x = min(range(1 << 62))", "top.star:1: min: interrupted at its deadline", 200 * time.Millisecond},
		{"x = list(range(1 << 30))", "list: 1073741824 elements: memory limit exceeded: this call would allocate more than 64MiB", time.Minute},
		{"x = str([[[1]]] * 10) + repr(set([1]))", "", time.Minute},
		{"u = ()\nfor _ in range(40):\n    u = (u, u)", "top.star:3: tuple: hashing the tuple would visit more than 4194304 elements", time.Minute},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "top.star", Code: []byte(tc.src)},
				&scripting.Env{Limits: scripting.Limits{InitTimeout: tc.timeout}})
			done <- err
		}()
		select {
		case err := <-done:
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s: %v", tc.src, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s: got %v, want an error containing %q", tc.src, err, tc.want)
			}
		case <-time.After(tc.timeout + returnSlack):
			t.Fatalf("%s: the top level did not stop within %v of its timeout", tc.src, returnSlack)
		}
	}
}
