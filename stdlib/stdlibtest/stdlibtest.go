// Package stdlibtest helps test stdlib modules in Go: it calls a module
// function the way the script binders do, so a module's table tests need
// no engine.
package stdlibtest

import (
	"context"
	"testing"

	"github.com/hookhost/hookhost/stdlib"
)

// Hook is the hook id calls made by Call carry.
const Hook = "test.lua:t"

// Call runs function fn of m as a binder would: exactly one argument per
// parameter (absent ones nil), a background context, the hook id Hook.
// It fails the test if m has no such function or args has too many
// values.
func Call(t testing.TB, m stdlib.Module, fn string, args ...any) (any, error) {
	t.Helper()
	return CallKw(t, m, fn, nil, args...)
}

// CallKw is Call with named arguments, for functions that take them.
func CallKw(t testing.TB, m stdlib.Module, fn string, kwargs map[string]any, args ...any) (any, error) {
	t.Helper()
	f, ok := m.Lookup(fn)
	if !ok {
		t.Fatalf("no function %q in module %s", fn, m.Name)
	}
	if len(args) > len(f.Params) {
		t.Fatalf("%s.%s takes %d arguments, the test passes %d", m.Name, fn, len(f.Params), len(args))
	}
	full := make([]any, len(f.Params))
	copy(full, args)
	out, err := f.Impl(&stdlib.Call{Context: context.Background(), Hook: Hook, Func: f, Args: full, Kwargs: kwargs})
	// the neutral value a result stands for (a module may return Records)
	return stdlib.Plain(out), err
}
