package starlark_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
)

// TestScripts runs testdata/*.star: the dialect and the hook module.
func TestScripts(t *testing.T) {
	scripttest.RunFile(t, "testdata/language.star")
}
