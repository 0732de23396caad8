package starlark

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
	"github.com/hookhost/hookhost/stdlib/path"
)

// opsCall compiles a file whose hook h (registered on "e") has body,
// calls it with a memory budget of 1 MiB and returns what it returned.
func opsCall(t *testing.T, prelude, body string) (any, error) {
	t.Helper()
	src := "load(\"path\", \"path\")\n" + prelude + "\ndef h():\n" + indent(body) + "\n\nhook.on(\"e\", h)\n"
	env := &scripting.Env{Modules: []stdlib.Module{path.New()}, Limits: scripting.Limits{MaxCallMemory: 1 << 20}}
	p, err := Engine{}.Compile(context.Background(), scripting.Source{Name: "ops.star", Code: []byte(src)}, env)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	return p.Hooks()[0].Func.Call(&scripting.Call{Hook: "ops.star:h", Event: "e", Timeout: 10 * time.Second,
		Deadline: time.Now().Add(10 * time.Second)})
}

// TestOpsRefused: every bounded operator and method refuses a result
// past the budget before building it; the error names the file, the
// line of the operator, the hook, the operation and the limit.
func TestOpsRefused(t *testing.T) {
	const big = `big = "x" * (64 << 10)` // 64 KiB, within the budget
	for _, c := range []struct {
		name, prelude, body, op string // the refused operation is on the body's last line
	}{
		{"str * int", "", `return hook.message(str(len("x" * (1 << 29))))`, "string * int: 536870912 bytes"},
		{"int * str", "", `n = 1 << 29` + "\n" + `return hook.message(n * "x")`, "string * int: 536870912 bytes"},
		{"list * int", "", `return hook.message(str(len([0] * (1 << 28))))`, "list * int: 268435456 elements"},
		{"tuple * int", "", `return hook.message(str(len((0,) * (1 << 28))))`, "tuple * int: 268435456 elements"},
		{"bytes * int", "", `return hook.message(str(len(b"xy" * (1 << 28))))`, "bytes * int: 536870912 bytes"},
		{"s + s", "", "s = \"x\"\nfor _ in range(64):\n    s = s + s", "str + str"},
		{"a name that was a number", "", "s = 0\ns = \"x\"\nfor _ in range(64):\n    s = s + s", "str + str"},
		{"l + l", "", "l = [0]\nfor _ in range(64):\n    l = l + l", "list + list"},
		{"t + t", "", "t = (0,)\nfor _ in range(64):\n    t = t + t", "tuple + tuple"},
		{"b + b", "", "b = b\"x\"\nfor _ in range(64):\n    b = b + b", "bytes + bytes"},
		{"s += s", "", "s = \"x\"\nfor _ in range(64):\n    s += s", "str + str"},
		{"l += l", "", "l = [0]\nfor _ in range(64):\n    l += l", "list += list"},
		{"s *= 2", "", "s = \"x\"\nfor _ in range(64):\n    s *= 2", "string * int"},
		{"d[k] *= 2", "", "d = {\"k\": [0]}\nfor _ in range(64):\n    d[\"k\"] *= 2", "list * int"},
		{"x[k][i] += x[k][i]", "", "x = {\"f\": [\"x\"]}\nfor _ in range(64):\n    x[\"f\"][0] += x[\"f\"][0]", "str + str"},
		{"d[f()] *= 2", "", "d = {\"k\": [0]}\nk = lambda: \"k\"\nfor _ in range(64):\n    d[k()] *= 2", "list * int"},
		{"l[f()] += l[f()]", "", "l = [\"x\"]\nz = lambda: 0\nfor _ in range(64):\n    l[z()] += l[0]", "str + str"},
		{"l[f()][f()] %= t", big, "l = [[\"%s\" * 30]]\nz = lambda: 0\nl[z()][z()] %= tuple([big] * 30)", "str % tuple"},
		// y empties the slot before the operator runs: the old value
		// the interpreter combines is the one read before y.
		{"d[f()] *= y that empties d[f()] first", "", "d = {\"k\": \"ab\"}\nk = lambda: \"k\"\ndef g():\n    d[\"k\"] = \"\"\n    return 2\nfor _ in range(24):\n    d[k()] *= g()", "string * int"},
		{"big ints multiplied", "", "x = int(\"f\" * 50000, 16)\ny = 3\nkeep = []\nfor _ in range(100):\n    keep.append(x * y)", "int * int"},
		{"% of a repeated key", big, "f = \"%(a)s\"\nfor _ in range(5):\n    f = f + f\nreturn hook.message(f % {\"a\": big})", "str % dict"},
		{"%= of many big values", big, "f = \"%s\" * 20\nf %= tuple([big] * 20)", "str % tuple: 1310760 bytes"},
		{"join of one string many times", big, `return hook.message("".join([big] * 100))`, "join: 6553600 bytes"},
		{"join with a long separator", big, `return hook.message(big.join(["a"] * 100))`, "join: 6488164 bytes"},
		{"replace", big, `return hook.message(("a" * 100).replace("a", big))`, "replace: 6553600 bytes"},
		{"replace of the empty string", big, `return hook.message(("a" * 100).replace("", big))`, "replace: 6619236 bytes"},
		{"format of a repeated field", big, `return hook.message(("{0}" * 100).format(big))`, "format: 6553900 bytes"},
		{"format of a keyword", big, `return hook.message(("{a!r}" * 100).format(a = big))`, "format: 6554300 bytes"},
		{"split", "", `return hook.message(str(len(("a " * 100000).split())))`, "split: 100000 elements"},
		{"split on a separator", "", `return hook.message(str(len(("a," * 100000).split(","))))`, "split: 100001 elements"},
		{"rsplit", "", `return hook.message(str(len(("a," * 100000).rsplit(","))))`, "rsplit: 100001 elements"},
		{"splitlines", "", `return hook.message(str(len(("a\n" * 100000).splitlines())))`, "splitlines: 100001 elements"},
		{"extend by elems", big, "l = []\nl.extend(big.elems())", "list.extend of string.elems: 65536 elements"},
		{"+= of elems", big, "l = []\nl += big.elems()", "list += string.elems: 65536 elements"},
		{"set.update of elems", big, "s = set()\ns.update(big.elems())", "set.update: 65536 entries"},
		{"set.union of a long list", "", "l = list(range(10000))\ns = set()\ns.union(l, l, l)", "set.union: 30000 entries"},
		{"dict.update", "", "d = {}\nl = [(1, 2)] * 20000\nd.update(l, a = 1)", "dict.update: 20001 entries"},
		{"*args of elems", big, "def f(*a):\n    return len(a)\nreturn hook.message(str(f(*(big + big).elems())))", "*args: 131072 elements"},
		{"**kwargs of a big dict", "", "d = {str(i): i for i in range(100000)}\nreturn hook.message(str(len(dict(**d))))", "**kwargs: 100000 entries"},
		// dicts and sets: every call copies what it is given
		{"dict.items", "", "d = {i: i for i in range(20000)}\nkeep = []\nfor _ in range(100):\n    keep.append(d.items())", "dict.items: 20000 entries"},
		{"dict.keys", "", "d = {i: i for i in range(20000)}\nkeep = []\nfor _ in range(100):\n    keep.append(d.keys())", "dict.keys: 20000 entries"},
		{"dict.values", "", "d = {i: i for i in range(20000)}\nkeep = []\nfor _ in range(100):\n    keep.append(d.values())", "dict.values: 20000 entries"},
		{"set.difference", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s.difference([]))", "set.difference: 5000 entries"},
		{"set.symmetric_difference", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s.symmetric_difference([]))", "set.symmetric_difference: 5000 entries"},
		{"set.intersection", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s.intersection(s))", "set.intersection: 5000 entries"},
		{"set.union copies the receiver", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s.union())", "set.union: 5000 entries"},
		{"set | set", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s | s)", "set | set: 10000 entries"},
		{"set & set", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s & s)", "set & set: 5000 entries"},
		{"set ^ set", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s ^ s)", "set ^ set: 10000 entries"},
		{"set - set", "", "s = set(range(5000))\nkeep = []\nfor _ in range(100):\n    keep.append(s - set())", "set - set: 5000 entries"},
		{"dict | dict", "", "d = {i: i for i in range(5000)}\nkeep = []\nfor _ in range(100):\n    keep.append(d | {})", "dict | dict: 5000 entries"},
		{"dict |= dict", "", "d = {i: i for i in range(20000)}\nfor _ in range(100):\n    e = {}\n    e |= d", "dict |= dict: 20000 entries"},
		{"set -= set", "", "s = set(range(5000))\nfor _ in range(100):\n    t = set([1])\n    t -= s\n    t = s\n    t -= set()", "set - set: 5000 entries"},
		{"l[f()] |= d", "", "d = {i: i for i in range(20000)}\nz = lambda: 0\nl = [{}]\nfor _ in range(100):\n    l[z()] |= d", "dict |= dict: 20000 entries"},
		// string case: the result is as long as the string, or longer
		{"upper", big, "keep = []\nfor _ in range(100):\n    keep.append(big.upper())", "upper: 65536 bytes"},
		{"lower", big, "keep = []\nfor _ in range(100):\n    keep.append(big.lower())", "lower: 65536 bytes"},
		{"title", big, "keep = []\nfor _ in range(100):\n    keep.append(big.title())", "title: 65536 bytes"},
		{"capitalize", big, "keep = []\nfor _ in range(100):\n    keep.append(big.capitalize())", "capitalize: 65536 bytes"},
		{"upper of characters whose upper case is longer", "", "s = \"\\u0250\" * 300000\nreturn hook.message(s.upper())", "upper: 900000 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := opsCall(t, c.prelude, c.body)
			if err == nil {
				t.Fatal("the call succeeded; want the memory limit")
			}
			var se *scripting.Error
			if !errors.As(err, &se) || !errors.Is(err, scripting.ErrMemoryLimit) {
				t.Fatalf("error %v (%T) is not a scripting error wrapping ErrMemoryLimit", err, err)
			}
			const limit = ": memory limit exceeded: this call would allocate more than 1MiB"
			if !strings.Contains(se.Msg, c.op) || !strings.Contains(se.Msg, limit) || !strings.Contains(err.Error(), `hook "ops.star:h"`) {
				t.Errorf("error %q does not name the hook, %q and the limit", err, c.op)
			}
			line := 3 + strings.Count(c.body, "\n") + 1 // after the load, the prelude and the def
			if se.File != "ops.star" || se.Line != line {
				t.Errorf("error at %s:%d, want ops.star:%d", se.File, se.Line, line)
			}
			if strings.Contains(se.Backtrace, "$") {
				t.Errorf("the backtrace shows a hidden builtin:\n%s", se.Backtrace)
			}
		})
	}
}

