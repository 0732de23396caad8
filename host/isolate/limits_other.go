//go:build !(linux || darwin || freebsd)

package isolate

import (
	"errors"
	"os"
)

// apply fails: process isolation needs the limits of a Unix system.
func (l OSLimits) apply() error {
	return errors.New("process isolation is not supported on this system")
}

// cpuWarning never receives: there is no CPU limit to warn of.
func cpuWarning() <-chan os.Signal { return nil }
