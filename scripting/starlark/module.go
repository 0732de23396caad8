package starlark

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/stdlib"
)

// Thread-local keys.
const (
	callKey     = "hookhost.call"     // *callThread of the thread
	registryKey = "hookhost.registry" // *registry while the top level runs
)

// callOf returns the hook call a thread serves, or nil at top level.
func callOf(thread *starlark.Thread) *scripting.Call {
	if ct := callThreadOf(thread); ct != nil && !ct.topLevel {
		return ct.call
	}
	return nil
}

// bindModule builds the Starlark module value of a stdlib module.
func bindModule(m *stdlib.Module) *starlarkstruct.Module {
	members := make(starlark.StringDict, len(m.Funcs)+len(m.Consts))
	for i := range m.Funcs {
		f := &m.Funcs[i]
		members[f.Name] = starlark.NewBuiltin(m.Name+"."+f.Name, builtin(m.Name+"."+f.Name, f))
	}
	for k, v := range m.Consts {
		members[k] = toStarlark(v)
	}
	mod := &starlarkstruct.Module{Name: m.Name, Members: members}
	mod.Freeze()
	return mod
}

// builtin adapts a stdlib function to Starlark: positional arguments, or
// keyword arguments named after the parameters; extra keywords go to
// Kwargs when the function takes them. Errors start with the function's
// name; panics are recovered.
func builtin(name string, f *stdlib.Func) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		m := meterOf(thread)
		c, err := unpack(f, args, kwargs, &m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out, err := scripting.Invoke(callOf(thread), f, c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if d, ok := out.(*scripting.Decision); ok {
			return newDecisionValue(thread, *d), nil
		}
		v, err := m.toStarlark(out)
		if err == nil {
			err = m.flush()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: result: %w", name, err)
		}
		return v, nil
	}
}

func unpack(f *stdlib.Func, args starlark.Tuple, kwargs []starlark.Tuple, m *meter) (*stdlib.Call, error) {
	np := len(f.Params)
	if len(args) > np {
		return nil, fmt.Errorf("got %d arguments, want at most %d", len(args), np)
	}
	c := scripting.NewModuleCall(f)
	var setBuf [8]bool // which parameters are bound; on the stack for most functions
	set := setBuf[:0]
	if np > len(setBuf) {
		set = make([]bool, 0, np)
	}
	set = set[:np]
	for i, a := range args {
		v, err := toNeutral(a, m)
		if err != nil {
			return nil, fmt.Errorf("argument %d (%s): %w", i+1, f.Params[i].Name, err)
		}
		c.Args[i], set[i] = v, true
	}
	for _, kv := range kwargs {
		if err := setKeyword(c, f, set, string(kv[0].(starlark.String)), kv[1], m); err != nil {
			return nil, err
		}
	}
	for i, p := range f.Params {
		if !p.Optional && (!set[i] || c.Args[i] == nil) {
			return nil, fmt.Errorf("missing argument %d (%s)", i+1, p.Name)
		}
	}
	return c, nil
}

// setKeyword binds one keyword argument.
func setKeyword(c *stdlib.Call, f *stdlib.Func, set []bool, key string, val starlark.Value, m *meter) error {
	v, err := toNeutral(val, m)
	if err != nil {
		return fmt.Errorf("argument %s: %w", key, err)
	}
	for i, p := range f.Params {
		if p.Name == key {
			if set[i] {
				return fmt.Errorf("got multiple values for argument %s", key)
			}
			c.Args[i], set[i] = v, true
			return nil
		}
	}
	if !f.Kwargs {
		return fmt.Errorf("unexpected keyword argument %s", key)
	}
	if c.Kwargs == nil {
		c.Kwargs = make(map[string]any)
	}
	c.Kwargs[key] = v
	return nil
}

// loader resolves load("json", "json") and load("json", "encode") to the
// host's modules, and nothing else.
type loader struct {
	modules map[string]*starlarkstruct.Module
}

func newLoader(mods []stdlib.Module, testing bool) *loader {
	l := &loader{modules: make(map[string]*starlarkstruct.Module, len(mods))}
	for i := range mods {
		l.modules[mods[i].Name] = bindModule(&mods[i])
	}
	if testing {
		l.modules["expect"] = expectModule()
	}
	return l
}

func (l *loader) load(_ *starlark.Thread, name string) (starlark.StringDict, error) {
	m, ok := l.modules[name]
	if !ok {
		return nil, fmt.Errorf("module %q is not available (available: %s)", name, l.names())
	}
	out := make(starlark.StringDict, len(m.Members)+1)
	for k, v := range m.Members {
		out[k] = v
	}
	out[name] = m
	return out, nil
}

func (l *loader) names() string {
	names := make([]string, 0, len(l.modules))
	for n := range l.modules {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
