//go:build race

package starlark

// raceSlowdown scales the budgets of tests that bind or convert large
// values: the race detector makes such work several times slower.
const raceSlowdown = 10
