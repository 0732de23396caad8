package host

import (
	"github.com/hookhost/hookhost/scripting/engines"
	"path"
	"slices"
	"strings"

	"github.com/hookhost/hookhost/scripting"
)

// defaultEngines are the engines of a host whose Options.Engines is nil.
func defaultEngines() []scripting.Engine {
	return engines.All()
}

// IsScript reports whether the file name base (without its directory)
// is a hook script for a host of the default engines (Options.Engines
// nil): one it loads when it is a regular file of the directory or of a
// hook pack.
func IsScript(base string) bool {
	return scriptName(base, func(ext string) bool {
		return slices.ContainsFunc(defaultEngines(), func(e scripting.Engine) bool { return e.Extension() == ext })
	})
}

// scriptName reports whether base is a script: an engine's extension
// (known reports which), not a test file, not hidden.
func scriptName(base string, known func(ext string) bool) bool {
	ext := path.Ext(base)
	return !strings.HasPrefix(base, ".") && known(ext) && !strings.HasSuffix(base, "_test"+ext)
}
