package json_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/json"
)

// TestScripts runs testdata/json.lua and json.star through both engines.
func TestScripts(t *testing.T) { scripttest.Run(t, "testdata", json.New()) }
