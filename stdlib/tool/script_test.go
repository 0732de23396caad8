package tool_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/tool"
)

// TestScripts runs testdata/tool.lua and tool.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", tool.New()) }
