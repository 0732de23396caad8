package lua_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
)

// TestScripts runs testdata/*.lua: the sandbox, the string library, the hook and expect modules.
func TestScripts(t *testing.T) {
	for _, f := range []string{"testdata/sandbox.lua", "testdata/patterns.lua", "testdata/hookmodule.lua", "testdata/expect.lua", "testdata/rewrite.lua"} {
		t.Run(f, func(t *testing.T) { scripttest.RunFile(t, f) })
	}
}
