package scripting

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// The expect module of script tests, written once over neutral values.
// Engines add fails, which needs to call a script function.

// ExpectModule returns expect.eq, ne, truthy, falsy, contains and the
// assertions on a hook.fire result (see resultAssertions). Each returns
// nil or fails with a message that shows both sides.
func ExpectModule() stdlib.Module {
	return stdlib.Module{
		Name:  "expect",
		Doc:   "assertions for script tests",
		Funcs: append(valueAssertions(), resultAssertions()...),
	}
}

func valueAssertions() []stdlib.Func {
	return []stdlib.Func{
		{Name: "eq", Params: []stdlib.Param{stdlib.Opt("got"), stdlib.Opt("want"), stdlib.Opt("msg")}, Impl: func(c *stdlib.Call) (any, error) {
			if !stdlib.Equal(c.Args[0], c.Args[1]) {
				return nil, fmt.Errorf("%sgot %s, want %s", prefix(c), Show(c.Args[0]), Show(c.Args[1]))
			}
			return nil, nil
		}},
		{Name: "ne", Params: []stdlib.Param{stdlib.Opt("got"), stdlib.Opt("unwanted"), stdlib.Opt("msg")}, Impl: func(c *stdlib.Call) (any, error) {
			if stdlib.Equal(c.Args[0], c.Args[1]) {
				return nil, fmt.Errorf("%sgot %s, want anything else", prefix(c), Show(c.Args[0]))
			}
			return nil, nil
		}},
		{Name: "truthy", Params: []stdlib.Param{stdlib.Opt("value"), stdlib.Opt("msg")}, Impl: func(c *stdlib.Call) (any, error) {
			if !Truthy(c.Args[0]) {
				return nil, fmt.Errorf("%sgot %s, want a true value", prefix(c), Show(c.Args[0]))
			}
			return nil, nil
		}},
		{Name: "falsy", Params: []stdlib.Param{stdlib.Opt("value"), stdlib.Opt("msg")}, Impl: func(c *stdlib.Call) (any, error) {
			if Truthy(c.Args[0]) {
				return nil, fmt.Errorf("%sgot %s, want a false value", prefix(c), Show(c.Args[0]))
			}
			return nil, nil
		}},
		{Name: "contains", Params: []stdlib.Param{stdlib.Opt("value"), stdlib.Opt("part"), stdlib.Opt("msg")}, Impl: contains},
	}
}

func prefix(c *stdlib.Call) string {
	if m, ok := c.Args[len(c.Args)-1].(string); ok && m != "" {
		return m + ": "
	}
	return ""
}

// Truthy is a value's truth as both languages agree on it: nil and false
// are false; so are 0, "" and empty collections (Starlark's view, which
// tests should not lean on in Lua).
func Truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return true
}

// Show renders a neutral value compactly for messages (JSON, keys
// sorted).
func Show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	const max = 300
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// FailsMessage checks a fails() outcome: err is what calling the function
// returned, text what the error should contain.
func FailsMessage(err error, msg string, text string) error {
	if err == nil {
		return fmt.Errorf("the function did not fail, want an error containing %q", text)
	}
	if !strings.Contains(msg, text) {
		return fmt.Errorf("the error %q does not contain %q", msg, text)
	}
	return nil
}