// TestOpsAllowed: the same operations within the budget give their
// results.
func TestOpsAllowed(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"str * int", `return hook.message(str(len("ab" * 1000)))`, "2000"},
		{"list * int", `return hook.message(str(len([0, 1] * 1000)))`, "2000"},
		{"s + s", "s = \"x\"\nfor _ in range(12):\n    s = s + s\nreturn hook.message(str(len(s)))", "4096"},
		{"l += l", "l = [0]\nfor _ in range(12):\n    l += l\nreturn hook.message(str(len(l)))", "4096"},
		{"ints", "n = 0\nfor i in range(1000):\n    n = n + i * 2 % 7\nreturn hook.message(str(n))", "2998"},
		{"big ints", "x = 3\nfor _ in range(6):\n    x = x * x\nreturn hook.message(str(x % 1000))", "281"},
		{"floats", "x = 1.5\nx *= 2\nx += 0.25\nreturn hook.message(str(x))", "3.25"},
		{"format", `return hook.message("{0}-{1!r}-{k}".format(1, "a", k = [2]))`, `1-"a"-[2]`},
		{"%", `return hook.message("%s:%d:%(x)s" % {"x": "y"} if False else "%s:%d" % ("a", 3))`, "a:3"},
		{"join", `return hook.message(",".join(["a"] * 3))`, "a,a,a"},
		{"replace", `return hook.message("a.b".replace(".", "::"))`, "a::b"},
		{"split", `return hook.message(str(len(("a " * 1000).split())))`, "1000"},
		{"path.join passes through", `return hook.message(path.join("a", "b"))`, "a/b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := opsCall(t, "", c.body)
			if err != nil {
				t.Fatal(err)
			}
			m, _ := out.(map[string]any)
			if d, ok := out.(*scripting.Decision); ok {
				m = d.Map()
			}
			msgs, _ := m["messages"].([]any)
			if len(msgs) != 1 || msgs[0].(map[string]any)["content"] != c.want {
				t.Errorf("got %v, want the message %q", out, c.want)
			}
		})
	}
}

