package starlark

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/hookhost/hookhost/scripting"
)

// getReceivers are values a script may call get on that a plain source
// cannot make: a frozen dict, a module and a struct whose get is a Go
// builtin (failing for the key "fail"), a struct without get.
func getReceivers() starlark.StringDict {
	frozen := starlark.NewDict(2)
	_ = frozen.SetKey(starlark.String("a"), starlark.MakeInt(1))
	_ = frozen.SetKey(starlark.MakeInt(1), starlark.String("one"))
	frozen.Freeze()
	get := starlark.NewBuiltin("get", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 && args[0] == starlark.String("fail") {
			return nil, errors.New("get failed")
		}
		return append(starlark.Tuple{starlark.String("got")}, args...), nil
	})
	return starlark.StringDict{
		"frozen": frozen,
		"mod":    &starlarkstruct.Module{Name: "mod", Members: starlark.StringDict{"get": get}},
		"st":     starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{"get": get}),
		"noget":  starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{"got": starlark.None}),
		"struct": starlark.NewBuiltin("struct", starlarkstruct.Make),
	}
}

// evalBothWith is evalPlain and evalRewritten with getReceivers
// predeclared.
func evalBothWith(src string) (plain, rewritten evalOutcome) {
	thread := &starlark.Thread{Name: "plain"}
	thread.SetMaxExecutionSteps(sameMaxSteps)
	globals, err := starlark.ExecFileOptions(&fileOptions, thread, "same.star", src, getReceivers())
	plain = outcome(globals, err)

	limits := scripting.Limits{MaxCallMemory: 64 << 20}.Or()
	ct := &callThread{limits: &limits, call: &scripting.Call{}}
	ct.thread.Name = "rewritten"
	ct.thread.SetLocal(callKey, ct)
	ct.thread.SetMaxExecutionSteps(sameMaxSteps * 4)
	predeclared := getReceivers()
	addOpBuiltins(predeclared)
	prog, err := rewrittenProgram("same.star", []byte(src), predeclared)
	if err != nil {
		return plain, evalOutcome{msg: err.Error(), cause: fmt.Sprintf("%T", err)}
	}
	globals, err = prog.Init(&ct.thread, predeclared)
	return plain, outcome(globals, err)
}

var frameColumn = regexp.MustCompile(`(same\.star:\d+):\d+`)

// TestGetEveryReceiverKeyAndPlace compares x.get(key[, default]) as
// written and as rewritten for every kind of receiver, literal and
// non-literal keys and defaults, and the places a call can stand: the
// same value, message and backtrace, but for the column of an error
// raised by a get that is not a dict's (ops_get.go's second detail).
func TestGetEveryReceiverKeyAndPlace(t *testing.T) {
	receivers := []string{
		"x = {'a': 1, 1: 'i', b'b': 'by', 1000000000000000000000000000000: 'big', -1: 'neg'}",
		"x = {}", "x = frozen", "x = None", "x = 'abc'", "x = [1]", "x = (1,)", "x = set([1])", "x = 5", "x = range(3)",
		"x = mod", "x = st", "x = noget", "x = struct(get = 1)", "x = struct(get = lambda k, d = 7: fail('g'))",
	}
	keys := []string{"'a'", "1.0", "b'b'", "1000000000000000000000000000000", "'zz'", "-1", "True", "'fail'"}
	defaults := []string{"", "'D'", "1.5", "None"}
	places := []string{
		"r = E",
		"r = [E for _ in range(2)]",
		"r = (lambda: E)()",
		"def f(x):\n    return E\nr = f(x)",
		"def f(p = E):\n    return p\nr = f()",
		"r = E if E else str(E) + 'q'",
		"r = 1\nif E:\n    r = 2",
		"r = {E: 1}",
		"r = E[0]",
		"r = E.get('a')",
		"def f():\n    r = E\n    x = 1\n    return r\nr = f()",
	}
	getFails := map[string]bool{ // the receivers whose get itself can fail
		"x = mod": true, "x = st": true, "x = struct(get = 1)": true, "x = struct(get = lambda k, d = 7: fail('g'))": true,
	}
	cases, columnOnly := 0, 0
	for _, x := range receivers {
		for _, k := range keys {
			for _, d := range defaults {
				args := k
				if d != "" {
					args += ", " + d
				}
				for _, place := range places {
					src := x + "\n" + strings.ReplaceAll(place, "E", "x.get("+args+")")
					cases++
					plain, rewritten := evalBothWith(src)
					if plain == rewritten {
						continue
					}
					p, r := plain, rewritten
					p.backtrace = frameColumn.ReplaceAllString(p.backtrace, "$1")
					r.backtrace = frameColumn.ReplaceAllString(r.backtrace, "$1")
					if p == r && getFails[x] {
						columnOnly++
						continue
					}
					t.Errorf("%q:\nrewritten %+v\nwant      %+v", src, rewritten, plain)
				}
			}
		}
	}
	t.Logf("%d sources, %d differing only in the column of get's own error", cases, columnOnly)
}

// TestCallFreeGetFallbackExact: in the call-free form (a name, literal
// arguments) the branch for a receiver that is not a dict could be the
// call as written, which reads x.get at the dot and calls it at the
// parenthesis as the interpreter does; then even get's own errors carry
// go.starlark.net's columns and backtraces.
func TestCallFreeGetFallbackExact(t *testing.T) {
	for _, src := range []string{
		"r = mod.get('fail')", "r = st.get('fail', 2)", "s = struct(get = 1)\nr = s.get('a')",
		"s = struct(get = lambda k: fail('in get'))\nr = s.get('a')", "def f(x):\n    return x.get('fail', '')\nr = f(mod)",
		"r = noget.get('a')", "x = None\nr = x.get('a', 1)", "r = (mod.get('a'), st.get('a', b'x'), frozen.get(1.0), frozen.get('z', 'Z'))",
	} {
		if plain, rewritten := evalBothWith(src); plain != rewritten {
			t.Errorf("%q:\nrewritten %+v\nwant      %+v", src, rewritten, plain)
		}
	}
}
