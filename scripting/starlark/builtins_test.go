package starlark

import (
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// evalWith evaluates expr on a thread metered like a hook call, with the
// given predeclared names (nil: go.starlark.net's own builtins only).
func evalWith(t *testing.T, env starlark.StringDict, expr string) (string, string) {
	t.Helper()
	limits := scripting.Limits{}.Or()
	ct := &callThread{limits: &limits, call: &scripting.Call{Hook: "t.star:h"}}
	ct.thread.SetLocal(callKey, ct)
	var printed string
	ct.thread.Print = func(_ *starlark.Thread, msg string) { printed = msg }
	v, err := starlark.EvalOptions(&fileOptions, &ct.thread, "t.star", expr, env)
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*starlark.EvalError); ok {
			msg = ee.Msg
		}
		return "", msg
	}
	return v.String() + printed, ""
}

// TestBuiltinsMatchTheOriginals runs ordinary inputs through hookhost's
// builtins and go.starlark.net's, expecting the same value or the same
// error.
func TestBuiltinsMatchTheOriginals(t *testing.T) {
	ours := predeclared(hookModule(&scripting.Env{}))
	for _, expr := range []string{
		`list()`, `list([1, 2])`, `list((1, 2))`, `list("ab".elems())`, `list({"a": 1, "b": 2})`, `list(set([3, 1]))`, `list(range(5))`, `list(1)`, `list([1], [2])`,
		`tuple()`, `tuple([1])`, `tuple(range(3))`, `tuple({"x": 1})`, `tuple(1)`,
		`reversed([1, 2, 3])`, `reversed(range(4))`, `reversed("ab".elems())`, `reversed([])`, `reversed()`, `reversed(1)`,
		`set()`, `set([1, 2, 1])`, `set(range(3))`, `set([[1]])`, `set(1)`,
		`any([])`, `any([0, "", 1])`, `any([0, ""])`, `all([])`, `all([1, 0])`, `all([1, "x"])`, `any(1)`, `all()`,
		`enumerate(["a", "b"])`, `enumerate(["a"], 5)`, `enumerate("ab".elems(), start = 2)`, `enumerate(1)`, `enumerate({"k": 1})`,
		`zip()`, `zip([1, 2], "ab".elems())`, `zip([1, 2, 3], [4])`, `zip([1], 2)`, `zip([1], x = 2)`, `zip(range(3), range(5), range(4))`,
		`dict()`, `dict([("a", 1), ("b", 2)])`, `dict({"a": 1}, b = 2)`, `dict(a = 1, b = 2)`, `dict([("a", 1)], a = 2)`, `dict(1)`, `dict([1])`, `dict([(1, 2, 3)])`, `dict([[1]])`, `dict({}, {})`, `dict([["k", "v"]])`, `dict([[1], (2, 3)])`,
		`min(3, 1, 2)`, `max(3, 1, 2)`, `min([3, 1])`, `max("ab".elems())`, `min([])`, `max()`, `min(1)`, `min([1, "a"])`, `max(["ab", "b", "aaa"], key = len)`, `min(["ab", "b", "c"], key = len)`, `min([1], key = 1)`, `max([1, 2], x = 1)`, `max([2, 1, 2])`,
		`sorted([3, 1, 2])`, `sorted([3, 1, 2], reverse = True)`, `sorted(["bb", "a", "ccc", "dd"], key = len)`, `sorted(["bb", "a", "ccc", "dd"], key = len, reverse = True)`, `sorted([1, "a"])`, `sorted([])`, `sorted(1)`, `sorted({"b": 1, "a": 2})`, `sorted([(2, "a"), (1, "b"), (2, "A")])`, `sorted([3, 1], None)`,
		`str(1)`, `str("x")`, `str(b"x\xff")`, `str([1, "a", None, True, 1.5])`, `str((1,))`, `str(())`, `str({"a": [1, (2, 3)]})`, `str(set([1, 2]))`, `str(len)`, `str(range(3))`, `str(lambda x: x)`, `str([].append)`, `str()`, `str(1, 2)`, `str(x = 1)`,
		`repr("a\n\"b")`, `repr([{"k": ("v",)}])`, `repr(b"\x00")`, `repr(1.0)`, `repr()`,
		`bytes([65, 66])`, `bytes("ab")`, `bytes(b"x")`, `bytes(range(3))`, `bytes([256])`, `bytes(1)`,
		`print("a", 1, [2], b"c")`, `print("a", "b", sep = "-")`, `print()`, `print(x = 1)`,
		`range(5)`, `range(1, 10, 3)`, `list(range(10, 1, -2))`, `range(0)`, `range(1, 2, 0)`, `range("a")`, `range()`, `range(1, 2, 3, 4)`,
		`3 in range(1, 10, 2)`, `4 in range(1, 10, 2)`, `-3 in range(0, -10, -3)`, `"a" in range(3)`, `range(5) == range(0, 5)`, `range(0) == range(2, 1)`,
		`range(1, 2) == range(1, 5, 9)`, `range(1, 10)[2:5]`, `list(range(10)[::-2])`, `range(3) < range(4)`, `len(range(1, 100, 7))`, `str(range(2, 3))`,
		`bool(range(0))`, `{range(2): 1}`, `range(5)[7]`, `range(5)[-1]`, `[x * 2 for x in range(4)]`, `[1] + list(range(3))`, `type(range(1))`, `zip(range(3), "ab".elems())`,
		`fail("boom", 1, [2])`, `fail("a", "b", sep = ",")`, `fail(b"x")`, `fail()`,
		`sorted([[2, [1]], [2, [0]], [1]])`, `sorted([(1, [2]), (1, [1])], reverse = True)`, `sorted([[1], (1,)])`, `sorted([{"a": 1}, {"a": 1}])`, `sorted([[1, "a"], [1, 2]])`,
		`max([[1], [1, 0], [0, 9]])`, `min([1], [0, 2])`, `max([[1]], key = lambda x: x + [0])`, `min([[1], [2]], key = lambda x: (x, x))`, `max([1], "a")`,
		`getattr([1], "index")(1)`, `getattr("a", "upper")()`, `getattr({}, "nosuch", 3)`, `getattr({}, "nosuch")`, `getattr(1)`, `str(getattr({}, "items"))`,
		`tuple([(1,), [2]])`, `zip([(1,)], [(2,)])`, `enumerate([(1, 2)])`, `{tuple([1, 2]): 1}`, `{zip([1], [2])[0]: 3}`,
	} {
		want, wantErr := evalWith(t, nil, expr)
		got, gotErr := evalWith(t, ours, expr)
		if got != want || gotErr != wantErr {
			t.Errorf("%s:\n got  %q, error %q\n want %q, error %q", expr, got, gotErr, want, wantErr)
		}
	}
}

