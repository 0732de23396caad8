package starlark

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

// The rewritten operators must do what the interpreter's do: the same
// results, the same error messages at the same positions, the same
// backtraces. evalBoth runs a file's top level twice, as go.starlark.net
// compiles it and as hookhost rewrites it (under a meter with the given
// budget), and returns the value of its global "r" (or the error) each
// way, written out.

// sameMaxSteps keeps the comparisons, and the fuzz target's inputs,
// short.
const sameMaxSteps = 100_000

type evalOutcome struct {
	value     string // r, written by go.starlark.net
	msg       string // the error's message
	backtrace string
	cause     string // the type of the error's cause
}

// plainPanicked marks the outcome of a source go.starlark.net itself
// crashes on (set().intersection() dereferences a nil iterable), which
// hookhost refuses with an error instead.
const plainPanicked = "go.starlark.net panicked: "

func evalPlain(src string) (out evalOutcome) {
	defer func() {
		if r := recover(); r != nil {
			out = evalOutcome{msg: fmt.Sprint(plainPanicked, r)}
		}
	}()
	thread := &starlark.Thread{Name: "plain"}
	thread.SetMaxExecutionSteps(sameMaxSteps)
	globals, err := starlark.ExecFileOptions(&fileOptions, thread, "same.star", src, nil)
	return outcome(globals, err)
}

func evalRewritten(src string, budget int64) evalOutcome {
	limits := scripting.Limits{MaxCallMemory: budget}.Or()
	ct := &callThread{limits: &limits, call: &scripting.Call{}}
	ct.thread.Name = "rewritten"
	ct.thread.SetLocal(callKey, ct)
	ct.thread.SetMaxExecutionSteps(sameMaxSteps * 4) // a rewritten operator is one more instruction
	predeclared := starlark.StringDict{}
	addOpBuiltins(predeclared)
	prog, err := rewrittenProgram("same.star", []byte(src), predeclared)
	if err != nil {
		return evalOutcome{msg: err.Error(), cause: fmt.Sprintf("%T", err)}
	}
	globals, err := prog.Init(&ct.thread, predeclared)
	return outcome(globals, err)
}

func outcome(globals starlark.StringDict, err error) evalOutcome {
	if err != nil {
		out := evalOutcome{msg: err.Error(), cause: fmt.Sprintf("%T", err)}
		var ee *starlark.EvalError
		if errors.As(err, &ee) {
			dropHiddenFrames(ee)
			out.backtrace = ee.Backtrace()
			out.cause = fmt.Sprintf("%T", ee.Unwrap())
		}
		return out
	}
	if r, ok := globals["r"]; ok {
		return evalOutcome{value: r.String()}
	}
	return evalOutcome{value: "<no r>"}
}

// TestOpsSameAsInterpreter compares, for every rewritten operator and
// method, results and errors with go.starlark.net's own.
func TestOpsSameAsInterpreter(t *testing.T) {
	for _, src := range sameCases {
		t.Run(strings.SplitN(src, "\n", 2)[0], func(t *testing.T) {
			want, got := evalPlain(src), evalRewritten(src, 64<<20)
			if got != want {
				t.Errorf("rewritten\n  %+v\nwant (go.starlark.net)\n  %+v", got, want)
			}
		})
	}
}

