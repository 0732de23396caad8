package setting_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/setting"
)

// TestScripts runs testdata/setting.lua and setting.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", setting.New()) }
