package re_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/re"
)

// TestScripts runs testdata/re.lua and re.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", re.New()) }
