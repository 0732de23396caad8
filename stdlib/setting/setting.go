package setting

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookhost/hookhost/stdlib"
)

// The values a verdicts setting may give each name, as messages list them.
const (
	deny, ask, allow = "deny", "ask", "allow"
	verdictChoices   = deny + ", " + ask + " or " + allow
)

// New returns the setting module. It holds no state.
func New() stdlib.Module {
	return stdlib.Module{
		Name: "setting",
		Doc:  "checks of a pack's settings: an unusable setting is an error, never ignored",
		Funcs: []stdlib.Func{
			{Name: "verdicts", Params: []stdlib.Param{stdlib.Opt("value"), {Name: "names"}, stdlib.Opt("of")}, Impl: verdictsFunc,
				Doc: `value, a map of name to "deny", "ask" or "allow" (nil: none), checked against the names a pack knows; of says what a name is ("theme")`},
		},
	}
}

func verdictsFunc(c *stdlib.Call) (any, error) {
	list, err := c.List(1)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(list))
	for i, n := range list {
		s, ok := n.(string)
		if !ok {
			return nil, fmt.Errorf("argument 2 (names): entry %d is %s, want a string", i+1, stdlib.TypeName(n))
		}
		names = append(names, s)
	}
	of, err := c.OptString(2, "name")
	if err != nil {
		return nil, err
	}
	if !c.Present(0) {
		return map[string]any{}, nil
	}
	value, ok := c.Args[0].(map[string]any)
	if !ok {
		if l, isList := c.Args[0].([]any); isList && len(l) == 0 {
			return map[string]any{}, nil // {} in Lua is an empty list as much as an empty map
		}
		return nil, fmt.Errorf("want a map of %s to %s, got %s", of, verdictChoices, stdlib.TypeName(c.Args[0]))
	}
	return Check(value, names, of)
}

// Check returns value, a verdicts setting, when every key is one of
// names and every value deny, ask or allow; else an error naming the key
// and the choices. of says what a name is, for the message.
func Check(value map[string]any, names []string, of string) (map[string]any, error) {
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}
	for _, k := range stdlib.SortedKeys(value) {
		if !known[k] {
			sorted := append([]string(nil), names...)
			sort.Strings(sorted)
			return nil, fmt.Errorf("unknown %s %q (%ss: %s)", of, k, of, strings.Join(sorted, ", "))
		}
		switch value[k] {
		case deny, ask, allow:
		default:
			return nil, fmt.Errorf("%s: want %s, got %s", k, verdictChoices, describe(value[k]))
		}
	}
	return value, nil
}

// describe shows a bad value: a string as itself, anything else by type.
func describe(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return stdlib.TypeName(v)
}
