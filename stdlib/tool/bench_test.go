package tool_test

import (
	"testing"

	"github.com/hookhost/hookhost/stdlib/stdlibtest"
	"github.com/hookhost/hookhost/stdlib/tool"
)

// The functions run on every tool call of every guard that uses them:
// these benchmarks show what one call costs, without an engine.

func BenchmarkKind(b *testing.B) {
	m := tool.New()
	config := map[string]any{"shell_tools": []any{"run_tests"}, "protected": []any{"/data"}}
	for b.Loop() {
		if _, err := stdlibtest.Call(b, m, "kind", "run_shell_command", config); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCommandArgv(b *testing.B) {
	m := tool.New()
	params := map[string]any{"command": []any{"bash", "-lc", "git status && rm -rf build"}, "workdir": "/w"}
	for b.Loop() {
		if _, err := stdlibtest.Call(b, m, "command", params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPathsApplyPatch(b *testing.B) {
	m := tool.New()
	params := map[string]any{"command": "*** Begin Patch\n*** Update File: src/a.go\n@@\n-a\n+b\n*** Add File: src/b.go\n+package b\n*** End Patch\n"}
	for b.Loop() {
		if _, err := stdlibtest.Call(b, m, "paths", "apply_patch", params, "/w"); err != nil {
			b.Fatal(err)
		}
	}
}