// Cyclic values are written the way go.starlark.net writes them.
func TestReprOfCycles(t *testing.T) {
	ours := predeclared(hookModule(&scripting.Env{}))
	src := `
l = [1]
l.append(l)
d = {"a": 1}
d["self"] = d
d["l"] = l
`
	for _, expr := range []string{`str(l)`, `repr(d)`, `str([l, l])`, `str((l, d))`} {
		run := func(env starlark.StringDict) string {
			limits := scripting.Limits{}.Or()
			ct := &callThread{limits: &limits, call: &scripting.Call{}}
			ct.thread.SetLocal(callKey, ct)
			globals, err := starlark.ExecFileOptions(&syntax.FileOptions{}, &ct.thread, "c.star", src+"out = "+expr, env)
			if err != nil {
				t.Fatal(err)
			}
			return globals["out"].String()
		}
		if got, want := run(ours), run(nil); got != want {
			t.Errorf("%s: got %s, want %s", expr, got, want)
		}
	}
}

// BenchmarkBuiltins compares hookhost's builtins with go.starlark.net's
// on ordinary input: a 1,000-element list, a small dict.
func BenchmarkBuiltins(b *testing.B) {
	const setup = "L = list(range(1000))\nR = [(i * 7919) % 1000 for i in range(1000)]\nD = {\"tool\": \"bash\", \"params\": {\"command\": \"ls -la\", \"args\": [1, 2, 3]}}\n"
	for _, expr := range []string{"[x for x in range(1000)]", "sorted(R)", "min(L)", "list(L)", "str(D)", "dict(D)", "any(L)", "enumerate(L)"} {
		for _, impl := range []struct {
			name string
			env  starlark.StringDict
		}{{"original", starlark.StringDict{}}, {"hookhost", predeclared(hookModule(&scripting.Env{}))}} {
			b.Run(expr+"/"+impl.name, func(b *testing.B) {
				limits := scripting.Limits{}.Or()
				ct := &callThread{limits: &limits, call: &scripting.Call{}}
				ct.thread.SetLocal(callKey, ct)
				globals, err := starlark.ExecFileOptions(&fileOptions, &ct.thread, "b.star", setup, impl.env)
				if err != nil {
					b.Fatal(err)
				}
				env := starlark.StringDict{}
				for k, v := range impl.env {
					env[k] = v
				}
				for k, v := range globals {
					env[k] = v
				}
				prog, err := starlark.ExprFuncOptions(&fileOptions, "b.star", expr, env)
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					ct.call = &scripting.Call{}
					if _, err := starlark.Call(&ct.thread, prog, nil, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