// sameCases are top levels that set r, or fail.
var sameCases = []string{
	// ints and floats, exact
	"r = 1 + 2", "n = 7\nr = n + 1", "n = 7\nr = n * 2", "n = -7\nr = n % 3", "n = 7\nr = n % -3",
	"x = 1 << 100\nr = x * x", "x = 1 << 100\nr = x + x", "x = -(1 << 70)\nr = x % 7", "x = 1 << 62\nr = x * 4",
	"x = 1.5\nr = x * 2", "x = 2\nr = x + 0.5", "x = 7.5\nr = x % 2", "x = 3\nr = 2.0 * x", "x = 1 << 2000\nr = x + 1.0",
	"i = 0\nfor _ in range(10):\n    i += 1\nr = i", "i = 3\ni *= i\nr = i", "i = 10\ni %= 4\nr = i",
	// strings, bytes, lists, tuples
	"s = 'ab'\nr = s + 'cd'", "s = 'ab'\nr = s * 3", "s = 'ab'\nr = 3 * s", "s = 'ab'\nr = s * 0", "s = 'ab'\nr = s * -2",
	"b = b'ab'\nr = b + b'c'", "b = b'ab'\nr = b * 2", "l = [1, 2]\nr = l + [3]", "l = [1]\nr = l * 3", "l = [1]\nr = 2 * l",
	"t = (1,)\nr = t + (2,)", "t = (1, 2)\nr = t * 2", "s = 'x'\nfor _ in range(5):\n    s = s + s\nr = len(s)",
	"s = 'ab'\ns += 'c'\nr = s", "s = 'ab'\ns *= 2\nr = s", "s = '%d-%s'\ns %= (1, 'x')\nr = s",
	"a = [1]\nb = a\na += [2]\nr = b", "a = [1]\na += (2, 3)\nr = a", "a = [1]\na += range(3)\nr = a", "a = [1]\na += 'x'.elems()\nr = a",
	"a = [1]\nb = a\na *= 2\nr = (a, b)", "d = {'k': 'x'}\nd['k'] += 'y'\nr = d", "d = {'k': [1]}\nd['k'] *= 3\nr = d",
	"l = [[1], 'a']\nl[0] += [2]\nl[1] *= 2\nr = l", "l = ['a']\ni = 0\nl[i] += 'b'\nr = l",
	"r = 'a' + 'b' + 'c'", "x = 'b'\nr = 'a' + x + 'c'", "r = [0] * 4 + [1]", "r = '-' * 10",
	// % formatting
	"r = '%s and %r' % ('a', 'b')", "r = '%d %i %o %x %X' % (10, 11, 12, 255, 255)", "r = '%e %f %g' % (1.5, 2.5, 1e300)",
	"r = '%f' % 1e308", "r = '%d' % 1e308", "r = '%o' % -1e308", "r = '%c%c' % (65, 'b')", "r = '%%%s%%' % 'x'",
	"r = '%(a)s %(a)r %(b)d' % {'a': 'x', 'b': 3}", "r = '%s' % [1, (2,), {'a': None}]", "r = '%s' % ((1, 2),)",
	"r = '%r' % b'x\\x00'", "r = '%s' % True", "r = '%s' % 'a\\tb'", "r = '%r' % 'é\\x7f\"'", "x = 1 << 200\nr = '%d %o %x' % (x, x, -x)",
	"s = '%s'\nr = s % 1", "s = '%s %s'\nr = s % ('a', ['b'])",
	// % errors
	"r = '%s %s' % 1", "r = '%s' % (1, 2)", "r = '%d' % 'x'", "r = '%(a)s' % 1", "r = '%(a)s' % {}", "r = '%(a' % {}",
	"r = '%' % 1", "r = '%q' % 1", "r = '%c' % -1", "r = '%c' % 'ab'", "r = '%e' % 'x'",
	// type errors, exactly the interpreter's
	"r = 1 + 'a'", "x = 1\nr = x + 'a'", "x = 'a'\nr = x + 1", "x = 'a'\nr = x * 'b'", "x = [1]\nr = x + (1,)", "x = {}\nr = x + {}",
	"x = None\nr = x % 1", "x = [1]\nx += 1", "x = 'a'\nx *= 'b'", "x = 'a'\nx %= ()", "x = 1\nr = x * None",
	"x = 'a'\nr = x * (1 << 40)", "x = [1, 2]\nr = x * (1 << 29)", "x = 'ab'\nr = x * (1 << 29)",
	"def f(x):\n    return x + None\nr = f(1)", "def f(x):\n    return [x\n        +\n        None]\nr = f('a')",
	"l = (1,)\nl += [2]", "d = {}\nd['k'] += 'x'", "y = 1\nr = y.join([])", "s = 'x'\nr = s.nosuch(1)",
	"x = 'a'\nr = x + 1 if x else 2",
	// methods
	"r = ','.join(['a', 'b', 'c'])", "r = ''.join([])", "r = '-'.join(('x',))", "r = ','.join({'a': 1, 'b': 2})",
	"r = ','.join('abc'.elems())", "r = ','.join([1])", "r = ','.join(1)", "r = ','.join()", "r = ','.join(['a'], x = 1)",
	"r = 'aXbX'.replace('X', 'yy')", "r = 'abc'.replace('', '-')", "r = 'aaa'.replace('a', 'b', 2)", "r = 'aaa'.replace('a', 'b', 0)",
	"r = 'abc'.replace('a')", "r = 'abc'.replace(1, 2)", "r = 'é'.replace('', '.')",
	"r = '{} {}'.format(1, 'a')", "r = '{0}{0}{1!r}'.format('x', 'y')", "r = '{a} {b!s}'.format(a = 1, b = [2])",
	"r = '{{}} {}'.format(3)", "r = '{'.format()", "r = '}'.format()", "r = '{0:x}'.format(1)", "r = '{!q}'.format(1)",
	"r = '{} {0}'.format(1)", "r = '{x}'.format()", "r = '{a.b}'.format()", "r = '{2}'.format(1)",
	"r = 'a b  c'.split()", "r = 'a,b,,c'.split(',')", "r = 'a,b,c'.split(',', 1)", "r = 'a,b,c'.rsplit(',', 1)",
	"r = ' a b '.rsplit(None, 1)", "r = 'a\u3000b'.split()", "r = 'abc'.split('')", "r = 'abc'.split(1)",
	"r = 'a\\nb\\n'.splitlines()", "r = 'a\\nb'.splitlines(True)", "r = ''.splitlines()",
	"l = [1]\nl.extend([2, 3])\nr = l", "l = [1]\nl.extend(range(2))\nr = l", "l = []\nl.extend('ab'.elems())\nr = l",
	"l = [1]\nl.extend(1)\nr = l", "l = [1]\nl.extend()\nr = l", "l = [1]\nl.freeze = 1",
	"def f(*a, **k):\n    return (a, k)\nr = f(*[1, 2], **{'x': 3})", "def f(*a):\n    return a\nr = f(0, *range(3))",
	"r = len(*1)", "r = dict(**1)", "r = dict(**{1: 2})", "def f(x):\n    return x\nr = f(*'ab'.elems())",
	"d = {'k': 'x'}\nk = lambda: 'k'\nd[k()] += 'y'\nd[k()] *= 2\nd[k()] %= ()\nr = d", "l = [[1], 2]\nz = lambda: 0\nl[z()] += [2]\nl[z() + 1] *= 3\nr = l",
	"d = {}\nk = lambda: 'k'\nd[k()] += 'y'", "l = [1]\nz = lambda: 5\nl[z()] += 1", "l = (1,)\nz = lambda: 0\nl[z()] += 1",
	"z = lambda: 0\nl = [0]\nl[z()] += 'a'", "l = [[0]]\nz = lambda: 0\nl[z()][z()] += 1\nr = l", "f = lambda: [1]\nf()[0] += 1\nr = f()",
	"f = lambda: 1\nf().x += 1", "def g():\n    l = [1]\n    l[len(l) - 1] += 2\n    return l\nr = g()",
	"x *= b'0'", "if False:\n    x += 'a'\nr = 1", "for i in range(2):\n    if i == 1:\n        x += 'a'\n    else:\n        x = 'b'\nr = x",
	"x = 'a'\nx += x\nr = x", "len += 1", "l = [1]\nif False:\n    l[y] += 1\nr = l", "def f():\n    x += 1\nr = 1",
	"d = {}\nd.update([(1, 2)], a = 3)\nr = d", "s = set([1])\ns.update([2], (3,))\nr = (s, s.union([4], range(2)))", "d = {}\nd.update(1)", "d = {}\nd.update([], [])",
	"s = set()\ns.update(1)", "r = {}.update", "r = set().union()", "l = [1]\nr = l.update",
	"r = struct", "d = {'join': 1}\nr = d.get('join')",
	// dict views, set methods and operators, string case
	"d = {'a': 1, 'b': (2,)}\nr = (d.items(), d.keys(), d.values())", "r = {}.items()", "d = {}\nr = d.items(1)", "d = {}\nr = d.keys(x = 1)",
	"s = set([1, 2, 3])\nr = (s.intersection([2, 3, 4]), s.difference((1,)), s.symmetric_difference([3, 4]), s.union([5], [6]))",
	"s = set([1])\nr = s.intersection(range(3))", "s = set([1])\nr = s.difference(1)", "s = set([1])\nr = s.symmetric_difference([1], [2])",
	"s = set([1])\nr = s.intersection([[]])", "s = set([1])\nr = (s.issubset([1, 2]), s.issuperset([]), s.issubset(range(3)), s.issuperset((1,)))", "s = set([1])\nr = s.issubset(1)",
	"s = set([1])\nr = s.issuperset([[1]])", "t = (1, 2)\ns = set([t])\nr = (s.union([t] * 3), s.issubset([t, t]))", "s = set([1])\nr = s.union([[]])",
	"s, t = set([1, 2]), set([2, 3])\nr = (s | t, s & t, s ^ t, s - t)", "d, e = {'a': 1}, {'b': 2, 'a': 3}\nr = (d | e, e | d)",
	"s = set([1])\nr = s | [2]", "d = {}\nr = d - d", "d = {}\nr = d & d", "x = [1]\nr = x | x", "x = 'a'\nr = x - x",
	"a, b = 12, 10\nr = (a | b, a & b, a ^ b, a - b)", "a, b = 1.5, 2\nr = a - b", "x = 1 << 100\nr = (x | 1, x & 3, x ^ x, x - 1)",
	"s = set([1, 2])\ns |= set([3])\ns &= set([1, 3])\ns ^= set([4])\ns -= set([1])\nr = s",
	"d = {'a': 1}\ne = d\nd |= {'b': 2}\nr = (d, e)", "d = {'a': 1}\nd |= [('b', 2)]", "s = set()\ns -= [1]", "x = 'a'\nx |= 'b'",
	"n = 5\nn -= 2\nn |= 8\nr = n", "l = [set([1])]\nz = lambda: 0\nl[z()] |= set([2])\nl[z()] -= set([1])\nr = l", "d = {'k': {}}\nd['k'] |= {'a': 1}\nr = d",
	"l = [1]\nz = lambda: 0\nl[z()] -= 'a'", "f = frozen = {'a': 1}\nr = f", "s = set([1])\ns.freeze = 1",
	"r = ('aBc'.upper(), 'aBc'.lower(), 'hello wORLD'.title(), 'hELLO'.capitalize())", "r = ''.upper()",
	"r = ('\u0250\u023a é ß ǆ'.upper(), '\u0250\u023a É ǅ'.lower(), 'ǆa ǉb'.title(), 'ǆA'.capitalize())",
	"r = ('a\xffb'.upper(), 'a\xffb'.lower(), '\xffa'.title(), '\xff\xfe'.capitalize())", "r = 'a'.upper(1)", "r = 'a'.lower(x = 1)",
	"l = ['a']\nr = l.upper", "r = hash('abc'.upper())",
	// ranges made at the top level, handed to Go code (charged to the call that iterates them)
	"R = range(4)\nl = [9]\nl.extend(R)\nl += R[::2]\nr = l", "R = range(3)\ndef f(*a):\n    return a\nr = f(*R)",
	"RS = [range(2), range(5, 1, -2)]\nl = []\nfor x in RS:\n    l.extend(x)\n    l += x\nr = (l, set([0]).union(RS[1]), set([1, 5]).difference(*RS[:1]))",
	"s = set([1, 2])\nR = range(4)\nr = (s.issubset(R), s.issuperset(R), s.issubset([1]), s.issuperset(R[1:3]), s.issubset(()))",
	"r = set([1]).issubset(1)", "r = set([1]).issuperset([[]])", "s = set([1])\nr = s.issubset(x = 1)", "r = [].issubset",
	// ints within the limits on integer text and size (ints.go): % of a number name is checked now
	"n = 5\nr = 'n=%d' % n", "n = 2.5\nr = '%s|%r|%d' % (n, n, n)", "n = len('abc')\ns = '%d'\ns %= n\nr = s", "n = 7\nr = '%x' % n",
	"x = 1 << 300\nr = '%d %s %r %i' % (x, x, x, -x)", "x = int('9' * 4300)\nr = len('%d' % x)", "r = '{} {!r}'.format(1 << 300, -(1 << 300))",
	"x = 1 << 400\nx *= x\nr = x", "x = int('f' * 1000, 16)\ny = x * x\nr = y % 1000003", "n = 3\nr = '%d' % 'x'", "n = 3\nr = n % 0",
	// tuples: displays, *args, pairs (weighed as they are built)
	"x = 1\nr = (x, (x, x), [x], {x: x})", "a, b = 1, 2\na, b = b, a\nr = (a, b)", "(a, b), c = (1, 2), 3\nr = (a, b, c)",
	"x = 1\n[a, (b, c)] = [x, (x, x)]\nr = (a, b, c)", "for (i, j) in [(1, 2)]:\n    r = (j, i)", "x = 3\nr = [(i, x) for (i, j) in [(1, 2)] if (i, j) != (x, x)]",
	"def f(*a):\n    return a\nx = (1,)\nr = (f(), f(1, x), f(*[1, 2]), f(*x))", "f = lambda *a: a\nr = f(1, 2)", "f = lambda x, *a, **k: (x, a, k)\nr = f(1, 2, y = 3)",
	"def f(a, *args, b = 1):\n    return (a, args, b)\nr = f(1, 2, 3, b = 4)", "def f(*a):\n    a = 1\n    return a\nr = f(1)", "def f(*a):\n    return a + (len(a),)\nr = f(1)",
	"def f(*a):\n    fail('x')\nr = f(1)", "def f(*a):\n    'doc'\n    return a\nr = f(1)", "def f(*A, B):\n    return ()\nr = f()", "f = lambda *a, b: 1\nr = f()", "f = lambda *a: a\nr = f(x = 1)", "r = {}.A.update", "def f(*a):\n    pass\nr = f()", "f = lambda *a: a[5]\nr = f(1)", "x = 1\nr = '%s-%s' % (x, x)", "x = 'a'\ns = '%s%s'\ns %= (x, x)\nr = s",
	"x = (1,)\nr = x * 3 + (x, x)", "x = 1\nr = (x,) + (x,)", "x = 1\nr = (x,) * 2", "t = (1, 2)\nr = (t * 0, t * -1, 0 * t, t * (1 << 40))",
	"d = {(1, 2): 'a'}\nr = (d.items(), d.popitem(), d)", "r = {}.popitem()", "t = (1, 2)\nr = {t: t}[(1, 2)]", "x = ([1],)\nr = {x: 1}",
	"x = 1\nr = (x, [x]) in {}", "for x in (1, 'a'):\n    r = x", "x = 1\nr = [y for y in (x, x)]", "r = ()", "x = 1\nr = (x,)",
	// comparisons, as the interpreter's
	"a, b = [1, [2, 3]], [1, [2, 4]]\nr = (a == b, a != b, a < b, a <= b, a > b, a >= b)", "a, b = (1, 2), (1, 2, 3)\nr = (a < b, a == b, b > a, a != b)",
	"a, b = {'x': [1]}, {'x': [1]}\nr = (a == b, a != b)", "a, b = {'x': [1]}, {'y': [1]}\nr = (a == b, a != b)", "a, b = {'x': 1}, {'x': 1}\nr = a < b",
	"a, b = set([1]), set([1, 2])\nr = (a < b, a <= b, a == b, b > a, b >= a, a != b)", "a = []\nfor _ in range(12):\n    a = [a]\nb = a\nr = a == b",
	"a = []\nfor _ in range(12):\n    a = (a,)\nr = a < a", "a, b = [1, 'x'], [1, 2]\nr = a < b", "a, b = [1, 'x'], [1, 2]\nr = a == b", "nan = float('nan')\na = [nan]\nr = (a == a, a != a, a < a)",
	"x = [1]\nr = (x in [[1]], x in [[2]], x not in [[1]], x in ([1], 2), x in {}, x not in {})", "x = [1]\nr = x in set()", "x = [1]\nr = x in 'abc'",
	"x = [1]\nr = x in 1", "x = [1]\nr = x not in 1", "x = 'a'\nr = (x in 'abc', x in ['a'], x in ('b',), x not in ['a'])", "x = 'a' * 100\ny = 'a' * 100\nr = (x in [y], x in [1, y], x not in (y,), [x].index(y))",
	"x = [1]\nl = [[0], [1]]\nr = (l.index(x), l.index(x, 1), l.index([1], 0, 2), l.index(x, -1))", "x = [5]\nl = [[0]]\nr = l.index(x)", "x = [1]\nl = [[1]]\nr = l.index(x, 1)",
	"l = [[1], [2]]\nx = [1]\nl.remove(x)\nr = l", "l = [[1]]\nx = [3]\nl.remove(x)", "l = [[1]]\nl.remove()", "l = [[1]]\nr = l.index()", "r = 'abc'.index('c')", "r = 'abc'.index('d')",
	"a = []\nfor _ in range(12):\n    a = [a]\nl = [a]\nr = l.index(a)", "a = []\nfor _ in range(12):\n    a = [a]\nl = [a]\nr = a in l",
	"x, y = 1, 2\nr = (x == y, x < y, x >= y)", "x, y = 'a', 'b'\nr = (x == y, x < y, x in y)", "x = None\nr = (x == None, x != None)", "r = [1] == [1]",
	"x = [1]\nr = x < 1", "x = [1]\nr = x == 1", "x = {}\nr = x <= x", "x = set([1])\nr = x < 1", "l = [1]\nz = lambda: 0\nr = l[z()] == 1",
	"x = [1]\ny = (1,)\nr = (x == y, x != y)", "x = [1]\ny = (1,)\nr = x < y", "def f(x):\n    return [x\n        ==\n        None, x\n        <\n        []]\nr = f([1])",
	// methods taken as values
	"d = {'a': (1,)}\nf = d.items\nr = (f(), str(f), type(f), f == f, d.items == d.items)", "l = [[1], [2]]\ni = l.index\nr = (i([2]), i)", "f = 'abc'.upper\nr = (f(), {f: 1}[f])",
	"d = {'a': 1}\nf = d.items\nr = f(1)", "l = [[1]]\nrm = l.remove\nrm([3])", "s = 'a,b'\nf = s.split\nr = f(',')", "x = [].index\nr = x(1)",
	"f = {}.popitem\nr = f()", "d = {}\nd.items = 1", "m = [(1, 2)]\nr = [p for p in m[0].index(2) * (1,)]",
	// x.get(key[, default]), looked up directly in a dict (ops_get.go)
	"d = {'a': 1}\nr = (d.get('a'), d.get('b'), d.get('b', 2), d.get('a', 2), d.get('b', None))", "d = {'get': 1}\nr = d.get('get')",
	"d = {'a': 1}\nk = 'a'\nr = (d.get(k), d.get(k, k), d.get(1, True))", "r = {'a': 1}.get('a')", "p = {'a': {'b': 2}}\nr = p.get('a').get('b', 0)",
	"p = {'a': None}\nr = p.get('a').get('b')", "x = None\nr = x.get('a')", "x = 'abc'\nr = x.get('a', 1)", "s = set([1])\nr = s.get(1)",
	"x = 1\nr = x.get(1)", "l = [1]\nr = l.get(0)", "d = {}\nr = (d\n    .get('a'))", "d = {}\nr = d.get()", "d = {}\nr = d.get(1, 2, 3)",
	"d = {}\nr = d.get('a', default = 1)", "d = {}\nr = d.get(*['a'])", "def f():\n    d = {}\n    r = d.get(k)\n    k = 1\n    return r\nr = f()",
	"d = {}\nf = d.get\nr = (f('a'), f('a', 3))", "d = {(1, 2): 3}\nt = (1, 2)\nr = d.get(t)", "r = {1: 2}.get(1.0)",
	// the call-free form: a name, literal arguments
	"d = {1: 2, b'a': 3, 2.5: 4}\nr = (d.get(1.0), d.get(1), d.get(2.5, 'no'), d.get(b'a'), d.get('b'), d.get(3, 0.5))",
	"d = {'a': None}\nr = (d.get('a', 1), 'x' in d.get('b', ''), [d.get('a') for _ in range(2)], (lambda: d.get('z', 7))())",
	"def f():\n    r = d.get('a')\n    d = {}\n    return r\nr = f()", "def f(p):\n    return p.get('a', '')\nr = (f({}), f({'a': 'x'}), f('abc'))",
	"None = 1\nd = {}\nr = d.get('a')", "x = 'abc'\nr = x.get('a', 1)", "x = None\nr = x.get('a')", "r = d.get('a')", "d = {}\nr = d.get('a', [])",
	"def f(*args):\n    return args.get('a')\nr = f()", "d = {}\nr = d.get('a') | 1", "d = {'a': {}}\nr = 'b' in d.get('a', {})",
	// slices, charged by what they select (ops_slice.go)
	"s = 'abcdef'\nr = (s[1:], s[:3], s[::-1], s[-2:], s[1:-1], s[::2], s[5:1:-1], s[-100:100], s[4:2], s[::-2], s[:], s[-1::-3])",
	"l = [1, 2, 3, 4]\nr = (l[1:], l[::-1], l[-1:], l[:-1], l[10:], l[:-10], l[3:0:-2])", "t = (1, 2, 3)\nr = (t[1:], t[::-1])", "b = b'abc'\nr = (b[1:], b[::-1])",
	"R = range(10)\nr = (R[2:8:2], R[::-1])", "s = 'abc'\ni, j, k = 1, -1, 2\nr = (s[i:], s[:j], s[::k], s[j:i:-1], s[-i:])", "s = 'abcd'\nl = [0, 2]\nr = (s[l[1]:], s[len(s) - 2:], s[-1 - 1:])",
	"s = 'abc'\nr = s[::0]", "s = 'abc'\nr = s['a':]", "x = 1\nr = x[1:]", "s = 'abc'\nr = s[1:'b']", "d = {}\nr = d[1:]", "s = 'abc'\nn = 0\nr = s[::n]",
	"s = 'abc'\nbig = 1 << 40\nr = s[big:]", "s = 'abc'\nr = s[1 << 40:]", "s = 'abc'\nr = s[None:None:None]", "s = 'abc'\nn = None\nr = s[n:2]",
	"def f():\n    r = s[i:]\n    i = 1\n    return r\ns = 'ab'\nr = f()", "r = 'abc'[1:]", "r = [1, 2][1:]", "s = ('abc')\nr = (s)[1:]",
	"def f(x):\n    return [x\n        [1:]]\nr = f(1)", "def f(x):\n    i = 1\n    return x[i:]\nr = f(1)", "f = lambda: 1\nr = f()[1:]",
	"x = [1]\nr = x[0][1:]", "x = 1\nr = (x)[1:]", "x = [[1]]\nr = x[0][:][1:2:0]", "x, y = 1, 2\nr = (x + y)[1:]", "x = 1\nr = x[:-1]",
	"s = struct\nr = s[1:]", "l = [1, 2, 3]\nr = l[1:][::-1][0:1]",
	"s = 'abc'\nr = s[len:]", "l = [1]\nr = l[:len]", "r = len[1:]", "def f(s, None):\n    return s[None:]\nr = f('ab', [])",
	"x = 1\nr = x[-1 if x else 2:]", "x = 'ab'\nr = x[x if x else 2:]", "x = 1\nr = x[-1 if x else len:]", "s = 'ab'\nr = s[('a' + 'b'):]", "s = 'ab'\nr = s[[1] + [2]:]", "s = 'ab'\nr = s[:() + ()]",
	"s = 'ab'\nx = 'c'\nr = s[x + 'a' + 'b':]", "s = 'ab'\nx = 'c'\nr = s[x + 'a' + x:]", "s = 'ab'\nx = 1\nr = s[[x] + [1]:]", "s = 'ab'\nx = 1\nr = s['a' + 'b' + x:]", "None = 1\nx = 'ab'\nr = x[:None]", "x = 'ab'\nr = x[:None]\nNone = []",
	// methods that add one element, charged (growCost)
	"l = [1]\nl.append(2)\nl.insert(0, 0)\nl.insert(-1, 9)\ns = set([1])\ns.add(2)\nd = {}\nd.setdefault('a', 1)\nr = (l, s, d, d.setdefault('a', 2), d.setdefault('b'))",
	"l = []\nl.append()", "l = []\nl.append(1, 2)", "l = []\nl.insert(1)", "s = set()\ns.add([])", "d = {}\nd.setdefault([], 1)", "x = 1\nx.append(1)",
	"t = ()\nt.append(1)", "l = [1]\nfor x in l:\n    l.append(x)", "f = [].append\nf(1)\nr = f", "s = set()\na = s.add\na(1)\nr = (a, s)", "l = []\nl.append(x = 1)",
	// sums folded as the compiler folds them (ops_fold.go)
	"t = ()\nr = t + [1] + [fail('second')]", "x = 'a'\nr = x + 'b' + 'c'", "l = [1]\nr = l + [2] + [3] + l", "t = (1,)\nr = t + (2,) + (3,) + t",
	"b = b'a'\nr = b + b'b' + b'c'", "x = 1\nr = x + [1] + [2]", "x = 'a'\nr = 'b' + 'c' + x + 'd' + 'e'", "x = 1\nr = x + 'a' + (\n'b')",
	"x = [1]\nr = x + [len('ab')] + [x[0] + 1]", "x = 'a'\nr = (x + 'b') + 'c'", "x = 1\nr = x + ('a' + 'b')", "x = ()\nr = x + () + (x, x) + x",
	// x op= y before anything binds x at the top level is the resolver's error, as written
	"for i in range(3):\n    if i > 0:\n        s += s\n    else:\n        s = 'x'\nr = s",
	"def f():\n    s += 'x'\nr = f()", "x = 1\ndef f():\n    x += 1\n    return x\nr = f()",
	"def f():\n    for i in range(3):\n        if i > 0:\n            s += s\n        else:\n            s = 'x'\n    return s\nr = f()",
}
