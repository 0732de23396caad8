package starlark

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
)

// growCall compiles src (one hook on "e") and returns a caller of it.
func growCall(t *testing.T, src string, limits scripting.Limits) func() (any, error) {
	t.Helper()
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "g.star", Code: []byte(src)}, &scripting.Env{Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	fn := p.Hooks()[0].Func
	return func() (any, error) {
		out, err := fn.Call(&scripting.Call{Payload: map[string]any{}, Event: "e", Hook: "g.star:h", Config: map[string]any{},
			Timeout: time.Minute, Deadline: time.Now().Add(time.Minute)})
		return scripting.AsNeutral(out), err
	}
}

// TestStoredRangeIteratedByEveryCall: a range the top level appends to a
// list is iterated whole by every later call. (Metering append once
// handed the list a range charged to the top level's finished call, and
// later loops over it stopped early, silently, once that budget was
// spent.)
func TestStoredRangeIteratedByEveryCall(t *testing.T) {
	call := growCall(t, `
G = []
G.append(range(100000))
L = [0]
L.insert(0, range(3))
D = {}
D.setdefault("r", range(5))

def h():
    n = 0
    for x in G[0]:
        n += 1
    n += len([y for y in L[0]])
    return hook.respond(n + len(list(D["r"])))

hook.on("e", h)
`, scripting.Limits{})
	for i := range 40 {
		out, err := call()
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if got := out.(map[string]any)["result"]; got != int64(100008) {
			t.Fatalf("call %d counted %v, want 100008", i, got)
		}
	}
}

// TestAddingWhatIsThereIsFree: set.add and dict.setdefault of a key
// already there allocate nothing and are charged nothing, so a loop that
// deduplicates runs within a small budget.
func TestAddingWhatIsThereIsFree(t *testing.T) {
	call := growCall(t, `
def h():
    s = set()
    d = {}
    for i in range(200000):
        s.add(i % 10)
        d.setdefault(i % 10, i)
    return hook.respond(len(s) + len(d))

hook.on("e", h)
`, scripting.Limits{MaxCallMemory: 1 << 20})
	out, err := call()
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(map[string]any)["result"]; got != int64(20) {
		t.Fatalf("got %v, want 20", got)
	}
}

// TestRangeSliceThatOverflows: a slice of a range that spans 64-bit
// integers fails instead of making a range whose step wrapped to 0 (whose
// use then divided by zero).
func TestRangeSliceThatOverflows(t *testing.T) {
	call := growCall(t, `
def h():
    R = range(-(1 << 62), 1 << 62, 1 << 40)
    ok = len(R[::2]) + len(R[1:3])
    return hook.respond(5 in R[::-(1 << 30)])

hook.on("e", h)
`, scripting.Limits{})
	_, err := call()
	if err == nil || !strings.Contains(err.Error(), "range slice: the new range does not fit in 64-bit integers") {
		t.Fatalf("error %v", err)
	}
}

// TestRangeTooLong: a range whose length does not fit in an int is
// refused instead of getting a length that wrapped.
func TestRangeTooLong(t *testing.T) {
	call := growCall(t, `
def h():
    x = range(-(1 << 62), 1 << 62)
    return hook.respond(str(x[::4]))

hook.on("e", h)
`, scripting.Limits{})
	_, err := call()
	if err == nil || !strings.Contains(err.Error(), "range: more than 9223372036854775807 elements") {
		t.Fatalf("error %v", err)
	}
	call = growCall(t, `
def h():
    return hook.respond(len(range(-(1 << 62), (1 << 62) - 1, 2)) == (1 << 62))

hook.on("e", h)
`, scripting.Limits{})
	out, err := call()
	if err != nil || out.(map[string]any)["result"] != true { // a range of 2^62 elements over the widest span that fits
		t.Fatalf("%v %v", out, err)
	}
}
