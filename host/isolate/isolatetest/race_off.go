//go:build !race

package isolatetest

const raceBuild = false
