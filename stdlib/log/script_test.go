package log_test

import (
	"log/slog"
	"testing"

	"github.com/hookhost/hookhost/scripting/scripttest"
	hhlog "github.com/hookhost/hookhost/stdlib/log"
)

// TestScripts runs testdata/log.lua and log.star through both engines.
func TestScripts(t *testing.T) {
	scripttest.Run(t, "testdata", hhlog.New(slog.New(slog.DiscardHandler)))
}
