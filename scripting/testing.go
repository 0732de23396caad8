package scripting

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/hookhost/hookhost/stdlib"
)

// What test files add to the script API: hook.fire, which fires an event
// through the hooks under test, and the discovery of a file's test_*
// functions, which a test runner calls one by one.

// A FireFunc fires event with payload through the hooks under test, for
// hook.fire. opts are hook.fire's named options (a trailing table in Lua,
// keyword arguments in Starlark), which the runner validates. It returns
// the fire's result as a neutral map — action, reason, hook, payload,
// messages, trace and, where they apply, result and approval — or an
// error that hook.fire raises in the test.
type FireFunc func(ctx context.Context, event string, payload map[string]any, opts map[string]any) (map[string]any, error)

// ErrNoFire is the cause of hook.fire's error in a file compiled without
// Env.Fire: only test files run by a test runner can fire events.
var ErrNoFire = errors.New("only test files (*_test.lua, *_test.star) run by hookhost test can fire events")

// TestPrefix starts the name of every test function: a test file's
// top-level functions named test_… are its tests.
const TestPrefix = "test_"

// A Test is one test function of a test file.
type Test struct {
	// Name is the function's global name ("test_denies_rm_root").
	Name string
	// Line is the line where the function is defined.
	Line int
	// Func calls the test. The call's payload is empty; its return value
	// means nothing and is ignored.
	Func Function
}

// A TestProgram is a program that lists the test functions of its file.
// Both engines' programs are TestPrograms; the list is empty unless the
// file was compiled with Env.Testing.
type TestProgram interface {
	Program
	// Tests lists the file's top-level test_* functions in definition
	// order (by line, then name).
	Tests() []Test
}

// SortTests puts tests in definition order: by line, then by name (two
// names for one function share a line).
func SortTests(tests []Test) {
	slices.SortFunc(tests, func(a, b Test) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Name, b.Name))
	})
}

// HookModuleFor returns the hook module's constructors and hook.fire,
// which fires through env.Fire when it is set and fails with ErrNoFire
// otherwise, so that a hook file calling it learns why.
func HookModuleFor(env *Env) stdlib.Module {
	m := HookModule()
	var fire FireFunc
	if env != nil {
		fire = env.Fire
	}
	m.Funcs = append(m.Funcs, stdlib.Func{
		Name:     "fire",
		Params:   []stdlib.Param{stdlib.P("event"), stdlib.Opt("payload")},
		Kwargs:   true,
		Blocking: true, // it runs every hook of the event; the test's deadline must be able to abandon it
		Doc:      "fire an event through the hooks under test and return the result (test files only)",
		Impl:     func(c *stdlib.Call) (any, error) { return callFire(c, fire) },
	})
	return m
}

func callFire(c *stdlib.Call, fire FireFunc) (any, error) {
	if fire == nil {
		return nil, ErrNoFire
	}
	event, err := c.String(0)
	if err != nil {
		return nil, err
	}
	payload := map[string]any{}
	if c.Present(1) {
		if payload, err = c.Map(1); err != nil {
			return nil, err
		}
	}
	out, err := fire(c.Context, event, payload, c.Kwargs)
	if err != nil {
		return nil, err
	}
	return out, nil
}
