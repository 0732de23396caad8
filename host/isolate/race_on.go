//go:build race

package isolate

// raceBuild: the race detector maps terabytes of shadow address space,
// so a worker built with it cannot have its address space limited.
const raceBuild = true
