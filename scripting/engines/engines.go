package engines

import (
	"strings"

	"github.com/hookhost/hookhost/scripting"
	"github.com/hookhost/hookhost/scripting/lua"
	"github.com/hookhost/hookhost/scripting/starlark"
)

// All returns the engines, in the order their files sort when the host
// loads a directory: a new slice each call, since callers may extend it.
func All() []scripting.Engine {
	return []scripting.Engine{lua.Engine{}, starlark.Engine{}}
}

// ByExtension returns the engines keyed by file extension (".lua").
func ByExtension() map[string]scripting.Engine {
	m := map[string]scripting.Engine{}
	for _, e := range All() {
		m[e.Extension()] = e
	}
	return m
}

// Extensions returns the engines' file extensions, in All's order.
func Extensions() []string {
	var exts []string
	for _, e := range All() {
		exts = append(exts, e.Extension())
	}
	return exts
}

// For returns the engine of a file name by its extension, or nil.
func For(name string) scripting.Engine {
	for _, e := range All() {
		if strings.HasSuffix(name, e.Extension()) {
			return e
		}
	}
	return nil
}
