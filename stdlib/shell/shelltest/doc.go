// Package shelltest holds shell lines that tests and benchmarks in
// several packages share, so that each measures the same lines.
package shelltest
