package stdlib

import (
	"context"
	"fmt"
	"math"
)

// A Module is a named set of functions that scripts can load.
type Module struct {
	// Name is what scripts load: require(Name) in Lua, load(Name, Name) in
	// Starlark.
	Name string
	// Doc is a one-line summary shown by tooling.
	Doc string
	// Funcs lists the module's functions in documentation order.
	Funcs []Func
	// Consts lists named constant values (neutral values) exposed next to
	// the functions, such as a version string.
	Consts map[string]any
}

// A Func is one function of a module.
type Func struct {
	// Name is the function's name inside its module ("parse").
	Name string
	// Params lists the positional parameters in order. Starlark callers may
	// also pass them by keyword; Lua callers pass them by position.
	Params []Param
	// Kwargs reports whether the function accepts extra named arguments:
	// key=value pairs in Starlark, or one trailing table in Lua. They
	// arrive in Call.Kwargs.
	Kwargs bool
	// Blocking reports whether the function may block on something it does
	// not control. The binder runs a blocking function on a goroutine of
	// its own so that the hook's deadline can abandon it.
	Blocking bool
	// Doc is a one-line summary.
	Doc string
	// Impl does the work. It is called with exactly len(Params) arguments,
	// an absent optional argument being nil.
	Impl func(c *Call) (any, error)
}

// A Param describes one positional parameter.
type Param struct {
	Name     string
	Optional bool
}

// P returns a required parameter, to keep module tables short.
func P(name string) Param { return Param{Name: name} }

// Opt returns an optional parameter, to keep module tables short.
func Opt(name string) Param { return Param{Name: name, Optional: true} }

// A Call is one invocation of a Func.
type Call struct {
	// Context is cancelled when the calling hook's deadline passes or its
	// fire is cancelled. It is never nil.
	Context context.Context
	// Hook is the id of the calling hook ("guard.lua:no-rm-root"), for logs.
	Hook string
	// Func is the function being called, for error messages.
	Func *Func
	// Args holds one neutral value per Func.Params entry.
	Args []any
	// Kwargs holds the extra named arguments of a Kwargs function, or nil.
	Kwargs map[string]any
}

// Lookup returns the module's function with the given name.
func (m *Module) Lookup(name string) (*Func, bool) {
	for i := range m.Funcs {
		if m.Funcs[i].Name == name {
			return &m.Funcs[i], true
		}
	}
	return nil, false
}

// argError formats an error about argument i.
func (c *Call) argError(i int, format string, args ...any) error {
	name := fmt.Sprintf("#%d", i+1)
	if c.Func != nil && i < len(c.Func.Params) {
		name = fmt.Sprintf("%d (%s)", i+1, c.Func.Params[i].Name)
	}
	return fmt.Errorf("argument %s: %s", name, fmt.Sprintf(format, args...))
}

// Present reports whether argument i was given (is not nil).
func (c *Call) Present(i int) bool { return i < len(c.Args) && c.Args[i] != nil }

func (c *Call) arg(i int) any {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return nil
}

// String returns argument i, which must be a string.
func (c *Call) String(i int) (string, error) {
	switch v := c.arg(i).(type) {
	case string:
		return v, nil
	default:
		return "", c.argError(i, "want string, got %s", TypeName(v))
	}
}

// OptString returns argument i as a string, or def when it is absent.
func (c *Call) OptString(i int, def string) (string, error) {
	if !c.Present(i) {
		return def, nil
	}
	return c.String(i)
}

// Int returns argument i, which must be an integer (a float with no
// fractional part is accepted, since Lua numbers are floats).
func (c *Call) Int(i int) (int64, error) {
	switch v := c.arg(i).(type) {
	case int64:
		return v, nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
			return int64(v), nil
		}
		return 0, c.argError(i, "want integer, got %v", v)
	default:
		return 0, c.argError(i, "want integer, got %s", TypeName(v))
	}
}

// OptInt returns argument i as an integer, or def when it is absent.
func (c *Call) OptInt(i int, def int64) (int64, error) {
	if !c.Present(i) {
		return def, nil
	}
	return c.Int(i)
}

// Number returns argument i, which must be a number, as a float64.
func (c *Call) Number(i int) (float64, error) {
	switch v := c.arg(i).(type) {
	case int64:
		return float64(v), nil
	case float64:
		return v, nil
	default:
		return 0, c.argError(i, "want number, got %s", TypeName(v))
	}
}

// Bool returns argument i, which must be a bool.
func (c *Call) Bool(i int) (bool, error) {
	switch v := c.arg(i).(type) {
	case bool:
		return v, nil
	default:
		return false, c.argError(i, "want bool, got %s", TypeName(v))
	}
}

// OptBool returns argument i as a bool, or def when it is absent.
func (c *Call) OptBool(i int, def bool) (bool, error) {
	if !c.Present(i) {
		return def, nil
	}
	return c.Bool(i)
}

// List returns argument i, which must be a list. An empty map is accepted
// as an empty list, because Lua cannot tell {} from [].
func (c *Call) List(i int) ([]any, error) {
	switch v := c.arg(i).(type) {
	case []any:
		return v, nil
	case map[string]any:
		if len(v) == 0 {
			return []any{}, nil
		}
	}
	return nil, c.argError(i, "want list, got %s", TypeName(c.arg(i)))
}

// Map returns argument i, which must be a map. An empty list is accepted
// as an empty map.
func (c *Call) Map(i int) (map[string]any, error) {
	switch v := c.arg(i).(type) {
	case map[string]any:
		return v, nil
	case []any:
		if len(v) == 0 {
			return map[string]any{}, nil
		}
	}
	return nil, c.argError(i, "want map, got %s", TypeName(c.arg(i)))
}

// Any returns argument i whatever its type.
func (c *Call) Any(i int) any { return c.arg(i) }

// TypeName names the neutral type of v for error messages: "nil", "bool",
// "int", "float", "string", "list", "map", or the Go type for anything
// outside the neutral set.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "nil"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "string"
	case []any:
		return "list"
	case map[string]any:
		return "map"
	default:
		return fmt.Sprintf("%T", v)
	}
}
