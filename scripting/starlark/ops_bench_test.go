package starlark

import (
	"testing"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/benchcpu"
)

// BenchmarkOps measures what the rewrite costs one operation: the same
// loop of 1,000 operations compiled as go.starlark.net compiles it
// (plain) and as hookhost rewrites it, run under a call's meter. It
// reports ns/op (one op is one loop) and cpu-ns/expr, the process's CPU
// time for one operation and its share of the loop.
func BenchmarkOps(b *testing.B) {
	for _, c := range []struct{ name, expr string }{
		{"int+int", "n + n"},     // parameters: rewritten
		{"int+counter", "i + n"}, // i only holds numbers: not rewritten
		{"int*int", "n * n"},     // rewritten
		{"int*2", "n * 2"},       // rewritten (n could be a string)
		{"counter*2", "i * 2"},   // not rewritten
		{"str+str", "s + s"},
		{"str*int", "s * 3"},
		{"str%tuple", `"%s-%d" % (s, i)`},
		{"join", `",".join(l)`},
		{"format", `"{}-{}".format(s, i)`},
		{"str==str", "s == s"},         // two parameters: rewritten, compared at once
		{"str==literal", `s == "abc"`}, // not rewritten
		{"str-in-list", "s in l"},      // rewritten
		{"tuple", "(s, i)"},            // a display: weighed
		{"lower", "s.lower()"},
		{"list==list", "l == l"}, // the metered walk
		{"str-slice", "s[1:]"},   // charged by what it selects
		{"list-slice", "l[:1]"},
		{"dict.get", `{"a": s}.get("a", "")`}, // no bound method
		{"append", "[].append(s)"},            // charged one slot
	} {
		src := "def f(n, s, l):\n    x = None\n    for i in range(1000):\n        x = " + c.expr + "\n    return x\n"
		b.Run(c.name+"/plain", func(b *testing.B) { benchOpsLoop(b, src, false) })
		b.Run(c.name+"/rewritten", func(b *testing.B) { benchOpsLoop(b, src, true) })
	}
}

func benchOpsLoop(b *testing.B, src string, rewritten bool) {
	ct, f := opsFunction(b, src, rewritten)
	args := starlark.Tuple{starlark.MakeInt(7), starlark.String("abc"), starlark.NewList([]starlark.Value{starlark.String("a"), starlark.String("b")})}
	b.ReportAllocs()
	b.ResetTimer()
	start := benchcpu.Used(b)
	for i := 0; i < b.N; i++ {
		ct.call = &scripting.Call{} // a fresh budget each time
		if _, err := starlark.Call(&ct.thread, f, args, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchcpu.Used(b)-start)/float64(b.N)/1000, "cpu-ns/expr")
}

// opsFunction compiles src, plain or rewritten, runs its top level on a
// call thread with the hidden builtins predeclared, and returns the
// thread and the function f it defines.
func opsFunction(tb testing.TB, src string, rewritten bool) (*callThread, starlark.Value) {
	limits := scripting.Limits{}.Or()
	ct := &callThread{limits: &limits, call: &scripting.Call{}}
	ct.thread.SetLocal(callKey, ct)
	predeclared := starlark.StringDict{}
	addOpBuiltins(predeclared)
	var prog *starlark.Program
	var err error
	if rewritten {
		prog, err = rewrittenProgram("ops.star", []byte(src), predeclared)
	} else {
		_, prog, err = starlark.SourceProgramOptions(&fileOptions, "ops.star", src, predeclared.Has)
	}
	if err != nil {
		tb.Fatal(err)
	}
	globals, err := prog.Init(&ct.thread, predeclared)
	if err != nil {
		tb.Fatal(err)
	}
	return ct, globals["f"]
}
