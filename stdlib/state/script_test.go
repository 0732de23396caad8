package state_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	"github.com/hookhost/hookhost/stdlib/state"
)

// TestScripts runs testdata/state.lua and state.star through both
// engines, sharing one store as the hooks of a host do.
func TestScripts(t *testing.T) {
	scripttest.Run(t, "testdata", state.New(state.NewStore(state.Limits{}, nil)))
}
