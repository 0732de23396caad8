package lua

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// FuzzLuaConvert builds a graph of Lua tables from the input — shared
// sub-tables, cycles, deep chains — and converts it under a small memory
// budget. The conversion must never panic, must fail with a cycle,
// depth or memory-limit error or produce a tree whose size was charged,
// and a converted value must survive the trip back into Lua and out.
func FuzzLuaConvert(f *testing.F) {
	f.Add([]byte{0, 0, 3, 0, 1, 3, 0, 1})      // {t, t}
	f.Add([]byte{0, 3, 0, 0})                  // t contains itself
	f.Add(append([]byte{0}, repeatOps(40)...)) // {t, t} nested forty times
	f.Add([]byte{1, 2, 0, 4, 0, 0, 4, 0, 1})   // a map of leaves
	f.Add(append([]byte{0}, deepOps(250)...))  // a chain 250 deep
	f.Fuzz(func(t *testing.T, ops []byte) {
		L := lua.NewState(lua.Options{SkipOpenLibs: true})
		defer L.Close()
		root := buildGraph(L, ops)
		const limit = 1 << 20
		c := &scripting.Call{}
		out, err := toNeutral(root, nil, budget{call: c, limit: limit})
		if err != nil {
			msg := err.Error()
			if !errors.Is(err, scripting.ErrMemoryLimit) && !errors.Is(err, stdlib.ErrTooDeep) && !strings.Contains(msg, "contains itself") {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		if c.Charged() > limit {
			t.Fatalf("charged %d past the limit %d without failing", c.Charged(), limit)
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("the converted value does not encode: %v", err)
		}
		back, err := toLua(L, out, budget{})
		if err != nil {
			t.Fatal(err)
		}
		again, err := toNeutral(back, out, budget{})
		if err != nil {
			t.Fatalf("the round trip failed: %v", err)
		}
		if !stdlib.Equal(out, again) {
			t.Fatalf("the round trip changed the value: %v, then %v", scripting.Show(out), scripting.Show(again))
		}
	})
}

// buildGraph interprets ops: 0 makes a table, 1 a string, 2 a number,
// 3 i j appends node i to table j, 4 i j sets field "k<i>" of table j to
// node i (indices modulo the nodes so far). The last node is the root.
func buildGraph(L *lua.LState, ops []byte) lua.LValue {
	var nodes []lua.LValue
	node := func(b byte) lua.LValue { return nodes[int(b)%len(nodes)] }
	for i := 0; i < len(ops) && i < 4096; i++ {
		switch ops[i] % 5 {
		case 0:
			nodes = append(nodes, L.NewTable())
		case 1:
			nodes = append(nodes, lua.LString("s"))
		case 2:
			nodes = append(nodes, lua.LNumber(i))
		case 3, 4:
			if len(nodes) == 0 || i+2 >= len(ops) {
				break
			}
			v, target := node(ops[i+1]), node(ops[i+2])
			if t, ok := target.(*lua.LTable); ok {
				if ops[i]%5 == 3 {
					t.Append(v)
				} else {
					t.RawSetString("k"+string(rune('a'+ops[i+1]%26)), v)
				}
			}
			i += 2
		}
	}
	if len(nodes) == 0 {
		return lua.LNil
	}
	return nodes[len(nodes)-1]
}

// repeatOps builds t = {t, t} n times: table i+1 holds table i twice.
func repeatOps(n int) []byte {
	var ops []byte
	for i := 0; i < n; i++ {
		// a new table i+1 holding node i twice
		ops = append(ops, 0, 3, byte(i), byte(i+1), 3, byte(i), byte(i+1))
	}
	return ops
}

func deepOps(n int) []byte {
	var ops []byte
	for i := 0; i < n; i++ {
		ops = append(ops, 0, 3, byte(i+1), byte(i))
	}
	return ops
}
