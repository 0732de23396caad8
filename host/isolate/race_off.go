//go:build !race

package isolate

const raceBuild = false
