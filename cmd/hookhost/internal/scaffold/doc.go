// Package scaffold holds what hookhost init writes into a new hooks
// directory: a guardrail in each language with its tests (a script test
// and a table test), a commented hookhost.yaml, and the LuaLS annotations
// that let lua-language-server complete and check hook and test files.
//
// The templates are embedded in the binary (files/ and lua/), so init
// needs nothing from the source tree. lua/ is the one home of the LuaLS
// annotations; its test keeps them in step with the modules the engines
// bind, and the scaffold's own tests check that the guardrails pass their
// tests and that hookhost.yaml explains every key the host accepts.
//
// Write never overwrites: it checks every target first and refuses,
// naming the file, when any exists; it then creates each file
// exclusively, so a file that appears meanwhile is not clobbered either.
package scaffold
