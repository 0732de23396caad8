//go:build !(linux || darwin || freebsd)

package isolate

import "errors"

// apply fails: process isolation needs the limits of a Unix system.
func (l OSLimits) apply() error {
	return errors.New("process isolation is not supported on this system")
}
