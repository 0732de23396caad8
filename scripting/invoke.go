package scripting

import (
	"context"
	"fmt"

	"github.com/hookhost/hookhost/stdlib"
)

// Invoke runs a module function for a script, the same way in every
// engine: with the hook's context and id when a hook call is running
// (call is nil while a file's top level runs), on a goroutine the
// deadline can abandon when the function may block, and with its panics
// turned into errors.
func Invoke(call *Call, f *stdlib.Func, c *stdlib.Call) (any, error) {
	if call != nil {
		c.Context, c.Hook = call.Context(), call.Hook
		if f.Blocking {
			return Guard(call, func() (any, error) { return runImpl(f, c) })
		}
	}
	return runImpl(f, c)
}

// runImpl calls f.Impl, turning a panic into an error.
func runImpl(f *stdlib.Func, c *stdlib.Call) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	return f.Impl(c)
}

// NewModuleCall is the stdlib.Call an engine fills to call f: with its
// Args in the same allocation when f takes few parameters (most take one
// or two), since a hook may call module functions many times per call.
func NewModuleCall(f *stdlib.Func) *stdlib.Call {
	type smallCall struct {
		call stdlib.Call
		args [smallCallArgs]any
	}
	if len(f.Params) <= smallCallArgs {
		s := &smallCall{call: stdlib.Call{Func: f, Context: context.Background()}}
		s.call.Args = s.args[:len(f.Params):len(f.Params)]
		return &s.call
	}
	return &stdlib.Call{Func: f, Args: make([]any, len(f.Params)), Context: context.Background()}
}

// smallCallArgs is how many parameters NewModuleCall allocates with the call.
const smallCallArgs = 3
