package path_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/path"
)

// TestScripts runs testdata/path.lua and path.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", path.New()) }