// TestOpsRewriteWhat: operations the source bounds are left to the
// interpreter, so a script that uses none of the others runs the code
// it ran before.
func TestOpsRewriteWhat(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int // hidden calls
	}{
		{"i = i + 1", 0}, {"i = 1 + i", 0}, {"i += 1", 0}, {"x = y % 2", 0}, {"x %= 2.5", 0}, {"s = '-' * 40", 0},
		{"s = 40 * '-'", 0}, {"l = [0] * 8", 0}, {"s = 'a' + 'b'", 0}, {"l = [1] + [2]", 0}, {"x = 2 * 3", 0},
		{"x = y * 1.5", 0}, {"s = f % 'x'", 0}, {"x = y - 1", 0}, {"x = 2 | z", 0}, {"x = d.get(k)", 1}, {"x = s[1:]", 1}, {"x = 'abc'[1:]", 0}, {"x = s[i:j:k][::-1]", 2}, {"x = d.get(k, 'a')", 1}, {"x = d.get(f(k))", 0}, {"x = d.get()", 0}, {"x = d.get(k, z = 1)", 0},
		{"x = y - z", 1}, {"x = y | z", 1}, {"x = y & z", 1}, {"x = y ^ z", 1}, {"s |= t", 0}, {"s = u\ns |= t", 1}, {"s = u\ns -= t", 1},
		{"n = 0\nn -= k\nr = n - z", 0}, {"x = d.items()", 1}, {"x = s.upper()", 1}, {"x = s.intersection(t)", 1}, {"x = s.lower().strip()", 1},
		{"i = j\ni = i + n", 1}, {"i = n * 2", 1}, {"s = f % (a, b)", 1}, {"s = '-' * 2000", 1}, {"s = u\ns += t", 1},
		{"l[i] += t", 3}, {"l, i = [], 0\nl[i] += t", 1}, {"d[f()] += t", 3}, {"f().g *= t", 2}, {"x = s.join(l)", 1}, {"x = s.replace(a, b)", 1},
		{"x = s.format(a)", 1}, {"x = s.split()", 1}, {"l.extend(m)", 1}, {"x = a + b * c", 2}, {"f(*a, **k)", 2}, {"f(a, *b)", 1},
		{"def f(x = a * b):\n    return [y + 1 for y in x if y % n]", 2}, {"f(k = a + b, *c)", 2},
		// names that only hold numbers
		{"for i in range(n):\n    x = i + n\n    y = n % i\n    z = i * 2\n    w = i * n", 2},
		{"t = 0\nfor i in range(n):\n    t += x\n    t = t - i\n    t *= 2", 0},
		{"t = 0\nfor i in range(n):\n    t *= x", 1}, {"t = 0\nt = s\nr = t + u", 1},
		{"n = len(l)\nm = int(s) + float(s)\nr = (n + a, m + b, -n + c, (n if q else 1) + d)", 0},
		{"def range(x):\n    return x\nfor i in range(n):\n    r = i + s", 1}, {"def len(x):\n    return x\nr = len(s) + t", 1},
		{"def f(i):\n    return i + s", 1}, {"i = 1\ndef f():\n    return i + s", 0}, {"i = 1\ndef f(i):\n    return i + s", 1},
		{"r = [i + s for i in range(3)]", 0}, {"r = [i + s for i in l]", 1}, {"i = 'x'\nr = [i + s for i in range(3)] + [i + s]", 2},
		{"load('m', 'i')\nr = i + s", 1}, {"i, j = 1, 2\nr = i + s", 1}, {"i = 1\ni = j\nr = i + s", 1},
		{"x = 1\ny = x\nx = y + 1\nr = x + s + y", 0},
		// tuples (ops_tuples.go) and comparisons (ops_compare.go)
		{"x = (a, b)", 1}, {"x = (1, 'a', (2, -3), [a], {a: b})", 0}, {"(a, b), c = d", 0}, {"for a, (b, c) in d:\n    pass", 0},
		{"r = [1 for (a, b) in c]", 0}, {"for x in (a, b):\n    pass", 0}, {"s = '%s' % (a, b)", 1}, {"x = ((a,),)", 2}, {"x = ('a',) * 3", 0}, {"x = (a,) * 3", 2},
		{"def f(*a):\n    pass", 0}, {"def f(*a):\n    return (a, len(a), [x for x in a], lambda: a)", 5}, {"def f(a, **k):\n    pass", 0}, {"f = lambda *a: a", 1},
		{"def f(*a):\n    a, b = 1, 2\n    g(a = 1)\n    def h(a = a):\n        return a", 2},
		{"x = a == b", 1}, {"x = a == 'b'", 0}, {"x = 1 < b", 0}, {"x = a != None", 0}, {"None = []\nx = a != None", 1}, {"x = a in b", 1}, {"x = 'a' in b", 0},
		{"x = a in ('b', 1)", 0}, {"x = a in [b]", 1}, {"x = a not in 'abc'", 0}, {"x = l.index(a)", 1}, {"l.remove(a)", 1}, {"x = d.items()", 1},
		{"f = d.items", 1}, {"f = d.get", 0}, {"x = [d.keys, d.values]", 2}, {"d.items = 1", 0}, {"x = d.items().pop", 1}, {"i = i + n", 0}, {"s += t", 0}, {"f = lambda i: i + s", 1}, {"f = lambda i = 1: i + s", 1},
	} {
		f, err := fileOptions.Parse("w.star", c.src, 0)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		rewriteOps(f, func(name string) bool { return name == "len" }, func(string) bool { return false }, nil)
		got := 0
		syntax.Walk(f, func(n syntax.Node) bool {
			if id, ok := n.(*syntax.Ident); ok && opBuiltins[id.Name] != nil {
				got++
			}
			return true
		})
		if got != c.want {
			t.Errorf("%q: %d hidden calls, want %d", c.src, got, c.want)
		}
	}
}

