package starlark

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/hookhost/hookhost/scripting"
)

// expectModule is the expect module of script tests: the shared
// assertions plus fails, which calls a Starlark function.
func expectModule() *starlarkstruct.Module {
	m := scripting.ExpectModule()
	mod := bindModule(&m)
	mod.Members["fails"] = starlark.NewBuiltin("expect.fails", expectFails)
	return mod
}

// expectFails implements expect.fails(fn, text): calling fn must fail
// with an error whose message contains text.
func expectFails(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var text string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "text?", &text); err != nil {
		return nil, err
	}
	_, err := starlark.Call(thread, fn, nil, nil)
	msg := ""
	if err != nil {
		msg = err.Error()
		if ee, ok := err.(*starlark.EvalError); ok {
			msg = ee.Msg
		}
	}
	if e := scripting.FailsMessage(err, msg, text); e != nil {
		return nil, e
	}
	return starlark.None, nil
}
