package shell_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/shell"
)

// TestScripts runs testdata/parse.lua and parse.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", shell.New()) }
