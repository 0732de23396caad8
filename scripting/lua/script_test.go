package lua_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
)

// TestScripts runs testdata/*.lua: the sandbox and the string library.
func TestScripts(t *testing.T) {
	for _, f := range []string{"testdata/sandbox.lua", "testdata/patterns.lua", "testdata/hookmodule.lua"} {
		t.Run(f, func(t *testing.T) { scripttest.RunFile(t, f) })
	}
}
