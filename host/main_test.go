package host

import (
	"fmt"
	"os"
	"testing"

	"github.com/hookhost/hookhost/host/isolate"
	"github.com/hookhost/hookhost/host/isolate/isolatetest"
)

// testWorker is the binary isolated files' workers start from in these
// tests ("" for the test binary itself).
var testWorker string

// TestMain lets the test binary serve as the worker of isolated files
// (the host starts workers from its own executable), or builds one when
// the race detector makes it unfit.
func TestMain(m *testing.M) {
	isolate.RunWorkerIfRequested()
	exe, cleanup, err := isolatetest.Worker()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testWorker = exe
	code := m.Run()
	cleanup()
	os.Exit(code)
}
