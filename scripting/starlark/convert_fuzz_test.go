package starlark

import (
	"errors"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// buildValue turns fuzz input into a Starlark value that may share
// sub-values, nest deeply or hold itself: each byte is an operation on a
// stack of values.
func buildValue(ops []byte) starlark.Value {
	stack := []starlark.Value{starlark.None}
	top := func() starlark.Value { return stack[len(stack)-1] }
	for _, op := range ops {
		switch op % 8 {
		case 0:
			stack = append(stack, starlark.MakeInt(int(op)))
		case 1:
			stack = append(stack, starlark.String([]byte{'a' + op%26}))
		case 2: // share: a list holding the top twice
			stack[len(stack)-1] = starlark.NewList([]starlark.Value{top(), top()})
		case 3: // a tuple of the top two
			if len(stack) > 1 {
				a, b := stack[len(stack)-2], top()
				stack = append(stack[:len(stack)-2], starlark.Tuple{a, b})
			}
		case 4: // a dict holding the top
			d := starlark.NewDict(1)
			_ = d.SetKey(starlark.String([]byte{'k', op}), top())
			stack[len(stack)-1] = d
		case 5: // nest ten levels deeper
			for range 10 {
				stack[len(stack)-1] = starlark.NewList([]starlark.Value{top()})
			}
		case 6: // a cycle, sometimes
			if l, ok := top().(*starlark.List); ok && op&0x10 != 0 {
				_ = l.Append(l)
			}
		case 7:
			stack = append(stack, starlark.Float(float64(op)/3))
		}
	}
	return starlark.NewList(stack)
}

// FuzzToNeutral converts values that share, nest and cycle. Conversion
// either succeeds with a neutral value that converts back to itself, or
// fails with a memory-limit, depth or cycle error; it never hangs or
// panics, because every visit is charged to a small budget.
func FuzzToNeutral(f *testing.F) {
	f.Add([]byte{0, 2, 2, 2, 2})
	f.Add([]byte{1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2})
	f.Add([]byte{0, 1, 3, 3, 3, 3, 3, 4, 4, 5, 5, 5})
	f.Add([]byte{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5})
	f.Add([]byte{2, 0x16})
	f.Add([]byte{0, 1, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		v := buildValue(ops)
		limits := scripting.Limits{MaxCallMemory: 1 << 20}.Or()
		m := meterFor(&scripting.Call{}, &limits)
		out, err := toNeutral(v, &m)
		if err != nil {
			if !errors.Is(err, scripting.ErrMemoryLimit) && !errors.Is(err, stdlib.ErrTooDeep) && !containsCycle(err) {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		if err := stdlib.Check(out); err != nil {
			t.Fatalf("not a neutral value: %v", err)
		}
		m2 := meterFor(&scripting.Call{}, &limits)
		back, err := m2.toStarlark(out)
		if err != nil {
			t.Fatalf("converting back: %v", err)
		}
		m3 := meterFor(&scripting.Call{}, &scripting.Limits{MaxCallMemory: 1 << 30})
		again, err := toNeutral(back, &m3)
		if err != nil || !stdlib.Equal(again, out) {
			t.Fatalf("round trip: got %v (%v), want %v", again, err, out)
		}
	})
}

func containsCycle(err error) bool {
	return strings.HasSuffix(err.Error(), "(a cycle cannot be converted)")
}
