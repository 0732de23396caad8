//go:build !linux

package isolate

// runUpgradeHostIfRequested: the upgrade test needs /proc/self/exe.
func runUpgradeHostIfRequested() {}
