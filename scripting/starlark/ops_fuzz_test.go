package starlark

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/hookhost/hookhost/scripting"
)

// FuzzOpsSameAsInterpreter: whatever the source, the rewritten file
// gives what go.starlark.net gives — the same value of r, or the same
// error at the same place — unless the rewritten one stopped at its
// budget (1 MiB), where the plain one is not run at all.
func FuzzOpsSameAsInterpreter(f *testing.F) {
	for _, src := range sameCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 400 {
			return
		}
		got := evalRewritten(src, 1<<20)
		if strings.Contains(got.msg, scripting.ErrMemoryLimit.Error()) || strings.Contains(got.msg, "too many steps") ||
			strings.Contains(got.msg, "limit for integer string conversion") || strings.Contains(got.msg, "bits, more than the limit of") || // hookhost's own limit on ints (ints.go)
			got.cause == fmt.Sprintf("%T", &heavyTupleError{}) { // and on tuples (ops_tuples.go)
			return
		}
		want := evalPlain(src)
		if strings.Contains(want.msg, "too many steps") || strings.HasPrefix(want.msg, plainPanicked) {
			return
		}
		if strings.Contains(src, ".get(") { // the error column $get admits (ops_get.go), and nothing else
			got.backtrace = frameColumn.ReplaceAllString(got.backtrace, "$1")
			want.backtrace = frameColumn.ReplaceAllString(want.backtrace, "$1")
		}
		if got != want {
			t.Errorf("%q:\nrewritten %+v\nwant      %+v", src, got, want)
		}
	})
}

// formatArgs are the arguments the format fuzz targets fill formats
// with: strings that need escapes, numbers at their widest, composite
// values.
var formatArgs = starlark.Tuple{
	starlark.String("a\"\\\n\té\x00\xff"), starlark.MakeInt(-1 << 62), starlark.Float(-1e308),
	starlark.NewList([]starlark.Value{starlark.String("x"), starlark.None, starlark.True}),
	starlark.Tuple{starlark.MakeInt(1)}, starlark.Bytes("b\x01"), new(starlark.Dict),
	starlark.MakeBigInt(new(big.Int).Lsh(big.NewInt(1), 200)), starlark.MakeInt(65),
}

// FuzzInterpolateSize: for any format, when format % args succeeds its
// result is no longer than interpolateSize said.
func FuzzInterpolateSize(f *testing.F) {
	for _, s := range []string{"%s %r %d", "%(a)s%(a)r", "%o%x%X%e%f%g%c%%", "%s", "%d %i", "%c%c", "%(k)d"} {
		f.Add(s)
	}
	dict := starlark.NewDict(2)
	_ = dict.SetKey(starlark.String("a"), formatArgs[0])
	_ = dict.SetKey(starlark.String("k"), formatArgs[2])
	f.Fuzz(func(t *testing.T, format string) {
		for _, x := range []starlark.Value{formatArgs, dict, formatArgs[0], formatArgs[1], formatArgs[2], formatArgs[8], formatArgs[3]} {
			out, err := starlark.Binary(syntax.PERCENT, starlark.String(format), x)
			if err != nil {
				continue
			}
			n, err := interpolateSize(&starlark.Thread{}, format, x)
			if err != nil {
				t.Fatalf("%q %% %v: %v", format, x, err)
			}
			if got := int64(len(out.(starlark.String))); got > n {
				t.Errorf("%q %% %v: %d bytes, more than the bound %d", format, x, got, n)
			}
		}
	})
}

// FuzzFormatSize: for any format, when format.format(args…, k=…)
// succeeds its result is no longer than formatSize said.
func FuzzFormatSize(f *testing.F) {
	for _, s := range []string{"{} {!r} {}", "{0}{0}{1!r}", "{k}{k!r}{k!s}", "{{}}{}", "{2}{3}{4}{5}{6}{7}{8}"} {
		f.Add(s)
	}
	kwargs := []starlark.Tuple{{starlark.String("k"), formatArgs[0]}}
	f.Fuzz(func(t *testing.T, format string) {
		method, err := starlark.String(format).Attr("format")
		if err != nil {
			t.Fatal(err)
		}
		out, err := starlark.Call(&starlark.Thread{}, method, formatArgs, kwargs)
		if err != nil {
			return
		}
		n, err := formatSize(&starlark.Thread{}, format, formatArgs, kwargs)
		if err != nil {
			t.Fatalf("%q: %v", format, err)
		}
		if got := int64(len(out.(starlark.String))); got > n {
			t.Errorf("%q: %d bytes, more than the bound %d", format, got, n)
		}
	})
}