// TestOpsTypeErrorThroughTheEngine: a type error of a rewritten operator
// reaches the hook's error as the interpreter words it, at the operator's
// line, with a backtrace that shows no hidden builtin.
func TestOpsTypeErrorThroughTheEngine(t *testing.T) {
	_, err := opsCall(t, "", "x = 1\nreturn hook.message(x +\n    \"a\")")
	var se *scripting.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T), want a scripting error", err, err)
	}
	if se.Msg != "unknown binary op: int + string" || se.Line != 5 || se.Hook != "ops.star:h" {
		t.Errorf("error %q at line %d of hook %q, want the interpreter's message at line 5", se.Msg, se.Line, se.Hook)
	}
	if want := "ops.star:5:27: in h\nError: unknown binary op: int + string"; se.Backtrace != want {
		t.Errorf("backtrace\n%s\nwant\n%s", se.Backtrace, want)
	}
}

// TestSetMethodsWithoutArgument: go.starlark.net's intersection,
// difference, symmetric_difference, issubset and issuperset dereference
// a nil iterable when
// called without one; hook files get the library's missing-argument
// error instead.
func TestSetMethodsWithoutArgument(t *testing.T) {
	for _, name := range []string{"intersection", "difference", "symmetric_difference", "issubset", "issuperset"} {
		_, err := opsCall(t, "", "return set([1])."+name+"()")
		var se *scripting.Error
		if !errors.As(err, &se) || se.Msg != name+": got 0 arguments, want 1" || se.Line != 4 {
			t.Errorf("%s(): got %v, want the missing-argument error at line 4", name, err)
		}
	}
}

// TestVarargsKeepTheDocString: the check a def with *args starts with
// goes after its doc string, which stays the function's.
func TestVarargsKeepTheDocString(t *testing.T) {
	predeclared := starlark.StringDict{}
	addOpBuiltins(predeclared)
	prog, err := rewrittenProgram("doc.star", []byte("def f(*a):\n    \"the doc\"\n    return a\n"), predeclared)
	if err != nil {
		t.Fatal(err)
	}
	globals, err := prog.Init(&starlark.Thread{}, predeclared)
	if err != nil {
		t.Fatal(err)
	}
	if doc := globals["f"].(*starlark.Function).Doc(); doc != "the doc" {
		t.Errorf("doc %q, want %q", doc, "the doc")
	}
}
