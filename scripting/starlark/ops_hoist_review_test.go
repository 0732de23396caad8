package starlark

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib/std"
)

// hoistedCount is the number of decisions the rewrite hoists out of src,
// with the engine's own predeclared names.
func hoistedCount(t *testing.T, src string) int {
	t.Helper()
	f, err := fileOptions.Parse("r.star", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pre := predeclared(hookModule(&scripting.Env{}))
	rewriteOps(f, func(n string) bool { return pre.Has(n) }, func(string) bool { return false }, hoistableConstructors(pre))
	n := 0
	for _, st := range f.Stmts {
		if a, ok := st.(*syntax.AssignStmt); ok {
			if id, ok := a.LHS.(*syntax.Ident); ok && strings.HasPrefix(id.Name, hoistPrefix) {
				n++
			}
		}
	}
	return n
}

// TestReviewHoistScoping: every way a file can bind the name hook turns
// hoisting off for the whole file.
func TestReviewHoistScoping(t *testing.T) {
	const use = "def h():\n    return hook.deny('x')\n"
	if n := hoistedCount(t, use); n != 1 {
		t.Fatalf("the plain use hoists %d, want 1", n)
	}
	for _, bind := range []string{
		"hook = 1",
		"hook += 1",
		"hook, y = 1, 2",
		"[hook] = [1]",
		"(hook) = 1",
		"for hook in []:\n    pass",
		"x = [1 for hook in []]",
		"x = {k: 1 for k, hook in []}",
		"x = lambda hook: 1",
		"x = lambda *hook: 1",
		"x = lambda **hook: 1",
		"x = lambda hook = 1: 1",
		"def f(hook):\n    pass",
		"def f(*hook):\n    pass",
		"def f(**hook):\n    pass",
		"def f(a, *, hook = 1):\n    pass",
		"def hook():\n    pass",
		"def f():\n    def g(hook):\n        pass",
		"def f():\n    hook = 1",
		"def f():\n    for hook in []:\n        pass",
		"def f():\n    return [hook for hook in []]",
		"load('json', hook = 'json')",
		"load('json', 'hook')",
		"if True:\n    hook = 1",
		"while False:\n    hook = 1",
	} {
		for _, src := range []string{use + bind + "\n", bind + "\n" + use} {
			if n := hoistedCount(t, src); n != 0 {
				t.Errorf("%q hoists %d decisions, want none", src, n)
			}
		}
	}
}

// hoistOff appends a binding of hook that changes nothing else, so that
// the same file runs without hoisting.
const hoistOff = "\ndef _hoist_off(hook):\n    pass\n"

// runAll compiles src and calls its only hook with each mode, describing
// every outcome as a string.
func runAll(src string, modes []string) []string {
	env := &scripting.Env{Modules: std.Modules(std.Options{})}
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "r.star", Code: []byte(src)}, env)
	if err != nil {
		return []string{"compile: " + err.Error()}
	}
	var out []string
	for _, mode := range modes {
		for _, hk := range p.Hooks() {
			v, err := hk.Func.Call(&scripting.Call{Hook: "r.star:h", Timeout: time.Second, Payload: map[string]any{"mode": mode}})
			out = append(out, fmt.Sprintf("%s: %v %v", mode, scripting.AsNeutral(v), err))
		}
	}
	return out
}

