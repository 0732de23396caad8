package lua

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/hookhost/hookhost/scripting"
)

// A signature is how a hook function takes the payload: each named
// parameter gets the field of that name ("ctx" gets the call context),
// and a vararg function gets, after its named parameters, the whole
// payload as one table.
type signature struct {
	params  []string
	vararg  bool
	usesCtx bool
}

// signatureOf reads parameter names from the compiled function's debug
// information: a function's first NumParameters locals are its
// parameters, in order (method syntax adds "self" first).
func signatureOf(proto *lua.FunctionProto) signature {
	n := int(proto.NumParameters)
	sig := signature{params: make([]string, 0, n), vararg: proto.IsVarArg&lua.VarArgIsVarArg != 0}
	for i := 0; i < n && i < len(proto.DbgLocals); i++ {
		name := proto.DbgLocals[i].Name
		sig.params = append(sig.params, name)
		if name == "ctx" {
			sig.usesCtx = true
		}
	}
	return sig
}

// display lists the parameters for listings, "..." for a vararg.
func (s signature) display() []string {
	out := append([]string(nil), s.params...)
	if s.vararg {
		out = append(out, "...")
	}
	return out
}

// binding is which payload fields a call converts, checking them
// (scripting.Hook.Binds): the named parameters but ctx, which is the call
// context, or every field for a vararg function, which gets the whole
// payload.
func (s signature) binding() *scripting.Binding {
	if s.vararg {
		return &scripting.Binding{All: true}
	}
	b := &scripting.Binding{Fields: make([]string, 0, len(s.params))}
	for _, p := range s.params {
		if p != "ctx" {
			b.Fields = append(b.Fields, p)
		}
	}
	return b
}
