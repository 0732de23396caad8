package starlark

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// TestGetUnhashableKey is the one difference ops_get.go admits: get's own
// error (an unhashable key) has the interpreter's message and line, but
// the dot's column.
func TestGetUnhashableKey(t *testing.T) {
	src := "d, k = {}, [1]\nr = d.get(k, 0)"
	want, got := evalPlain(src), evalRewritten(src, 64<<20)
	if got.msg != want.msg {
		t.Fatalf("message %q, want %q", got.msg, want.msg)
	}
	if !strings.Contains(want.backtrace, "same.star:2:10:") || !strings.Contains(got.backtrace, "same.star:2:6:") {
		t.Fatalf("backtraces\n%s\nand\n%s\nwant the parenthesis (2:10) and the dot (2:6)", want.backtrace, got.backtrace)
	}
}

// TestGetAllocatesNoMethod checks what the rewrite is for: d.get(…) on a
// dict binds no method value and, in the call-free form (a name, literal
// arguments), copies no arguments, so a function that calls it allocates
// only its frame, two objects fewer than as go.starlark.net compiles it;
// with a name for the key it still calls $get, one object fewer.
func TestGetAllocatesNoMethod(t *testing.T) {
	for _, tc := range []struct {
		src   string
		fewer float64
	}{
		{"def f(p):\n    return p.get('command', '')\n", 2},
		{"def f(p):\n    return p.get('command')\n", 2},
		{"def f(p):\n    k = 'command'\n    return p.get(k, '')\n", 1},
	} {
		t.Run(tc.src, func(t *testing.T) { testGetAllocates(t, tc.src, tc.fewer) })
	}
}

func testGetAllocates(t *testing.T, src string, fewer float64) {
	plain := func() starlark.Value {
		globals, err := starlark.ExecFileOptions(&fileOptions, &starlark.Thread{}, "plain.star", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		return globals["f"]
	}()
	ct, rewritten := opsFunction(t, src, true)

	d := starlark.NewDict(1)
	if err := d.SetKey(starlark.String("command"), starlark.String("ls")); err != nil {
		t.Fatal(err)
	}
	allocs := func(f starlark.Value, thread *starlark.Thread) float64 {
		args := starlark.Tuple{d}
		return testing.AllocsPerRun(100, func() {
			v, err := starlark.Call(thread, f, args, nil)
			if err != nil || v != starlark.String("ls") {
				t.Fatal(v, err)
			}
		})
	}
	p, r := allocs(plain, &starlark.Thread{}), allocs(rewritten, &ct.thread)
	if r != p-fewer {
		t.Fatalf("rewritten call allocates %v objects, as written %v: want %v fewer", r, p, fewer)
	}
}
