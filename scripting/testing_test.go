package scripting_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/lua"
	"github.com/hookhost/hookhost/scripting/starlark"
	"github.com/hookhost/hookhost/stdlib"
)

// testFiles are the same test file in both languages: three test
// functions defined out of alphabetical order, a helper that is not a
// test, and tests that fire, fail and pass options to hook.fire.
var testFiles = []struct {
	engine scripting.Engine
	name   string
	code   string
}{
	{lua.Engine{}, "a_test.lua", `local expect = require("expect")
function test_zeta()
  local r = hook.fire("tool.execute.pre", { tool_name = "bash" }, { allow_hook_errors = true })
  expect.action(r, "deny")
end
function helper() end
local function test_local() end

function test_alpha()
  expect.eq(1, 2)
end
function test_mid() hook.fire("session.end") end
`},
	{starlark.Engine{}, "a_test.star", `load("expect", "expect")
def test_zeta():
    r = hook.fire("tool.execute.pre", {"tool_name": "bash"}, allow_hook_errors = True)
    expect.action(r, "deny")

def helper():
    pass

def test_alpha():
    expect.eq(1, 2)

def test_mid():
    hook.fire("session.end")
`},
}

type fired struct {
	event   string
	payload map[string]any
	opts    map[string]any
}

func TestTestFunctions(t *testing.T) {
	for _, f := range testFiles {
		t.Run(f.name, func(t *testing.T) {
			var got []fired
			env := &scripting.Env{Testing: true, Fire: func(_ context.Context, event string, payload, opts map[string]any) (map[string]any, error) {
				got = append(got, fired{event, payload, opts})
				return map[string]any{"action": "deny", "reason": "", "hook": "g.lua:x", "trace": []any{}}, nil
			}}
			prog := compile(t, f.engine, f.name, f.code, env)
			tests := prog.(scripting.TestProgram).Tests()
			var names []string
			for _, ts := range tests {
				names = append(names, ts.Name)
			}
			if strings.Join(names, " ") != "test_zeta test_alpha test_mid" {
				t.Fatalf("tests %v, want test_zeta test_alpha test_mid (definition order; no helper, no local)", names)
			}
			if tests[0].Line != 2 {
				t.Errorf("test_zeta is on line %d, want 2", tests[0].Line)
			}
			if _, err := call(tests[0]); err != nil {
				t.Errorf("test_zeta: %v", err)
			}
			_, err := call(tests[1])
			var se *scripting.Error
			if !errors.As(err, &se) || se.Line != tests[1].Line+1 || !strings.Contains(se.Msg, "expect.eq: got 1, want 2") {
				t.Errorf("test_alpha: got %v, want an expect.eq failure on line %d", err, tests[1].Line+1)
			}
			if _, err := call(tests[2]); err != nil {
				t.Errorf("test_mid: %v", err)
			}
			want := []fired{
				{"tool.execute.pre", map[string]any{"tool_name": "bash"}, map[string]any{"allow_hook_errors": true}},
				{"session.end", map[string]any{}, nil},
			}
			if len(got) != len(want) {
				t.Fatalf("fired %v, want %v", got, want)
			}
			for i := range want {
				if got[i].event != want[i].event || !stdlib.Equal(got[i].payload, want[i].payload) ||
					!stdlib.Equal(any(got[i].opts), any(want[i].opts)) && len(got[i].opts)+len(want[i].opts) > 0 {
					t.Errorf("fire %d: got %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestNoTestsWithoutTesting: an ordinary hook file lists no tests, and
// its hook.fire fails with ErrNoFire.
func TestNoTestsWithoutTesting(t *testing.T) {
	for _, f := range []struct {
		engine scripting.Engine
		name   string
		code   string
	}{
		{lua.Engine{}, "h.lua", "function test_x() end\n" +
			`hook.on("tool.execute.pre", function() return hook.fire("turn.pre", {}) end, { name = "h" })`},
		{starlark.Engine{}, "h.star", "def test_x():\n    pass\n" +
			"def h():\n    return hook.fire(\"turn.pre\", {})\nhook.on(\"tool.execute.pre\", h)\n"},
	} {
		prog := compile(t, f.engine, f.name, f.code, &scripting.Env{})
		if n := len(prog.(scripting.TestProgram).Tests()); n != 0 {
			t.Errorf("%s: %d tests without Env.Testing, want 0", f.name, n)
		}
		_, err := call(scripting.Test{Func: prog.Hooks()[0].Func})
		if !errors.Is(err, scripting.ErrNoFire) && !strings.Contains(err.Error(), "hook.fire: "+scripting.ErrNoFire.Error()) {
			t.Errorf("%s: hook.fire in a hook: got %v, want %q", f.name, err, scripting.ErrNoFire)
		}
	}
}

func compile(t *testing.T, e scripting.Engine, name, code string, env *scripting.Env) scripting.Program {
	t.Helper()
	prog, err := e.Compile(context.Background(), scripting.Source{Name: name, Code: []byte(code)}, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prog.Close)
	return prog
}

func call(ts scripting.Test) (any, error) {
	c := &scripting.Call{Payload: map[string]any{}, Config: map[string]any{}, Hook: ts.Name,
		Timeout: time.Second, Deadline: time.Now().Add(time.Second)}
	return ts.Func.Call(c)
}
