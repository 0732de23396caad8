// Command agentloop is a small agent loop that embeds hookhost: a
// scripted (fake) model asks for tool calls, the host's hooks decide
// about each one through the typed API (Host.BeforeTool, ApproveTool,
// AfterTool), and the loop acts on the decision — deny, ask, modify,
// respond, abort. It is the part of an agent an embedder copies; the
// model and the tools are stand-ins.
//
// Run it from anywhere with "go run ./examples/agentloop"; it uses the
// hooks embedded from hooks/ (guard.lua, tools.star), or the directory
// given with -dir, which it then watches for changes.
package main
