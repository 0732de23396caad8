package starlark_test

import (
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
)

// TestScripts runs testdata/*.star: the dialect, the hook and expect modules.
func TestScripts(t *testing.T) {
	for _, f := range []string{"testdata/language.star", "testdata/expect.star"} {
		t.Run(f, func(t *testing.T) { scripttest.RunFile(t, f) })
	}
}
