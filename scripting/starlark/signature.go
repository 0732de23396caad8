package starlark

import (
	"go.starlark.net/starlark"

	"github.com/hookhost/hookhost/scripting"
)

// A signature is how a hook function takes the payload. Parameters are
// bound by name: an ordinary parameter is passed by position (cheaper
// than by keyword), its Starlark default standing in for an absent field;
// a keyword-only parameter is passed by keyword; **kwargs gets every
// field no parameter names. The name ctx gets the call context.
type signature struct {
	positional []param
	kwonly     []param
	kwargs     string // name of the **kwargs parameter, "" if none
	bound      map[string]bool
}

type param struct {
	name string
	def  starlark.Value // nil when the parameter has no default
}

func signatureOf(fn *starlark.Function) signature {
	n := fn.NumParams()
	if fn.HasVarargs() {
		n--
	}
	if fn.HasKwargs() {
		n--
	}
	npos := n - fn.NumKwonlyParams()
	sig := signature{bound: make(map[string]bool, n)}
	for i := 0; i < n; i++ {
		name, _ := fn.Param(i)
		p := param{name: name, def: fn.ParamDefault(i)}
		if i < npos {
			sig.positional = append(sig.positional, p)
		} else {
			sig.kwonly = append(sig.kwonly, p)
		}
		sig.bound[name] = true
	}
	if fn.HasKwargs() {
		sig.kwargs, _ = fn.Param(fn.NumParams() - 1)
	}
	return sig
}

// binding is which payload fields the signature converts: the names of
// its parameters, or every field with a **kwargs; never ctx, which is the
// call context, not the field of that name.
func (s signature) binding() *scripting.Binding {
	if s.kwargs != "" && !s.bound["ctx"] {
		return &scripting.Binding{All: true}
	}
	b := &scripting.Binding{}
	for _, ps := range [][]param{s.positional, s.kwonly} {
		for _, p := range ps {
			if p.name != "ctx" {
				b.Fields = append(b.Fields, p.name)
			}
		}
	}
	return b
}

// display lists the parameters for listings.
func (s signature) display() []string {
	var out []string
	for _, p := range s.positional {
		out = append(out, p.name)
	}
	for _, p := range s.kwonly {
		out = append(out, p.name)
	}
	if s.kwargs != "" {
		out = append(out, "**"+s.kwargs)
	}
	return out
}