// TestReviewHoistInvisible: a file behaves the same with and without
// hoisting — its load errors and their lines, its calls' results and
// errors (with their lines) — but for == between decisions.
func TestReviewHoistInvisible(t *testing.T) {
	modes := []string{"plain", "add", "key", "attr", "set", "type", "default", "lambda", "nested", "stop", "json", "list", "int", "none"}
	const body = `
def h(mode, d = hook.deny("default")):
    if mode == "plain":
        return hook.deny("x")
    if mode == "add":
        return hook.deny("x") + 1
    if mode == "key":
        return hook.deny("x")["nope"]
    if mode == "attr":
        return hook.deny("x").reason
    if mode == "set":
        hook.deny("x")["reason"] = "y"
    if mode == "type":
        return hook.respond([type(hook.deny("x")), str(hook.allow()), repr(hook.hard_abort("z")), "action" in hook.allow()])
    if mode == "default":
        return d
    if mode == "lambda":
        return (lambda: hook.abort_turn("l"))()
    if mode == "nested":
        def g(e = hook.deny("n")):
            return e
        return g()
    if mode == "stop":
        return hook.stop(hook.deny("x"))
    if mode == "json":
        return hook.respond(json.encode([hook.deny("x"), hook.allow("why")]))
    if mode == "list":
        return hook.respond({"l": [hook.deny("x")] * 3})
    if mode == "int":
        return hook.deny(1)
    return hook.deny()

hook.on("e", h)
`
	const builtins = `
def h(mode):
    if mode == "get":
        return hook.deny("x").get("reason")
    if mode == "getattr":
        return getattr(hook.deny("x"), "reason")
    if mode == "hasattr":
        return hook.respond([hasattr(hook.deny("x"), "reason"), dir(hook.deny("x")), bool(hook.deny("x"))])
    if mode == "len":
        return len(hook.deny("x"))
    if mode == "hash":
        return hash(hook.deny("x"))
    if mode == "key":
        return {hook.deny("x"): 1}
    if mode == "set":
        return set([hook.deny("x")])
    if mode == "sorted":
        return sorted([hook.deny("x"), hook.deny("x")])
    if mode == "lt":
        return hook.deny("x") < hook.deny("x")
    if mode == "iter":
        return [k for k in hook.deny("x")]
    if mode == "index":
        return {"k": [hook.deny("x")]}["k"][0]["reason"]
    if mode == "str":
        return hook.respond("%s %r" % (hook.deny("x"), hook.allow()) + str([hook.deny("x")]))
    if mode == "bind":
        return hook.deny("x")(1)

hook.on("e", h)
`
	modes = append(modes, "get", "getattr", "hasattr", "len", "hash", "sorted", "lt", "iter", "index", "str", "bind")
	for name, src := range map[string]string{
		"builtins":         builtins,
		"loads first":      "load(\"json\", \"json\")\n" + body,
		"top-level fail":   "load(\"json\", \"json\")\n" + body + "fail(\"boom\")\n",
		"unknown module":   "load(\"nope\", \"json\")\n" + body,
		"late load fails":  body + "load(\"nope\", \"json\")\n",
		"top-level unused": "load(\"json\", \"json\")\nx = hook.deny(\"x\")\n" + body,
	} {
		t.Run(name, func(t *testing.T) {
			if hoistedCount(t, src) == 0 {
				t.Fatal("nothing hoisted")
			}
			got, want := runAll(src, modes), runAll(src+hoistOff, modes)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("hoisted:\n%s\nnot hoisted:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestReviewHoistIdentity: decisions compare by content
// (scripting.Decision.Equal), so hoisting shows through nothing built on
// ==: !=, in, list.index, list.remove give the same hoisted or not.
func TestReviewHoistIdentity(t *testing.T) {
	const src = `
def h(mode):
    if mode == "index":
        return hook.respond([hook.deny("x")].index(hook.deny("x")))
    if mode == "remove":
        l = [hook.deny("x")]
        l.remove(hook.deny("x"))
        return hook.respond(len(l))
    return hook.respond([hook.deny("x") == hook.deny("x"), hook.deny("x") != hook.deny("x"),
                         hook.deny("x") in [hook.deny("x")], hook.deny("x") == hook.deny("y")])
hook.on("e", h)
`
	modes := []string{"cmp", "index", "remove"}
	got, want := strings.Join(runAll(src, modes), "\n"), strings.Join(runAll(src+hoistOff, modes), "\n")
	const same = "cmp: map[action:respond result:[true false true false]] <nil>\nindex: map[action:respond result:0] <nil>\nremove: map[action:respond result:0] <nil>"
	if got != same || want != same {
		t.Errorf("hoisted:\n%s\nnot hoisted:\n%s\nwant both:\n%s", got, want, same)
	}
}

// TestReviewHoistLiterals: the literal forms hoisted, and those not.
func TestReviewHoistLiterals(t *testing.T) {
	for src, want := range map[string]int{
		"def h():\n    return hook.deny('x',)":                                                 1, // trailing comma
		"def h():\n    return hook.deny(r'\\x')":                                               1,
		"def h():\n    return hook.deny(\"\"\"a\nb\"\"\")":                                     1,
		"def h():\n    return hook.deny('\\xff')":                                              -1, // a string literal cannot hold bytes that are not UTF-8
		"def h():\n    return hook.deny(('x'))":                                                0,  // parenthesised
		"def h():\n    return hook.deny(*['x'])":                                               0,
		"def h():\n    return hook.deny('x', **{})":                                            0,
		"def h():\n    return hook.allow('x')":                                                 1,
		"def h():\n    return [hook.allow('x'), hook.allow(), hook.deny('x'), hook.deny('x')]": 3,
		"def h():\n    return hook.ask('x')":                                                   0,
		"def h():\n    return hook.respond('x')":                                               0,
		"def h():\n    return hook.modify('x')":                                                0,
		"def h():\n    return hook.message('x')":                                               0,
		"def h():\n    return hook.stop()":                                                     0,
		"def h():\n    return hook.fire('x')":                                                  0,
		"def h():\n    return hook.on('x')":                                                    0,
	} {
		if _, err := fileOptions.Parse("r.star", src, 0); (err != nil) != (want < 0) {
			t.Errorf("%q: parse error %v", src, err)
			continue
		} else if err != nil {
			continue
		}
		if got := hoistedCount(t, src); got != want {
			t.Errorf("%q hoists %d, want %d", src, got, want)
		}
	}
}

// identityUse matches what can tell a hoisted decision from a built one:
// comparisons and what is built on them.
var identityUse = regexp.MustCompile(`==|!=|\bin\b|\.index|\.remove|\.count`)

// FuzzHoistInvisible: a file gives the same outcomes with hoisting and
// without (a harmless binding of hook turns it off), unless it compares
// values or runs into the step or memory budget, which hoisting spends
// differently.
func FuzzHoistInvisible(f *testing.F) {
	for _, seed := range []string{
		"def h(mode):\n    return hook.deny('x')\nhook.on('e', h)",
		"def h(mode, d = hook.deny('d')):\n    return [d, hook.allow(), hook.allow('a')][len(mode) % 3]\nhook.on('e', h)",
		"h = lambda mode: hook.stop(hook.abort_turn('x'))\nhook.on('e', h)",
		"def h(mode):\n    x = hook.hard_abort('x')\n    return x['reason'] + 1\nhook.on('e', h)",
		"load('json', 'json')\ndef h(mode):\n    return hook.respond(json.encode({'a': hook.deny('x')}))\nhook.on('e', h)",
		"def h(mode):\n    def g():\n        return hook.deny('''x\ny''')\n    return g()\nhook.on('e', h)\nfail(1)",
		"def h(mode):\n    return hook.deny(r'\\x')\nhook.on('e', h)\nh('')",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 400 || identityUse.MatchString(src) {
			return
		}
		if _, err := fileOptions.Parse("r.star", src, 0); err != nil {
			return
		}
		if _, err := fileOptions.Parse("r.star", src+hoistOff, 0); err != nil {
			return
		}
		modes := []string{"", "a", "ab"}
		got, want := strings.Join(runAll(src, modes), "\n"), strings.Join(runAll(src+hoistOff, modes), "\n")
		for _, budget := range []string{"too many steps", scripting.ErrMemoryLimit.Error(), "_hoist_off"} {
			if strings.Contains(got, budget) || strings.Contains(want, budget) {
				return
			}
		}
		if got != want {
			t.Errorf("%q:\nhoisted     %s\nnot hoisted %s", src, got, want)
		}
	})
}

// TestReviewHoistMemoryCharge: a hoisted decision is no longer charged
// to the call (160 bytes a construction), so a loop that built 10,000
// of them under a 1 MiB call budget failed and now succeeds: the one
// difference hoisting makes to limits, in the lenient direction (the
// call really allocates nothing now).
func TestReviewHoistMemoryCharge(t *testing.T) {
	const src = "def h(mode):\n    for i in range(10000):\n        x = hook.deny('x')\n    return x\nhook.on('e', h)\n"
	var got []string
	for _, s := range []string{src, src + hoistOff} {
		env := &scripting.Env{Limits: scripting.Limits{MaxCallMemory: 1 << 20}}
		p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "r.star", Code: []byte(s)}, env)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Hooks()[0].Func.Call(&scripting.Call{Hook: "h", Timeout: time.Second, Payload: map[string]any{"mode": ""}})
		got = append(got, fmt.Sprint(err))
	}
	if got[0] != "<nil>" || !strings.Contains(got[1], "memory limit exceeded") {
		t.Errorf("hoisted: %s; not hoisted: %s", got[0], got[1])
	}
}
