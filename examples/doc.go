// Package examples holds sample hooks (examples/hooks), each written in
// both Lua and Starlark, and a small agent loop that embeds the host
// (examples/agentloop). The tests check that the two versions of each sample
// decide the same.
package examples
