package json

import (
	"fmt"

	"github.com/hookhost/hookhost/stdlib"
)

// MaxSize is the longest text decode accepts and encode produces, in
// bytes. It bounds the memory either can allocate: decoding costs a small
// multiple of the text's size, and indentation could otherwise multiply a
// small value's encoding many times over.
const MaxSize = 4 << 20

// MaxIndent is the largest indent encode accepts, in spaces.
const MaxIndent = 16

// New returns the json module. It holds no state and is safe for
// concurrent use.
func New() stdlib.Module {
	return stdlib.Module{
		Name: "json",
		Doc:  "encode values as JSON text and decode JSON text",
		Funcs: []stdlib.Func{
			{Name: "encode", Params: []stdlib.Param{stdlib.P("value"), stdlib.Opt("indent")}, Impl: encode,
				Doc: "value as JSON text, keys sorted; compact unless indent (spaces) is given"},
			{Name: "decode", Params: []stdlib.Param{stdlib.P("text")}, Impl: decode,
				Doc: "the value JSON text describes"},
		},
	}
}

func encode(c *stdlib.Call) (any, error) {
	indent, err := c.OptInt(1, 0)
	if err != nil {
		return nil, err
	}
	if indent < 0 || indent > MaxIndent {
		return nil, fmt.Errorf("argument 2 (indent): want 0 to %d spaces, got %d", MaxIndent, indent)
	}
	return Encode(c.Any(0), int(indent))
}

func decode(c *stdlib.Call) (any, error) {
	text, err := c.String(0)
	if err != nil {
		return nil, err
	}
	return Decode(text)
}
