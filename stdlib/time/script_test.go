package time_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	hhtime "github.com/hookhost/hookhost/stdlib/time"
)

// TestScripts runs testdata/time.lua and time.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", hhtime.New(nil)) }
